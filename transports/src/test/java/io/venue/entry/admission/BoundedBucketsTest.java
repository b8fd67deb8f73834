package io.venue.entry.admission;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Keyed token buckets on a clock the test moves: rate and burst per key, and a table that never holds more keys. */
class BoundedBucketsTest
{
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    @Test
    void eachKeyHasItsBurstThenItsRate()
    {
        final BoundedBuckets<String> buckets = new BoundedBuckets<>(2, 3, 10, clock::get);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0, buckets.acquire("a"));
        }
        assertEquals(1, buckets.acquire("a"), "the burst spent: a second to wait");
        assertEquals(0, buckets.acquire("b"), "another key has its own bucket");
        clock.addAndGet(500_000_000L);
        assertEquals(0, buckets.acquire("a"), "two a second: one back after half a second");
        assertEquals(1, buckets.acquire("a"));
    }

    @Test
    void theTableHoldsAtMostItsCapacityDroppingTheKeyUsedLeastRecently()
    {
        final BoundedBuckets<Integer> buckets = new BoundedBuckets<>(1, 1, 100, clock::get);
        for (int key = 0; key < 10_000; key++)
        {
            buckets.acquire(key);
            assertEquals(Math.min(key + 1, 100), buckets.size());
        }
        // key 9,999 is held, spent: refused; key 0 was dropped long ago: its bucket starts full again
        assertEquals(1, buckets.acquire(9_999));
        assertEquals(0, buckets.acquire(0));
    }
}
