package io.venue.transport.proxy;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PROXY v2 decoder against headers made here: whole ones name their client whether read at once or byte by byte;
 * random and mutated bytes never throw, and whatever the decoder takes agrees with a reference reading of the same
 * bytes (so it never names a wrong address).
 */
public class ProxyV2HeaderTest
{
    private static final int CASES = 20_000;

    /** A PROXY header (TCP over IPv4 or IPv6) for {@code source}:{@code port}, with {@code tlv} bytes after. */
    public static byte[] header(final InetAddress source, final int port, final int tlv)
    {
        final byte[] address = source.getAddress();
        final boolean six = address.length == 16;
        final int block = (six ? 36 : 12) + tlv;
        final ByteBuffer bytes = ByteBuffer.allocate(16 + block);
        bytes.put(ProxyV2Header.SIGNATURE).put((byte)0x21).put((byte)(six ? 0x21 : 0x11)).putShort((short)block);
        bytes.put(address).put(new byte[address.length]).putShort((short)port).putShort((short)443);
        return bytes.array();
    }

    public static byte[] local()
    {
        final ByteBuffer bytes = ByteBuffer.allocate(16);
        return bytes.put(ProxyV2Header.SIGNATURE).put((byte)0x20).put((byte)0).putShort((short)0).array();
    }

    @Test
    void aWholeHeaderNamesItsClientReadAtOnceOrByteByByte() throws Exception
    {
        final Random random = new Random(7);
        final ProxyV2Header header = new ProxyV2Header();
        for (int i = 0; i < 2_000; i++)
        {
            final byte[] address = new byte[random.nextBoolean() ? 4 : 16];
            random.nextBytes(address);
            final InetAddress source = InetAddress.getByAddress(address);
            final int port = random.nextInt(65_536);
            final byte[] bytes = header(source, port, random.nextInt(40));
            for (int n = 0; n < bytes.length; n++)
            {
                assertEquals(ProxyV2Header.NEED_MORE, header.parse(bytes, 0, n), "a prefix of " + n + " bytes");
            }
            assertEquals(bytes.length, header.parse(bytes, 0, bytes.length));
            assertEquals(source, header.sourceAddress());
            assertEquals(port, header.sourcePort());
            assertTrue(!header.local());
        }
        assertEquals(16, header.parse(local(), 0, 16));
        assertTrue(header.local());
    }

    @Test
    void randomAndMutatedBytesNeverThrowAndNeverNameAWrongAddress()
    {
        final Random random = new Random(23);
        final ProxyV2Header header = new ProxyV2Header();
        int taken = 0;
        for (int i = 0; i < CASES; i++)
        {
            final byte[] bytes;
            if (i % 4 == 0)
            {
                bytes = new byte[random.nextInt(80)];
                random.nextBytes(bytes);
            }
            else
            {
                final byte[] address = new byte[random.nextBoolean() ? 4 : 16];
                random.nextBytes(address);
                final byte[] valid = i % 7 == 0 ? local() : header(addressOf(address), random.nextInt(65_536),
                    random.nextInt(8));
                bytes = Arrays.copyOf(valid, Math.max(0, valid.length + random.nextInt(9) - 4));
                for (int flips = 1 + random.nextInt(3); flips > 0 && bytes.length > 0; flips--)
                {
                    // most flips land in the fixed part, where every byte matters
                    final int at = random.nextInt(Math.min(bytes.length, random.nextBoolean() ? 16 : bytes.length));
                    bytes[at] = (byte)(random.nextBoolean() ? random.nextInt(256) : bytes[at] ^ 1 << random.nextInt(8));
                }
            }
            final int offset = random.nextInt(3);
            final byte[] shifted = new byte[bytes.length + offset];
            System.arraycopy(bytes, 0, shifted, offset, bytes.length);
            final int result = header.parse(shifted, offset, bytes.length);
            assertEquals(reference(bytes), describe(result, header), "case " + i + ": " + Arrays.toString(bytes));
            taken += result > 0 ? 1 : 0;
        }
        assertTrue(taken > CASES / 20, "enough of the mutated headers stay valid to check their addresses: " + taken);
    }

    @Test
    void outOfRangeArgumentsAreMalformedNotThrown()
    {
        final ProxyV2Header header = new ProxyV2Header();
        assertEquals(ProxyV2Header.MALFORMED, header.parse(new byte[4], 2, 4));
        assertEquals(ProxyV2Header.MALFORMED, header.parse(new byte[4], -1, 2));
        assertEquals(ProxyV2Header.MALFORMED, header.parse(new byte[4], 0, -1));
    }

    private static InetAddress addressOf(final byte[] address)
    {
        try
        {
            return InetAddress.getByAddress(address);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static String describe(final int result, final ProxyV2Header header)
    {
        if (result <= 0)
        {
            return result == 0 ? "more" : "malformed";
        }
        return header.local() ? "local " + result : header.sourceAddress() + ":" + header.sourcePort() + " " + result;
    }

    /** The spec read plainly, for comparison: what the bytes say, or more/malformed. */
    private static String reference(final byte[] bytes)
    {
        for (int i = 0; i < Math.min(12, bytes.length); i++)
        {
            if (bytes[i] != ProxyV2Header.SIGNATURE[i])
            {
                return "malformed";
            }
        }
        if (bytes.length > 12 && bytes[12] != 0x20 && bytes[12] != 0x21)
        {
            return "malformed";
        }
        if (bytes.length < 16)
        {
            return "more";
        }
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        final int length = buffer.getShort(14) & 0xFFFF;
        if (16 + length > ProxyV2Header.MAX_LENGTH)
        {
            return "malformed";
        }
        final boolean proxy = bytes[12] == 0x21;
        final int family = bytes[13] & 0xFF;
        if (proxy && !(family == 0x11 && length >= 12 || family == 0x21 && length >= 36))
        {
            return "malformed";
        }
        if (bytes.length < 16 + length)
        {
            return "more";
        }
        if (!proxy)
        {
            return "local " + (16 + length);
        }
        final int size = family == 0x11 ? 4 : 16;
        final byte[] address = Arrays.copyOfRange(bytes, 16, 16 + size);
        final int port = buffer.getShort(16 + 2 * size) & 0xFFFF;
        return addressOf(address) + ":" + port + " " + (16 + length);
    }
}
