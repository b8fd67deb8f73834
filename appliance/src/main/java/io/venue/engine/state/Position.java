package io.venue.engine.state;

/**
 * Map value: an account's holding in one outcome market, in shares: free to trade or merge, and locked by
 * open sell orders on the YES or NO book.
 * <pre>
 *   0  yesShares  i64   available YES shares
 *   8  noShares   i64   available NO shares
 *  16  yesLocked  i64   YES shares reserved by open orders
 *  24  noLocked   i64   NO shares reserved by open orders
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class Position extends Flyweight
{
    public static final int YES_SHARES = 0;
    public static final int NO_SHARES = 8;
    public static final int YES_LOCKED = 16;
    public static final int NO_LOCKED = 24;
    public static final int SIZE = 32;

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

    public long yesLocked()
    {
        return getLong(YES_LOCKED);
    }

    public Position yesLocked(final long shares)
    {
        putLong(YES_LOCKED, shares);
        return this;
    }

    public long noLocked()
    {
        return getLong(NO_LOCKED);
    }

    public Position noLocked(final long shares)
    {
        putLong(NO_LOCKED, shares);
        return this;
    }
}
