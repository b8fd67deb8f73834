package io.venue.engine.limit;

/**
 * A token bucket measured on the command's stamped time (never a clock), as pure functions over two
 * longs so it can live in arrays or off-heap values: word 0 is the deficit (how far below full the
 * bucket is, in units where one action costs {@code windowMs}) and word 1 the time of the last update.
 * A new account's words are zero: a full bucket.
 * <p>
 * With {@code capacity} actions per {@code windowMs}, the bucket holds {@code capacity × windowMs} units,
 * refills {@code capacity} units per millisecond and an action costs {@code windowMs} units: a burst of
 * {@code capacity} actions, then a sustained {@code capacity} per window. Integer arithmetic only.
 */
public final class TokenBucket
{
    public static final int WORDS = 2;

    private TokenBucket()
    {
    }

    /**
     * Whether a bucket of {@code capacity} actions per {@code windowMs} can be counted in a long: it holds
     * {@code capacity × windowMs} units, and a take adds one action's {@code windowMs} before it is compared.
     */
    public static boolean fits(final long capacity, final long windowMs)
    {
        return capacity >= 1 && windowMs >= 1 && productFits(capacity + 1, windowMs);
    }

    /** Takes one action from the bucket if it holds one; returns false, and writes nothing, if not. */
    public static boolean tryAcquire(
        final long[] words, final int base, final long nowMs, final long capacity, final long windowMs)
    {
        final long deficit = current(words, base, nowMs, capacity);
        if (deficit + windowMs > capacity * windowMs)
        {
            return false;
        }
        words[base] = deficit + windowMs;
        words[base + 1] = Math.max(nowMs, words[base + 1]);
        return true;
    }

    /** Whole actions left now. */
    public static long remaining(final long[] words, final int base, final long nowMs, final long capacity,
        final long windowMs)
    {
        final long deficit = current(words, base, nowMs, capacity);
        return deficit == 0 ? capacity : (capacity * windowMs - deficit) / windowMs; // full: no division
    }

    /** Milliseconds until the bucket is full again (the X-RateLimit-Reset-Ms countdown). */
    public static long resetMs(final long[] words, final int base, final long nowMs, final long capacity)
    {
        final long deficit = current(words, base, nowMs, capacity);
        return deficit == 0 ? 0 : ceilDiv(deficit, capacity);
    }

    /** Milliseconds until one more action is allowed; 0 if one is allowed now. */
    public static long retryAfterMs(final long[] words, final int base, final long nowMs, final long capacity,
        final long windowMs)
    {
        final long excess = current(words, base, nowMs, capacity) + windowMs - capacity * windowMs;
        return excess <= 0 ? 0 : ceilDiv(excess, capacity);
    }

    /**
     * {@link #retryAfterMs} from what a reader of the events has, the {@link #resetMs} reported with a refusal: the
     * bucket is full after {@code resetMs} and holds one action {@code (capacity - 1)} refills of {@code windowMs /
     * capacity} before that. At most 1 ms later than the exact value (the rounding of {@code resetMs}), never earlier.
     */
    public static long retryAfterMsFromReset(final long resetMs, final long capacity, final long windowMs)
    {
        return Math.max(0, resetMs - (capacity - 1) * windowMs / capacity);
    }

    /**
     * {@link #remaining} from a reported {@link #resetMs}: whole actions left when the bucket is {@code resetMs} from
     * full. Never more than the bucket holds; the rounding of {@code resetMs} to a millisecond can make it lower by
     * what refills in a millisecond, rounded up (one action with 50 per 1,000 ms).
     */
    public static long remainingFromReset(final long resetMs, final long capacity, final long windowMs)
    {
        return Math.max(0, capacity * (windowMs - Math.min(resetMs, windowMs)) / windowMs);
    }

    /** The deficit at {@code nowMs} without updating; stamped time that goes backwards refills nothing. */
    private static long current(final long[] words, final int base, final long nowMs, final long capacity)
    {
        final long elapsed = nowMs - words[base + 1];
        final long deficit = words[base];
        if (elapsed <= 0 || deficit == 0)
        {
            return deficit;
        }
        // what refilled since, elapsed × capacity, may pass 2^63 after a long idle: then the bucket is full
        return productFits(elapsed, capacity) ? Math.max(0, deficit - elapsed * capacity) : 0;
    }

    /** For non-negative {@code a} and {@code b}: whether {@code a × b} is below 2^63. */
    private static boolean productFits(final long a, final long b)
    {
        return Math.multiplyHigh(a, b) == 0 && a * b >= 0;
    }

    private static long ceilDiv(final long a, final long b)
    {
        return (a + b - 1) / b;
    }
}
