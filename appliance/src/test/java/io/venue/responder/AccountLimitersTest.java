package io.venue.responder;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class AccountLimitersTest
{
    private final AccountLimiters limiters = new AccountLimiters(50, 1_000);
    private final long[] now = new long[2];

    @Test
    void aReportRefillsWithTimeAndAnUnknownAccountHasAFullBucket()
    {
        limiters.reported("a", 1_000, 10_000); // empty: full again in 1,000 ms
        limiters.at("a", 10_000, now);
        assertArrayEquals(new long[] {0, 1_000}, now);
        limiters.at("a", 10_500, now);
        assertArrayEquals(new long[] {25, 500}, now, "half refilled");
        limiters.at("unknown", 10_500, now);
        assertArrayEquals(new long[] {50, 0}, now);
    }

    @Test
    void onlyBucketsStillRefillingAreKept()
    {
        for (int i = 0; i < 1_000; i++)
        {
            limiters.reported("account-" + i, 20, 10_000 + i); // each full again 20 ms after its report
        }
        assertEquals(20, limiters.size(), "the accounts whose buckets have not refilled yet");
        limiters.reported("full", 0, 20_000);
        assertEquals(0, limiters.size());
    }
}
