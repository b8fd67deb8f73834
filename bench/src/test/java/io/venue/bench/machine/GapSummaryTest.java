package io.venue.bench.machine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class GapSummaryTest
{
    private static final long[] THRESHOLDS = {20_000, 50_000, 2_000_000};

    @Test
    void countsGapsBySizeAndKeepsTheLongest()
    {
        final long[] gaps = {15_000, 30_000, 150_000, 3_000_000, 999_999_999};
        final GapSummary summary = GapSummary.of(gaps, 4, 1_000_000_000L, THRESHOLDS);

        assertEquals(3, summary.over20us());
        assertEquals(2, summary.over100us());
        assertEquals(1, summary.over1ms());
        assertEquals(3_000_000, summary.longestNs(), "a gap past the count is not read");
    }

    @Test
    void theDelayedShareIsWhatEachGapHoldsBeyondTheThreshold()
    {
        // 10 ms of 1 s: a 4 ms gap delays arrivals in its first 3.98 ms by over 20 us, in its first 2 ms by over 2 ms
        final long[] gaps = {4_000_000, 60_000, 10_000};
        final GapSummary summary = GapSummary.of(gaps, gaps.length, 1_000_000_000L, THRESHOLDS);

        final double over20us = (3_980_000 + 40_000) / 1e9;
        final double over50us = (3_950_000 + 10_000) / 1e9;
        final double over2ms = 2_000_000 / 1e9;
        assertArrayEquals(new double[] {over20us, over50us, over2ms}, summary.shareDelayedOver(), 1e-12);
    }

    @Test
    void noGapsDelayNothing()
    {
        final GapSummary summary = GapSummary.of(new long[0], 0, 1_000_000_000L, THRESHOLDS);

        assertArrayEquals(new double[] {0, 0, 0}, summary.shareDelayedOver());
        assertEquals(
            "gaps over 20 us 0, over 100 us 0, over 1 ms 0, longest 0.0 us; instants delayed over 20 us 0.000%," +
            " over 50 us 0.000%, over 2 ms 0.000%", summary.describe());
    }
}
