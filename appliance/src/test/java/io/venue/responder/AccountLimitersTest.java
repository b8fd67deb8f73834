package io.venue.responder;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccountLimitersTest
{
    private final AccountLimiters limiters = new AccountLimiters(50, 1_000);
    private final long[] now = new long[2];

    @Test
    void aReportRefillsWithTimeAndAnUnknownAccountHasAFullBucket()
    {
        limiters.reported(account("a"), 1_000, 10_000); // empty: full again in 1,000 ms
        limiters.at(account("a"), 10_000, now);
        assertArrayEquals(new long[] {0, 1_000}, now);
        limiters.at(account("a"), 10_500, now);
        assertArrayEquals(new long[] {25, 500}, now, "half refilled");
        limiters.at(account("unknown"), 10_500, now);
        assertArrayEquals(new long[] {50, 0}, now);
    }

    @Test
    void onlyBucketsStillRefillingAreKept()
    {
        for (int i = 0; i < 1_000; i++)
        {
            limiters.reported(account("account-" + i), 20, 10_000 + i); // each full again 20 ms after its report
        }
        assertEquals(20, limiters.size(), "the accounts whose buckets have not refilled yet");
        assertEquals(20, limiters.kept());
        limiters.reported(account("full"), 0, 20_000);
        assertEquals(0, limiters.size());
        assertEquals(0, limiters.kept());
    }

    @Test
    void anAccountReportedAgainAndAgainHoldsNoOtherInTheMap()
    {
        // "busy" is first in the queue and never refills; the others each refill 20 ms after their one report
        for (int i = 0; i < 10_000; i++)
        {
            limiters.reported(account("busy"), 500, 10_000 + i);
            limiters.reported(account("account-" + i), 20, 10_000 + i);
        }
        assertTrue(limiters.kept() <= 1 + 20 + 500, limiters.kept() + " kept");
        limiters.at(account("busy"), 19_999, now);
        assertArrayEquals(new long[] {25, 500}, now, "the busy account's latest report counts");
        limiters.at(account("account-9999"), 10_000 + 9_999, now);
        assertArrayEquals(new long[] {49, 20}, now);
    }

    @Test
    void anAccountFullAgainAndThenChargedKeepsItsLatestReport()
    {
        limiters.reported(account("a"), 1_000, 10_000);
        limiters.reported(account("a"), 0, 10_100);
        limiters.at(account("a"), 10_100, now);
        assertArrayEquals(new long[] {50, 0}, now, "reported full");
        limiters.reported(account("a"), 400, 10_200);
        limiters.at(account("a"), 10_200, now);
        assertArrayEquals(new long[] {30, 400}, now);
        limiters.at(account("a"), 10_700, now);
        assertArrayEquals(new long[] {50, 0}, now);
        limiters.reported(account("b"), 10, 12_000);
        assertEquals(1, limiters.kept(), "a left when its bucket was full");
    }

    /** A 20-byte account from a name (the limiter reads the bytes only). */
    private static byte[] account(final String name)
    {
        return Arrays.copyOf(name.getBytes(StandardCharsets.US_ASCII), 20);
    }
}
