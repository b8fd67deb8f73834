package io.venue.entry.admission;

import java.util.Arrays;

/**
 * What one key spent over the last {@code widthMs}, kept in buckets of about a tenth of the width: an action counts
 * from when it was charged until its bucket has wholly left the window, so for between {@code widthMs} and
 * {@code widthMs} plus one bucket. Counting a little long, never short, means no span of {@code widthMs} ever holds
 * more than a limit checked against {@link #used}. Not thread safe (the owner locks).
 */
public final class SlidingCount
{
    static final int BUCKETS_PER_WINDOW = 10;

    private final long widthMs;
    private final long bucketMs;
    /** By epoch (time / bucketMs) modulo the ring's length: which epoch a slot holds, and its count. */
    private final long[] epochs;
    private final long[] counts;
    private long newestEpoch = Long.MIN_VALUE;

    public SlidingCount(final long widthMs)
    {
        this.widthMs = widthMs;
        this.bucketMs = Math.max(1, (widthMs + BUCKETS_PER_WINDOW - 1) / BUCKETS_PER_WINDOW);
        // the live buckets span at most widthMs / bucketMs + 2 epochs
        final int ring = (int)(widthMs / bucketMs) + 2;
        epochs = new long[ring];
        counts = new long[ring];
        Arrays.fill(epochs, Long.MIN_VALUE);
    }

    /** What counts now. */
    public long used(final long nowMs)
    {
        final long first = firstLiveEpoch(nowMs);
        long used = 0;
        for (int slot = 0; slot < epochs.length; slot++)
        {
            if (epochs[slot] >= first)
            {
                used += counts[slot];
            }
        }
        return used;
    }

    public void add(final long nowMs, final long amount)
    {
        final long epoch = Math.floorDiv(nowMs, bucketMs);
        final int slot = (int)Math.floorMod(epoch, (long)epochs.length);
        if (epochs[slot] != epoch)
        {
            epochs[slot] = epoch;
            counts[slot] = 0;
        }
        counts[slot] += amount;
        newestEpoch = Math.max(newestEpoch, epoch);
    }

    /**
     * Takes back up to {@code amount} of a charge made at {@code chargedAtMs}, from that charge's bucket (not the
     * newest: another key holder's later charge must keep counting as long as it should). A charge whose bucket has
     * left the ring no longer counts anyway.
     */
    public void takeBack(final long chargedAtMs, final long amount)
    {
        final long epoch = Math.floorDiv(chargedAtMs, bucketMs);
        final int slot = (int)Math.floorMod(epoch, (long)epochs.length);
        if (epochs[slot] == epoch)
        {
            counts[slot] -= Math.min(amount, counts[slot]);
        }
    }

    /** How long until {@code cost} more fits under {@code max} ({@code cost} at most {@code max}), 0 if it does now. */
    public long fitsInMs(final long nowMs, final long max, final long cost)
    {
        long used = used(nowMs);
        final long first = firstLiveEpoch(nowMs);
        for (long epoch = first; used + cost > max && epoch <= newestEpoch; epoch++)
        {
            final int slot = (int)Math.floorMod(epoch, (long)epochs.length);
            if (epochs[slot] == epoch && counts[slot] > 0)
            {
                used -= counts[slot];
                if (used + cost <= max)
                {
                    return leavesAtMs(epoch) - nowMs;
                }
            }
        }
        return used + cost <= max ? 0 : leavesAtMs(newestEpoch) - nowMs;
    }

    /** How long until the oldest action still counted stops counting; 0 when none counts. */
    public long oldestLeavesInMs(final long nowMs)
    {
        for (long epoch = firstLiveEpoch(nowMs); epoch <= newestEpoch; epoch++)
        {
            final int slot = (int)Math.floorMod(epoch, (long)epochs.length);
            if (epochs[slot] == epoch && counts[slot] > 0)
            {
                return leavesAtMs(epoch) - nowMs;
            }
        }
        return 0;
    }

    /** True when nothing charged so far counts any more. */
    public boolean idle(final long nowMs)
    {
        return newestEpoch < firstLiveEpoch(nowMs);
    }

    /** The oldest bucket that holds a moment of the window (nowMs - widthMs, nowMs]. */
    private long firstLiveEpoch(final long nowMs)
    {
        return Math.floorDiv(nowMs - widthMs + 1, bucketMs);
    }

    /** The first moment at which the bucket no longer holds a moment of the window. */
    private long leavesAtMs(final long epoch)
    {
        return (epoch + 1) * bucketMs + widthMs - 1;
    }
}
