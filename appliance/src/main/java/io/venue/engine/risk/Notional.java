package io.venue.engine.risk;

import io.venue.action.Side;

/**
 * The quote amount of a price and a quantity, both in micro-units: {@code price × qty / 1e6}, computed in
 * 128 bits so large orders cannot overflow silently.
 * <ul>
 *   <li>{@link #reserve}: rounded up, against the account, for what a bid locks;</li>
 *   <li>{@link #settle}: rounded down, for what changes hands in a fill, so the buyer pays exactly what the
 *   seller receives and no quote unit is created or lost. A bid's reservation always covers its fills:
 *   {@code ceil(P·Q) - Σ floor(p_i·q_i) ≥ ceil(P·(Q - Σq_i))} for fill prices {@code p_i ≤ P}.</li>
 * </ul>
 * Both return {@link #TOO_LARGE} when the amount does not fit in 63 bits.
 */
public final class Notional
{
    public static final long SCALE = 1_000_000L;
    public static final long TOO_LARGE = -1L;

    private Notional()
    {
    }

    public static long settle(final long price, final long qty)
    {
        return divide(price, qty, false);
    }

    /**
     * What an order of {@code qty} at {@code price} locks: a bid the quote amount, rounded up ({@link #reserve}), an
     * ask its quantity. {@link #TOO_LARGE} when a bid's amount does not fit.
     */
    public static long ofOrder(final Side side, final long price, final long qty)
    {
        return side == Side.BID ? reserve(price, qty) : qty;
    }

    public static long reserve(final long price, final long qty)
    {
        return divide(price, qty, true);
    }

    private static long divide(final long price, final long qty, final boolean roundUp)
    {
        if (price < 0 || qty < 0)
        {
            return TOO_LARGE;
        }
        final long hi = Math.multiplyHigh(price, qty);
        final long lo = price * qty;
        if (hi == 0 && lo >= 0)
        {
            // the usual case, a product within 63 bits: one division by a constant, which the JIT makes a multiply
            final long quotient = lo / SCALE;
            return roundUp && quotient * SCALE != lo ? quotient + 1 : quotient;
        }
        // long division of the 128-bit (hi, lo) by SCALE in 32-bit steps; remainders stay below 2^20
        if (Long.compareUnsigned(hi, SCALE) >= 0)
        {
            return TOO_LARGE;
        }
        final long upper = (hi << 32) | (lo >>> 32);
        final long q1 = upper / SCALE;
        final long r1 = upper % SCALE;
        final long lower = (r1 << 32) | (lo & 0xFFFF_FFFFL);
        final long q0 = lower / SCALE;
        final long r0 = lower % SCALE;
        if (q1 >>> 31 != 0)
        {
            return TOO_LARGE;
        }
        final long quotient = (q1 << 32) + q0;
        if (quotient < 0)
        {
            return TOO_LARGE;
        }
        if (roundUp && r0 != 0)
        {
            return quotient == Long.MAX_VALUE ? TOO_LARGE : quotient + 1;
        }
        return quotient;
    }
}
