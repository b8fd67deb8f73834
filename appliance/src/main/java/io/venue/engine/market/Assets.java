package io.venue.engine.market;

import org.agrona.collections.Int2IntHashMap;

/**
 * Listed assets: each public asset id (u32) gets a dense ledger number in listing order. Outcome markets
 * also take two unlisted ledger numbers for their YES and NO shares ({@link #addShare()}).
 */
public final class Assets
{
    public static final int MISSING = -1;

    private final Int2IntHashMap byId = new Int2IntHashMap(MISSING);
    private final int capacity;
    private final long[] publicIds;
    private int count;

    public Assets(final int capacity)
    {
        this.capacity = capacity;
        this.publicIds = new long[capacity];
    }

    /** The ledger number of a public asset id, or {@link #MISSING}. */
    public int find(final long assetId)
    {
        return byId.get((int)assetId);
    }

    /** Lists a public asset; {@link #MISSING} if it exists already or the ledger is full. */
    public int add(final long assetId)
    {
        if (byId.containsKey((int)assetId) || count == capacity)
        {
            return MISSING;
        }
        publicIds[count] = assetId;
        byId.put((int)assetId, count);
        return count++;
    }

    /** Takes a ledger number for outcome shares (no public id); {@link #MISSING} if the ledger is full. */
    public int addShare()
    {
        if (count == capacity)
        {
            return MISSING;
        }
        publicIds[count] = -1;
        return count++;
    }

    /** The public id of a ledger number, or -1 for shares. */
    public long publicId(final int asset)
    {
        return publicIds[asset];
    }

    public int count()
    {
        return count;
    }

    public boolean isFull(final int needed)
    {
        return count + needed > capacity;
    }
}
