package io.venue.engine.limit;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenBucketTest
{
    private static final long CAPACITY = 50;
    private static final long WINDOW = 1000;
    private final long[] words = new long[TokenBucket.WORDS];

    @Test
    void aBurstOfFiftyThenRefused()
    {
        final long t = 1_763_000_000_000L;
        for (int i = 0; i < 50; i++)
        {
            assertTrue(TokenBucket.tryAcquire(words, 0, t, CAPACITY, WINDOW), "action " + i);
        }
        final long[] before = words.clone();
        assertFalse(TokenBucket.tryAcquire(words, 0, t, CAPACITY, WINDOW));
        Assertions.assertArrayEquals(before, words, "a refusal writes nothing");
        assertEquals(0, TokenBucket.remaining(words, 0, t, CAPACITY, WINDOW));
        assertEquals(20, TokenBucket.retryAfterMs(words, 0, t, CAPACITY, WINDOW), "one action refills in 1000/50 ms");
        assertEquals(1000, TokenBucket.resetMs(words, 0, t, CAPACITY));
        assertFalse(TokenBucket.tryAcquire(words, 0, t + 19, CAPACITY, WINDOW));
        assertTrue(TokenBucket.tryAcquire(words, 0, t + 20, CAPACITY, WINDOW));
        assertEquals(50, TokenBucket.remaining(words, 0, t + 100_000, CAPACITY, WINDOW),
            "a long idle refills to full, no more");
        assertEquals(0, TokenBucket.resetMs(words, 0, t + 100_000, CAPACITY));
    }

    @Test
    void stampedTimeGoingBackwardsRefillsNothing()
    {
        for (int i = 0; i < 50; i++)
        {
            TokenBucket.tryAcquire(words, 0, 5_000, CAPACITY, WINDOW);
        }
        assertFalse(TokenBucket.tryAcquire(words, 0, 4_000, CAPACITY, WINDOW));
        assertFalse(TokenBucket.tryAcquire(words, 0, 5_000, CAPACITY, WINDOW));
    }

    @Property(tries = 200)
    void neverMoreThanCapacityInAnyWindowAfterTheFirst(
        @ForAll @IntRange(min = 1, max = 400) final int steps, @ForAll @LongRange(min = 0, max = 30) final long maxGap)
    {
        final long[] state = new long[TokenBucket.WORDS];
        final ArrayDeque<Long> accepted = new ArrayDeque<>();
        final Random random = new Random(steps * 31L + maxGap);
        long now = 1_000_000;
        for (int i = 0; i < steps * 5; i++)
        {
            now += maxGap == 0 ? 0 : random.nextInt((int)maxGap + 1);
            if (TokenBucket.tryAcquire(state, 0, now, CAPACITY, WINDOW))
            {
                accepted.addLast(now);
            }
            while (!accepted.isEmpty() && accepted.peekFirst() <= now - WINDOW)
            {
                accepted.removeFirst();
            }
            // a full bucket plus one window of refill: at most 2 × capacity in any window, capacity sustained
            assertTrue(accepted.size() <= 2 * CAPACITY, "accepted " + accepted.size() + " in one window");
        }
    }

    /** The bucket's arithmetic against exact big-integer arithmetic, up to idle spells whose refill passes 2^63. */
    @Property(tries = 3000)
    void remainingAndResetAreExactForAnyDeficitAndIdleSpell(
        @ForAll @LongRange(min = 1, max = 1_000_000_000L) final long capacity,
        @ForAll @LongRange(min = 1, max = 100_000L) final long windowMs,
        @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 2) final long deficitDraw,
        @ForAll @LongRange(min = -5, max = Long.MAX_VALUE / 2) final long elapsed)
    {
        final long deficit = deficitDraw % (capacity * windowMs + 1);
        final long lastMs = 1_000;
        final long[] words = {deficit, lastMs};
        final long nowMs = lastMs + elapsed;
        final BigInteger refill = BigInteger.valueOf(Math.max(0, elapsed)).multiply(BigInteger.valueOf(capacity));
        final long current = elapsed <= 0 ? deficit :
            BigInteger.valueOf(deficit).subtract(refill).max(BigInteger.ZERO).longValueExact();
        assertEquals((capacity * windowMs - current) / windowMs,
            TokenBucket.remaining(words, 0, nowMs, capacity, windowMs));
        assertEquals((current + capacity - 1) / capacity, TokenBucket.resetMs(words, 0, nowMs, capacity));
    }

    @Property(tries = 300)
    void whatTheResetTellsIsNeverMoreThanTheBucketHolds(
        @ForAll @LongRange(min = 1, max = 1_000) final long capacity,
        @ForAll @LongRange(min = 1, max = 3_600_000) final long windowMs,
        @ForAll @IntRange(min = 0, max = 3_000) final int acquires,
        @ForAll @LongRange(min = 0, max = 5_000) final long spacingMs)
    {
        final long[] bucket = new long[TokenBucket.WORDS];
        long t = 1_000;
        for (int i = 0; i < acquires; i++)
        {
            TokenBucket.tryAcquire(bucket, 0, t, capacity, windowMs);
            t += spacingMs / Math.max(1, acquires);
        }
        final long exact = TokenBucket.retryAfterMs(bucket, 0, t, capacity, windowMs);
        final long fromReset = TokenBucket.retryAfterMsFromReset(TokenBucket.resetMs(bucket, 0, t, capacity),
            capacity, windowMs);
        assertTrue(fromReset >= exact && fromReset <= exact + 1, "exact " + exact + ", from the reset " + fromReset);
        final long remaining = TokenBucket.remaining(bucket, 0, t, capacity, windowMs);
        final long remainingFromReset = TokenBucket.remainingFromReset(TokenBucket.resetMs(bucket, 0, t, capacity),
            capacity, windowMs);
        final long refilledInAMillisecond = (capacity + windowMs - 1) / windowMs;
        assertTrue(remainingFromReset <= remaining && remainingFromReset >= remaining - refilledInAMillisecond,
            "remaining " + remaining + ", from the reset " + remainingFromReset);
    }
}
