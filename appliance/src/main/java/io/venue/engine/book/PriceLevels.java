package io.venue.engine.book;

import io.venue.action.Side;

/**
 * The price levels of one side, sorted in parallel arrays, each level a FIFO of order slots linked through the
 * pool.
 * <p>
 * Levels are kept by a key that grows with how good the price is (the price for bids, its negation for asks),
 * ascending, so the best level is the last: taking or adding at the top of the book moves nothing, and only
 * pruning the worst level (index 0) shifts the arrays.
 */
final class PriceLevels
{
    private final Side side;
    private final boolean bid;
    private final OrderPool pool;
    private final long[] keys;
    private final long[] totals;
    private final int[] heads;
    private final int[] tails;
    private final int[] counts;
    private int size;

    PriceLevels(final Side side, final int maxLevels, final OrderPool pool)
    {
        this.side = side;
        this.bid = side == Side.BID;
        this.pool = pool;
        keys = new long[maxLevels];
        totals = new long[maxLevels];
        heads = new int[maxLevels];
        tails = new int[maxLevels];
        counts = new int[maxLevels];
    }

    Side side()
    {
        return side;
    }

    int size()
    {
        return size;
    }

    int capacity()
    {
        return keys.length;
    }

    /** @return the index of the best level, or -1 when the side is empty. */
    int bestIndex()
    {
        return size - 1;
    }

    long priceAt(final int index)
    {
        return bid ? keys[index] : -keys[index];
    }

    long totalAt(final int index)
    {
        return totals[index];
    }

    int countAt(final int index)
    {
        return counts[index];
    }

    int headAt(final int index)
    {
        return heads[index];
    }

    /**
     * Binary search, without a branch on the comparison: each step narrows {@code [base, base + n)} by a select the
     * JIT compiles to a conditional move, so the ~9 steps over a few hundred levels cost no mispredictions.
     *
     * @return the index of the level at this price, or {@code -(insertionPoint + 1)} when there is none.
     */
    int indexOf(final long price)
    {
        int n = size;
        if (n == 0)
        {
            return -1;
        }
        final long key = bid ? price : -price;
        final long[] keys = this.keys;
        int base = 0;
        while (n > 1)
        {
            final int half = n >>> 1;
            base = keys[base + half] <= key ? base + half : base;
            n -= half;
        }
        // keys[base] is the greatest key <= key, unless base is 0 and every key is greater
        final long found = keys[base];
        if (found == key)
        {
            return base;
        }
        return found < key ? -(base + 2) : -1;
    }

    /** Opens an empty level at its insertion point; the caller has made room. */
    void insertAt(final int index, final long price)
    {
        final int tailLength = size - index;
        if (tailLength > 0)
        {
            System.arraycopy(keys, index, keys, index + 1, tailLength);
            System.arraycopy(totals, index, totals, index + 1, tailLength);
            System.arraycopy(heads, index, heads, index + 1, tailLength);
            System.arraycopy(tails, index, tails, index + 1, tailLength);
            System.arraycopy(counts, index, counts, index + 1, tailLength);
        }
        keys[index] = bid ? price : -price;
        totals[index] = 0;
        heads[index] = OrderPool.NULL_SLOT;
        tails[index] = OrderPool.NULL_SLOT;
        counts[index] = 0;
        size++;
    }

    /** Drops a level that has no orders left. */
    void removeAt(final int index)
    {
        final int tailLength = size - index - 1;
        if (tailLength > 0)
        {
            System.arraycopy(keys, index + 1, keys, index, tailLength);
            System.arraycopy(totals, index + 1, totals, index, tailLength);
            System.arraycopy(heads, index + 1, heads, index, tailLength);
            System.arraycopy(tails, index + 1, tails, index, tailLength);
            System.arraycopy(counts, index + 1, counts, index, tailLength);
        }
        size--;
    }

    /** Appends an order at the back of the level's queue. */
    void append(final int index, final int slot)
    {
        final int tail = tails[index];
        pool.prev(slot, tail);
        pool.next(slot, OrderPool.NULL_SLOT);
        if (tail == OrderPool.NULL_SLOT)
        {
            heads[index] = slot;
        }
        else
        {
            pool.next(tail, slot);
        }
        tails[index] = slot;
        totals[index] += pool.remainingQty(slot);
        counts[index]++;
    }

    /** Takes an order out of the level's queue; its remaining quantity leaves the level total. */
    void unlink(final int index, final int slot)
    {
        final int prev = pool.prev(slot);
        final int next = pool.next(slot);
        if (prev == OrderPool.NULL_SLOT)
        {
            heads[index] = next;
        }
        else
        {
            pool.next(prev, next);
        }
        if (next == OrderPool.NULL_SLOT)
        {
            tails[index] = prev;
        }
        else
        {
            pool.prev(next, prev);
        }
        pool.prev(slot, OrderPool.NULL_SLOT);
        pool.next(slot, OrderPool.NULL_SLOT);
        totals[index] -= pool.remainingQty(slot);
        counts[index]--;
    }

    /** An order of the level lost quantity (trade or reduction) but stays. */
    void reduceTotal(final int index, final long qty)
    {
        totals[index] -= qty;
    }
}
