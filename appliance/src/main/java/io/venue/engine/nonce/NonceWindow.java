package io.venue.engine.nonce;

/**
 * The per-account action nonce window of spec 3.1, as pure functions over five longs so the same logic
 * serves on-heap arrays and off-heap map values: word 0 is the floor (the lowest open nonce, u64) and
 * words 1 to 4 are a 256-bit map of consumed nonces, bit i standing for floor + i.
 * <ul>
 *   <li>n &lt; floor: {@link #BELOW_FLOOR}, permanent;</li>
 *   <li>n &gt;= floor + 256: {@link #OUTSIDE_WINDOW};</li>
 *   <li>n consumed: {@link #REPLAYED};</li>
 *   <li>otherwise {@link #ACCEPTED}: n is consumed and the floor advances over the consumed prefix.</li>
 * </ul>
 * All comparisons are unsigned: nonces use the whole u64 range. Consuming 2^64-1 exhausts the account:
 * the floor stays at 2^64-1, marked consumed, and every later nonce is refused (it never wraps to 0).
 */
public final class NonceWindow
{
    public static final int WIDTH = 256;
    /** Longs per account: floor and four bitmap words. */
    public static final int WORDS = 5;

    public static final int ACCEPTED = 0;
    public static final int BELOW_FLOOR = 1;
    public static final int OUTSIDE_WINDOW = 2;
    public static final int REPLAYED = 3;

    private NonceWindow()
    {
    }

    /** The outcome {@link #tryConsume} would have, without changing anything. */
    public static int check(final long[] words, final int base, final long nonce)
    {
        final long floor = words[base];
        if (Long.compareUnsigned(nonce, floor) < 0)
        {
            return BELOW_FLOOR;
        }
        final long offset = nonce - floor;
        if (Long.compareUnsigned(offset, WIDTH) >= 0)
        {
            return OUTSIDE_WINDOW;
        }
        final int bit = (int)offset;
        return (words[base + 1 + (bit >>> 6)] & (1L << (bit & 63))) != 0 ? REPLAYED : ACCEPTED;
    }

    /** Checks and, when accepted, consumes the nonce and advances the floor. */
    public static int tryConsume(final long[] words, final int base, final long nonce)
    {
        final int outcome = check(words, base, nonce);
        if (outcome == ACCEPTED)
        {
            final int bit = (int)(nonce - words[base]);
            words[base + 1 + (bit >>> 6)] |= 1L << (bit & 63);
            advance(words, base);
        }
        return outcome;
    }

    /** The floor: the lowest nonce still open. */
    public static long floor(final long[] words, final int base)
    {
        return words[base];
    }

    /**
     * The nonce a client counting upwards should use next: one above the highest consumed nonce in the
     * window, or the floor when nothing above it is consumed. Inside the window, because the floor is never
     * consumed, with one exception: once the top nonce 2^64-1 is consumed the account's nonces are used up, the
     * floor stays at 2^64-1 (consumed), and this returns it though it is refused. Reaching that takes every nonce
     * below 2^64-256 consumed in turn.
     */
    public static long nextUsable(final long[] words, final int base)
    {
        for (int word = 4; word >= 1; word--)
        {
            final long bits = words[base + word];
            if (bits != 0)
            {
                final long next = (word - 1) * 64 + 64 - Long.numberOfLeadingZeros(bits);
                final long floor = words[base];
                return next < WIDTH && Long.compareUnsigned(next, -1L - floor) <= 0 ? floor + next : floor;
            }
        }
        return words[base];
    }

    /** Moves the floor over the run of consumed nonces at the bottom of the window. */
    private static void advance(final long[] words, final int base)
    {
        long w0 = words[base + 1];
        long w1 = words[base + 2];
        long w2 = words[base + 3];
        long w3 = words[base + 4];
        int shift = 0;
        // whole words first, then the remaining bits of the lowest word
        while (w0 == -1L && shift < WIDTH)
        {
            w0 = w1;
            w1 = w2;
            w2 = w3;
            w3 = 0;
            shift += 64;
        }
        final int bits = Long.numberOfTrailingZeros(~w0);
        if (bits > 0)
        {
            w0 = (w0 >>> bits) | (w1 << (64 - bits));
            w1 = (w1 >>> bits) | (w2 << (64 - bits));
            w2 = (w2 >>> bits) | (w3 << (64 - bits));
            w3 = w3 >>> bits;
            shift += bits;
        }
        final long floor = words[base];
        if (Long.compareUnsigned(shift, -1L - floor) > 0)
        {
            // the top nonce 2^64-1 was consumed: the account's nonces are used up; never wrap to 0
            words[base] = -1L;
            words[base + 1] = 1L;
            words[base + 2] = 0;
            words[base + 3] = 0;
            words[base + 4] = 0;
            return;
        }
        words[base] = floor + shift;
        words[base + 1] = w0;
        words[base + 2] = w1;
        words[base + 3] = w2;
        words[base + 4] = w3;
    }
}
