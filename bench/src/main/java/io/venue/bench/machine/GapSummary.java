package io.venue.bench.machine;

import java.util.Locale;

/**
 * What a list of gaps in a thread's running time means for work arriving at random instants: how many gaps there
 * were over a few sizes, the longest, and for each threshold T the share of the run's instants at which arriving
 * work would have waited more than T for the thread (work arriving {@code g - T} or more before the end of a gap
 * of length g waits longer than T).
 */
record GapSummary(long over20us, long over100us, long over1ms, long longestNs, long[] thresholdsNs,
    double[] shareDelayedOver)
{
    static GapSummary of(final long[] gaps, final int count, final long runNs, final long[] thresholdsNs)
    {
        long over20us = 0;
        long over100us = 0;
        long over1ms = 0;
        long longest = 0;
        final long[] delayedNs = new long[thresholdsNs.length];
        for (int i = 0; i < count; i++)
        {
            final long gap = gaps[i];
            over20us += gap > 20_000 ? 1 : 0;
            over100us += gap > 100_000 ? 1 : 0;
            over1ms += gap > 1_000_000 ? 1 : 0;
            longest = Math.max(longest, gap);
            for (int t = 0; t < thresholdsNs.length; t++)
            {
                delayedNs[t] += Math.max(0, gap - thresholdsNs[t]);
            }
        }
        final double[] shares = new double[thresholdsNs.length];
        for (int t = 0; t < thresholdsNs.length; t++)
        {
            shares[t] = (double)delayedNs[t] / runNs;
        }
        return new GapSummary(over20us, over100us, over1ms, longest, thresholdsNs.clone(), shares);
    }

    String describe()
    {
        final StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
            "gaps over 20 us %,d, over 100 us %,d, over 1 ms %,d, longest %.1f us; instants delayed",
            over20us, over100us, over1ms, longestNs / 1e3));
        for (int t = 0; t < thresholdsNs.length; t++)
        {
            text.append(String.format(Locale.ROOT, "%s over %s %.3f%%", t == 0 ? "" : ",", micros(thresholdsNs[t]),
                100 * shareDelayedOver[t]));
        }
        return text.toString();
    }

    private static String micros(final long ns)
    {
        return ns >= 1_000_000 ? ns / 1_000_000 + " ms" : ns / 1_000 + " us";
    }
}
