package io.venue.transport.tcp;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The per-address cap's table: counted per address (IPv6 per /64), given back on release, bounded, exemptions. */
class AddressSessionsTest
{
    @Test
    void anAddressHoldsAtMostItsCapAndGetsItBackOnRelease() throws Exception
    {
        final AddressSessions sessions = new AddressSessions(2, 100, Set.of());
        final InetAddress one = InetAddress.getByName("192.0.2.1");
        final InetAddress a = sessions.acquire(one);
        final InetAddress b = sessions.acquire(one);
        assertNotNull(a);
        assertNotNull(b);
        assertNull(sessions.acquire(one), "a third from the same address");
        assertNotNull(sessions.acquire(InetAddress.getByName("192.0.2.2")), "another address has its own count");
        sessions.release(a);
        final InetAddress c = sessions.acquire(one);
        assertNotNull(c, "a released place is free again");
        sessions.release(b);
        sessions.release(c);
        assertEquals(1, sessions.addressesTracked(), "an address at zero leaves the table");
        sessions.release(null);
        assertEquals(1, sessions.addressesTracked(), "a connection never counted gives nothing back");
    }

    @Test
    void ipv6AddressesCountByTheirSlash64() throws Exception
    {
        final AddressSessions sessions = new AddressSessions(2, 100, Set.of());
        assertNotNull(sessions.acquire(InetAddress.getByName("2001:db8:1:2::1")));
        assertNotNull(sessions.acquire(InetAddress.getByName("2001:db8:1:2:ffff::9")));
        assertNull(sessions.acquire(InetAddress.getByName("2001:db8:1:2:abcd::3")), "the same /64, rotated");
        assertNotNull(sessions.acquire(InetAddress.getByName("2001:db8:1:3::1")), "the next /64 is another one");
        assertEquals(2, sessions.addressesTracked());
    }

    @Test
    void theTableIsBoundedAndExemptAddressesAreNeitherCappedNorCounted() throws Exception
    {
        final InetAddress gateway = InetAddress.getByName("10.0.0.7");
        final AddressSessions sessions = new AddressSessions(1, 3, Set.of(gateway));
        for (int i = 1; i <= 3; i++)
        {
            assertNotNull(sessions.acquire(InetAddress.getByName("198.51.100." + i)));
        }
        assertNull(sessions.acquire(InetAddress.getByName("198.51.100.200")), "a fourth address: the table is full");
        assertEquals(3, sessions.addressesTracked());
        for (int i = 0; i < 10; i++)
        {
            final InetAddress key = sessions.acquire(gateway);
            assertNotNull(key, "an exempt address is never refused");
            sessions.release(key);
        }
        assertEquals(3, sessions.addressesTracked(), "nor counted");
        assertThrows(IllegalArgumentException.class, () -> new AddressSessions(0, 1, Set.of()));
        assertThrows(IllegalArgumentException.class, () -> new AddressSessions(1, 0, Set.of()));
    }
}
