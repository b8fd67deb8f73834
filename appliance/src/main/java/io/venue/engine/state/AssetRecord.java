package io.venue.engine.state;

/**
 * Map value: a ledger asset, keyed by its ledger number (listing order).
 * <pre>
 *   0  publicId  i64   the listed asset id (u32), or -1 for the YES or NO shares of an outcome market
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class AssetRecord extends Flyweight
{
    public static final int PUBLIC_ID = 0;
    public static final int SIZE = 8;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public long publicId()
    {
        return getLong(PUBLIC_ID);
    }

    public AssetRecord publicId(final long publicId)
    {
        putLong(PUBLIC_ID, publicId);
        return this;
    }
}
