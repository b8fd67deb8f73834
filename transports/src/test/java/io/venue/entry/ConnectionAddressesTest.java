package io.venue.entry;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionAddressesTest
{
    private final long[] found = new long[2];

    @Test
    void keepsIpv4AsMappedIpv6AndIpv6AsItIs() throws Exception
    {
        final ConnectionAddresses addresses = new ConnectionAddresses(16);
        final ConnectionIds http = new ConnectionIds(ConnectionIds.HTTP);
        final long a = http.next();
        final long b = http.next();
        addresses.record(a, InetAddress.getByName("198.51.100.7"));
        addresses.record(b, InetAddress.getByName("2001:db8::1:2"));

        assertTrue(addresses.find(a, found));
        assertArrayEquals(mapped(198, 51, 100, 7), bytes(found));
        assertTrue(addresses.find(b, found));
        assertArrayEquals(InetAddress.getByName("2001:db8::1:2").getAddress(), bytes(found));
        assertFalse(addresses.find(http.next(), found), "never recorded");
        assertFalse(addresses.find(0, found), "the node's own id is nobody's");
    }

    @Test
    void aLanesLastConnectionsNeverDisplaceEachOtherAndOlderOnesAreForgotten() throws Exception
    {
        final int capacity = 1 << 10;
        final ConnectionAddresses addresses = new ConnectionAddresses(capacity);
        final ConnectionIds http = new ConnectionIds(ConnectionIds.HTTP);
        final long first = http.next();
        addresses.record(first, InetAddress.getByName("10.0.0.1"));
        final long[] ids = new long[capacity];
        for (int i = 0; i < capacity; i++)
        {
            ids[i] = http.next();
            addresses.record(ids[i], InetAddress.getByAddress(new byte[]{10, 1, (byte)(i >> 8), (byte)i}));
        }
        for (int i = 0; i < capacity; i++)
        {
            assertTrue(addresses.find(ids[i], found), "connection " + i);
            assertArrayEquals(mapped(10, 1, (i >> 8) & 0xFF, i & 0xFF), bytes(found));
        }
        assertFalse(addresses.find(first, found), "a table's worth of newer connections later, forgotten");
    }

    @Test
    void aReaderNeverSeesAnAddressThatIsNotTheConnectionsWhileLanesWrite() throws Exception
    {
        // a tiny table, so writers overwrite the slots the reader looks at all the time
        final ConnectionAddresses addresses = new ConnectionAddresses(4);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong next = new AtomicLong();
        final Thread[] writers = new Thread[2];
        for (int w = 0; w < writers.length; w++)
        {
            writers[w] = new Thread(() ->
            {
                try
                {
                    while (!stop.get())
                    {
                        final long id = next.incrementAndGet();
                        addresses.record(id, InetAddress.getByAddress(addressOf(id)));
                    }
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            });
            writers[w].start();
        }
        long seen = 0;
        try
        {
            for (int i = 0; i < 2_000_000; i++)
            {
                final long id = Math.max(1, next.get() - (i & 7));
                if (addresses.find(id, found))
                {
                    seen++;
                    assertArrayEquals(addressOf(id), bytes(found), "connection " + id);
                }
            }
        }
        finally
        {
            stop.set(true);
            for (final Thread writer : writers)
            {
                writer.join();
            }
        }
        assertTrue(seen > 0, "the reader found some addresses");
    }

    /** A 16-byte address that spells the id, so a torn read (halves of two connections) cannot pass. */
    private static byte[] addressOf(final long id)
    {
        final byte[] address = new byte[16];
        for (int i = 0; i < 8; i++)
        {
            address[i] = (byte)(id >>> (56 - 8 * i));
            address[8 + i] = (byte)~(id >>> (56 - 8 * i));
        }
        address[0] = 0x20;
        return address;
    }

    private static byte[] bytes(final long[] halves)
    {
        final byte[] out = new byte[ConnectionAddresses.LENGTH];
        ConnectionAddresses.toBytes(halves[0], halves[1], out, 0);
        return out;
    }

    private static byte[] mapped(final int a, final int b, final int c, final int d)
    {
        final byte[] out = new byte[16];
        out[10] = (byte)0xFF;
        out[11] = (byte)0xFF;
        out[12] = (byte)a;
        out[13] = (byte)b;
        out[14] = (byte)c;
        out[15] = (byte)d;
        return out;
    }
}
