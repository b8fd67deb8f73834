package io.venue.engine.market;

import org.agrona.collections.Int2IntHashMap;

import java.util.Arrays;

/**
 * Listed markets by dense number (listing order), with their trading rules and status. Each market owns
 * two book numbers, {@code 2 × market} and {@code 2 × market + 1}: a spot market uses the first, an
 * outcome market uses the first for YES and the second for NO.
 * <p>
 * An outcome book trades its share asset against the collateral, exactly like a spot book trades base
 * against quote, so matching and settlement are the same code for both kinds.
 */
public final class Markets
{
    public static final int MISSING = -1;

    private final Int2IntHashMap byId = new Int2IntHashMap(MISSING);
    private long[] ids = new long[16];
    private MarketKind[] kinds = new MarketKind[16];
    private int[] baseAssets = new int[32];
    private int[] quoteAssets = new int[16];
    private long[] tickSizes = new long[16];
    private long[] lotSizes = new long[16];
    private long[] minQtys = new long[16];
    private boolean[] halted = new boolean[16];
    private boolean[] killed = new boolean[16];
    private int count;

    /** The dense number of a public market id, or {@link #MISSING}. */
    public int find(final long marketId)
    {
        return byId.get((int)marketId);
    }

    public boolean exists(final long marketId)
    {
        return byId.containsKey((int)marketId);
    }

    /**
     * Lists a market. For spot, {@code yesOrBase} is the base asset and {@code noAsset} is ignored; for
     * outcome, they are the YES and NO share assets and {@code quoteAsset} is the collateral.
     */
    public int add(
        final long marketId,
        final MarketKind kind,
        final int yesOrBase,
        final int noAsset,
        final int quoteAsset,
        final long tickSize,
        final long lotSize,
        final long minQty)
    {
        final int market = count++;
        ensure(count);
        ids[market] = marketId;
        kinds[market] = kind;
        baseAssets[2 * market] = yesOrBase;
        baseAssets[2 * market + 1] = kind == MarketKind.OUTCOME ? noAsset : -1;
        quoteAssets[market] = quoteAsset;
        tickSizes[market] = tickSize;
        lotSizes[market] = lotSize;
        minQtys[market] = minQty;
        byId.put((int)marketId, market);
        return market;
    }

    public int count()
    {
        return count;
    }

    public long id(final int market)
    {
        return ids[market];
    }

    public MarketKind kind(final int market)
    {
        return kinds[market];
    }

    /** The asset a book trades: the base asset (spot) or the YES / NO shares (outcome). */
    public int baseAssetOfBook(final int book)
    {
        return baseAssets[book];
    }

    /** The asset prices are in: the quote asset (spot) or the collateral (outcome). */
    public int quoteAsset(final int market)
    {
        return quoteAssets[market];
    }

    public long tickSize(final int market)
    {
        return tickSizes[market];
    }

    public long lotSize(final int market)
    {
        return lotSizes[market];
    }

    public long minQty(final int market)
    {
        return minQtys[market];
    }

    public boolean isHalted(final int market)
    {
        return halted[market];
    }

    public void halted(final int market, final boolean value)
    {
        halted[market] = value;
    }

    public boolean isKilled(final int market)
    {
        return killed[market];
    }

    public void killed(final int market, final boolean value)
    {
        killed[market] = value;
    }

    private void ensure(final int needed)
    {
        if (needed > ids.length)
        {
            final int capacity = ids.length * 2;
            ids = Arrays.copyOf(ids, capacity);
            kinds = Arrays.copyOf(kinds, capacity);
            baseAssets = Arrays.copyOf(baseAssets, capacity * 2);
            quoteAssets = Arrays.copyOf(quoteAssets, capacity);
            tickSizes = Arrays.copyOf(tickSizes, capacity);
            lotSizes = Arrays.copyOf(lotSizes, capacity);
            minQtys = Arrays.copyOf(minQtys, capacity);
            halted = Arrays.copyOf(halted, capacity);
            killed = Arrays.copyOf(killed, capacity);
        }
    }
}
