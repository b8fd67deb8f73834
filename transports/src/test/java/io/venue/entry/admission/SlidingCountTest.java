package io.venue.entry.admission;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sliding count against a model that keeps every charge's time. */
class SlidingCountTest
{
    @Test
    void anActionCountsForTheWindowAndAtMostOneBucketMore()
    {
        final SlidingCount count = new SlidingCount(1_000);
        count.add(10_050, 1);
        assertEquals(1, count.used(11_049), "999 ms later");
        assertEquals(1, count.used(11_098), "its bucket [10,000, 10,100) still holds a moment of the window");
        assertEquals(0, count.used(11_099));
        assertEquals(1_049, count.oldestLeavesInMs(10_050));
        assertTrue(count.idle(11_099));
    }

    @Test
    void aTakeBackRemovesFromTheChargesOwnBucket()
    {
        final SlidingCount count = new SlidingCount(1_000);
        count.add(0, 2);
        count.add(300, 3);
        count.takeBack(0, 1);
        assertEquals(4, count.used(300));
        assertEquals(3, count.used(1_099), "the later charge is untouched");
        count.takeBack(350, 5);
        assertEquals(1, count.used(350), "never below zero");
        count.add(5_000, 1);
        count.takeBack(0, 1); // that bucket's slot now holds another epoch: nothing to take back
        assertEquals(1, count.used(5_000));
    }

    @Property(tries = 300)
    void neverUnderCountsNorHoldsAnActionPastOneBucket(
        @ForAll @LongRange(min = 10, max = 120_000) final long widthMs,
        @ForAll @IntRange(min = 1, max = 60) final int limit,
        @ForAll final long seed)
    {
        final Random random = new Random(seed);
        final SlidingCount count = new SlidingCount(widthMs);
        final long bucketMs = (widthMs + SlidingCount.BUCKETS_PER_WINDOW - 1) / SlidingCount.BUCKETS_PER_WINDOW;
        final List<long[]> charged = new ArrayList<>(); // {time, amount}
        long now = random.nextInt(1_000_000);
        for (int step = 0; step < 400; step++)
        {
            now += random.nextInt((int)Math.min(Integer.MAX_VALUE, widthMs / 4 + 1));
            final long cost = 1 + random.nextInt(limit);
            final long used = count.used(now);
            // every charge inside the window counts; none older than the window and one bucket does
            final long inWindow = sum(charged, now - widthMs + 1, now);
            final long inWindowAndBucket = sum(charged, now - widthMs - bucketMs + 1, now);
            assertTrue(used >= inWindow && used <= inWindowAndBucket,
                used + " outside [" + inWindow + ", " + inWindowAndBucket + "]");
            if (used + cost <= limit)
            {
                count.add(now, cost);
                charged.add(new long[] {now, cost});
                assertTrue(sum(charged, now - widthMs + 1, now) <= limit,
                    "the limit holds over every span of the width");
            }
            else
            {
                final long wait = count.fitsInMs(now, limit, cost);
                assertTrue(wait > 0);
                assertTrue(count.used(now + wait - 1) + cost > limit, "not before the wait");
                assertTrue(count.used(now + wait) + cost <= limit, "it fits after the wait");
            }
        }
    }

    private static long sum(final List<long[]> charged, final long fromMs, final long toMs)
    {
        long sum = 0;
        for (final long[] charge : charged)
        {
            if (charge[0] >= fromMs && charge[0] <= toMs)
            {
                sum += charge[1];
            }
        }
        return sum;
    }
}
