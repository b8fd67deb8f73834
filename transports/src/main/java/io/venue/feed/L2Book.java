package io.venue.feed;

/** A market book's price levels as the {@code BookDelta} events left them: each level's total quantity. */
public final class L2Book
{
    private final Levels bids = new Levels(true);
    private final Levels asks = new Levels(false);

    /** @param side the journal's Side: 0 BID, 1 ASK. */
    public void set(final int side, final long price, final long qty)
    {
        side(side).set(price, qty);
    }

    Levels side(final int side)
    {
        return side == 0 ? bids : asks;
    }

    Levels bids()
    {
        return bids;
    }

    Levels asks()
    {
        return asks;
    }

    public int bidCount()
    {
        return bids.count();
    }

    public int askCount()
    {
        return asks.count();
    }

    /** Level {@code i} of a side, best first: {price, qty}. */
    public long[] level(final int side, final int i)
    {
        final Levels levels = side(side);
        return new long[]{levels.price(i), levels.qty(i)};
    }

    public long qtyAt(final int side, final long price)
    {
        return side(side).qtyAt(price);
    }
}
