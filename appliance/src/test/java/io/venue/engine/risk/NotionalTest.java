package io.venue.engine.risk;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NotionalTest
{
    private static final BigInteger SCALE = BigInteger.valueOf(Notional.SCALE);
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private static long expected(final long price, final long qty, final boolean up)
    {
        final BigInteger[] qr = BigInteger.valueOf(price).multiply(BigInteger.valueOf(qty)).divideAndRemainder(SCALE);
        BigInteger result = qr[0];
        if (up && qr[1].signum() != 0)
        {
            result = result.add(BigInteger.ONE);
        }
        return result.compareTo(MAX) > 0 ? Notional.TOO_LARGE : result.longValue();
    }

    @Test
    void examples()
    {
        assertEquals(3_000_000, Notional.settle(1_500_000, 2_000_000), "1.5 × 2 = 3");
        assertEquals(0, Notional.settle(1, 1));
        assertEquals(1, Notional.reserve(1, 1), "reservation rounds against the account");
        // a large order: price 100,000.0 × qty 100.0 overflows 64 bits before the division
        assertEquals(10_000_000_000_000L, Notional.settle(100_000_000_000L, 100_000_000L));
        assertEquals(Notional.TOO_LARGE, Notional.settle(Long.MAX_VALUE, Long.MAX_VALUE));
    }

    @Property(tries = 5000)
    void matchesBigIntegerArithmetic(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) final long price,
        @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) final long qty)
    {
        assertEquals(expected(price, qty, false), Notional.settle(price, qty));
        assertEquals(expected(price, qty, true), Notional.reserve(price, qty));
    }

    /** Products within 63 bits (the short way) and around 2^63 (where the short way hands over to the long one). */
    @Property(tries = 5000)
    void matchesBigIntegerArithmeticForTheUsualSizesAndAroundTwoToTheSixtyThird(
        @ForAll @LongRange(min = 0, max = 1L << 33) final long price,
        @ForAll @LongRange(min = 0, max = 1L << 31) final long qty)
    {
        assertEquals(expected(price, qty, false), Notional.settle(price, qty));
        assertEquals(expected(price, qty, true), Notional.reserve(price, qty));
        final long large = qty << 30;
        assertEquals(expected(price, large, false), Notional.settle(price, large));
        assertEquals(expected(price, large, true), Notional.reserve(price, large));
    }

    @Property(tries = 2000)
    void aBidsReservationCoversItsFills(@ForAll @LongRange(min = 1, max = 10_000_000_000L) final long limit,
        @ForAll @LongRange(min = 1, max = 1_000_000_000L) final long qty, @ForAll final long seed)
    {
        final Random random = new Random(seed);
        long reserved = Notional.reserve(limit, qty);
        long left = qty;
        while (left > 0)
        {
            final long fill = 1 + (long)(random.nextDouble() * left);
            final long price = 1 + (long)(random.nextDouble() * limit);
            reserved -= Notional.settle(price, Math.min(fill, left));
            left -= Math.min(fill, left);
            assertTrue(reserved >= Notional.reserve(limit, left), "reservation must cover the rest");
        }
    }
}
