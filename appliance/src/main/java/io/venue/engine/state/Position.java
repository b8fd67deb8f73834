package io.venue.engine.state;

/**
 * Map value: an account's holding in one outcome market, in shares.
 * <pre>
 *   0  yesShares  i64
 *   8  noShares   i64
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class Position extends Flyweight
{
    public static final int YES_SHARES = 0;
    public static final int NO_SHARES = 8;
    public static final int SIZE = 16;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public long yesShares()
    {
        return getLong(YES_SHARES);
    }

    public Position yesShares(final long shares)
    {
        putLong(YES_SHARES, shares);
        return this;
    }

    public long noShares()
    {
        return getLong(NO_SHARES);
    }

    public Position noShares(final long shares)
    {
        putLong(NO_SHARES, shares);
        return this;
    }
}
