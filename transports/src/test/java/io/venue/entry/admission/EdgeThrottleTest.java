package io.venue.entry.admission;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The edge throttle on a clock the test moves: burst, sustained rate, the wait it names, exempt addresses. */
class EdgeThrottleTest
{
    private long now = 1_000_000_000L;

    @Test
    void burstThenTheSustainedRatePerAddress() throws Exception
    {
        final InetAddress a = InetAddress.getByName("10.0.0.1");
        final InetAddress b = InetAddress.getByName("10.0.0.2");
        final EdgeThrottle throttle = new EdgeThrottle(10, 20, Set.of(), () -> now);
        for (int i = 0; i < 20; i++)
        {
            assertEquals(0, throttle.acquire(a), "burst request " + i);
        }
        assertEquals(1, throttle.acquire(a), "the 21st waits: a token comes in 100 ms, named as 1 s");
        assertEquals(0, throttle.acquire(b), "another address has its own bucket");
        now += 99_000_000L;
        assertEquals(1, throttle.acquire(a));
        now += 1_000_000L;
        assertEquals(0, throttle.acquire(a), "one token after 100 ms");
        assertEquals(1, throttle.acquire(a));
        now += 10_000_000_000L;
        for (int i = 0; i < 20; i++)
        {
            assertEquals(0, throttle.acquire(a), "full again after an idle while, never more than the burst");
        }
        assertEquals(1, throttle.acquire(a));
    }

    @Test
    void namesWholeSecondsForSlowRates() throws Exception
    {
        final InetAddress a = InetAddress.getByName("10.0.0.1");
        final EdgeThrottle throttle = new EdgeThrottle(1, 1, Set.of(), () -> now);
        assertEquals(0, throttle.acquire(a));
        assertEquals(1, throttle.acquire(a));
        final EdgeThrottle slow = new EdgeThrottle(1, 3, Set.of(), () -> now);
        for (int i = 0; i < 3; i++)
        {
            slow.acquire(a);
        }
        now += 300_000_000L;
        assertEquals(1, slow.acquire(a), "0.7 s to go: 1 s");
    }

    @Test
    void anIpv6HostSharesOneBucketPer64() throws Exception
    {
        final EdgeThrottle throttle = new EdgeThrottle(1, 2, Set.of(), () -> now);
        assertEquals(0, throttle.acquire(InetAddress.getByName("2001:db8:1:2::1")));
        assertEquals(0, throttle.acquire(InetAddress.getByName("2001:db8:1:2::2")));
        assertEquals(1, throttle.acquire(InetAddress.getByName("2001:db8:1:2:ffff::9")), "same /64");
        assertEquals(0, throttle.acquire(InetAddress.getByName("2001:db8:1:3::1")), "another /64");
    }

    @Test
    void refusalsAreJournaledAtMostOnceASecondPerAddressWithTheirCount() throws Exception
    {
        final InetAddress a = InetAddress.getByName("10.0.0.1");
        final EdgeThrottle throttle = new EdgeThrottle(1, 1, Set.of(), () -> now);
        assertEquals(0, throttle.acquire(a));
        assertEquals(0, throttle.refusalsToJournal(a, false), "nothing refused yet");
        long journaled = 0;
        for (int i = 0; i < 50; i++)
        {
            now += 1_000_000L;
            final long wait = throttle.acquire(a);
            journaled += throttle.refusalsToJournal(a, wait > 0);
        }
        assertEquals(1, journaled, "the first refusal at once, the next 49 held for a second");
        now += 1_000_000_000L;
        assertEquals(0, throttle.acquire(a), "the bucket refilled");
        assertEquals(49, throttle.refusalsToJournal(a, false), "the held count goes with the next request");
        assertEquals(0, throttle.refusalsToJournal(a, false));
    }

    @Test
    void heldCountsAreFlushedOnceASecondOld() throws Exception
    {
        final InetAddress a = InetAddress.getByName("2001:db8::7");
        final EdgeThrottle throttle = new EdgeThrottle(1, 1, Set.of(), () -> now);
        throttle.acquire(a);
        for (int i = 0; i < 5; i++)
        {
            throttle.refusalsToJournal(a, throttle.acquire(a) > 0);
        }
        final StringBuilder flushed = new StringBuilder();
        throttle.flushHeld((address, count) -> flushed.append(address).append(' ').append(count));
        assertEquals("", flushed.toString(), "held for less than a second");
        now += 1_000_000_000L;
        throttle.flushHeld((address, count) -> flushed.append(address).append(' ').append(count));
        assertEquals("2001:db8:0:0:0:0:0:0/64 4", flushed.toString(), "the first went at once, the other four now");
    }

    @Test
    void exemptAddressesAreNeverLimited() throws Exception
    {
        final InetAddress local = InetAddress.getByName("127.0.0.1");
        final EdgeThrottle throttle = new EdgeThrottle(1, 1, Set.of(local), () -> now);
        for (int i = 0; i < 1_000; i++)
        {
            assertEquals(0, throttle.acquire(local));
        }
    }
}
