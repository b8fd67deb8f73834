package io.venue.engine.state;

/**
 * Map value: an account's balance of one asset, in the asset's smallest units.
 * <pre>
 *   0  available  i64   free to trade or withdraw
 *   8  locked     i64   reserved by open orders and pending withdrawals
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class Balance extends Flyweight
{
    public static final int AVAILABLE = 0;
    public static final int LOCKED = 8;
    public static final int SIZE = 16;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public long available()
    {
        return getLong(AVAILABLE);
    }

    public Balance available(final long available)
    {
        putLong(AVAILABLE, available);
        return this;
    }

    public long locked()
    {
        return getLong(LOCKED);
    }

    public Balance locked(final long locked)
    {
        putLong(LOCKED, locked);
        return this;
    }
}
