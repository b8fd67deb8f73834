package io.venue.engine.book;

import io.venue.action.Side;

/**
 * The price levels of one side, sorted, each level a FIFO of order slots linked through the pool.
 * <p>
 * Levels are kept by a key that grows with how good the price is (the price for bids, its negation for asks),
 * ascending, so the best level is the last: taking or adding at the top of the book moves nothing. Only the keys
 * and a level number per position are sorted; a level's total, count and queue stay in the level's own slot of
 * their arrays, so opening or dropping a level in the middle of the book shifts two arrays, not five (an amend to a
 * new price does both, and the shifts were a tenth of the engine's time in a profile of the exchange-core workload).
 * Level numbers are reused last-freed first; they never leave this class.
 */
final class PriceLevels
{
    private final Side side;
    private final boolean bid;
    private final OrderPool pool;
    /** By position, ascending: the sorted part. */
    private final long[] keys;
    private final int[] levels;
    /** By level number. */
    private final long[] totals;
    private final int[] heads;
    private final int[] tails;
    private final int[] counts;
    /** Level numbers not in use, a stack. */
    private final int[] free;
    private int freeCount;
    private int size;

    PriceLevels(final Side side, final int maxLevels, final OrderPool pool)
    {
        this.side = side;
        this.bid = side == Side.BID;
        this.pool = pool;
        keys = new long[maxLevels];
        levels = new int[maxLevels];
        totals = new long[maxLevels];
        heads = new int[maxLevels];
        tails = new int[maxLevels];
        counts = new int[maxLevels];
        free = new int[maxLevels];
        for (int level = 0; level < maxLevels; level++)
        {
            free[level] = maxLevels - 1 - level;
        }
        freeCount = maxLevels;
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
        return totals[levels[index]];
    }

    int countAt(final int index)
    {
        return counts[levels[index]];
    }

    int headAt(final int index)
    {
        return heads[levels[index]];
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
        if (freeCount == 0)
        {
            // before anything moves: a refused insert leaves the side as it was
            throw new IllegalStateException("all " + keys.length + " levels of the side are in use");
        }
        final int tailLength = size - index;
        if (tailLength > 0)
        {
            System.arraycopy(keys, index, keys, index + 1, tailLength);
            System.arraycopy(levels, index, levels, index + 1, tailLength);
        }
        final int level = free[--freeCount];
        keys[index] = bid ? price : -price;
        levels[index] = level;
        totals[level] = 0;
        heads[level] = OrderPool.NULL_SLOT;
        tails[level] = OrderPool.NULL_SLOT;
        counts[level] = 0;
        size++;
    }

    /** Drops a level that has no orders left. */
    void removeAt(final int index)
    {
        free[freeCount++] = levels[index];
        final int tailLength = size - index - 1;
        if (tailLength > 0)
        {
            System.arraycopy(keys, index + 1, keys, index, tailLength);
            System.arraycopy(levels, index + 1, levels, index, tailLength);
        }
        size--;
    }

    /** Appends an order at the back of the level's queue. */
    void append(final int index, final int slot)
    {
        final int level = levels[index];
        final int tail = tails[level];
        pool.prev(slot, tail);
        pool.next(slot, OrderPool.NULL_SLOT);
        if (tail == OrderPool.NULL_SLOT)
        {
            heads[level] = slot;
        }
        else
        {
            pool.next(tail, slot);
        }
        tails[level] = slot;
        totals[level] += pool.remainingQty(slot);
        counts[level]++;
    }

    /** Takes an order out of the level's queue; its remaining quantity leaves the level total. */
    void unlink(final int index, final int slot)
    {
        final int level = levels[index];
        final int prev = pool.prev(slot);
        final int next = pool.next(slot);
        if (prev == OrderPool.NULL_SLOT)
        {
            heads[level] = next;
        }
        else
        {
            pool.next(prev, next);
        }
        if (next == OrderPool.NULL_SLOT)
        {
            tails[level] = prev;
        }
        else
        {
            pool.prev(next, prev);
        }
        pool.prev(slot, OrderPool.NULL_SLOT);
        pool.next(slot, OrderPool.NULL_SLOT);
        totals[level] -= pool.remainingQty(slot);
        counts[level]--;
    }

    /** An order of the level lost quantity (trade or reduction) but stays. */
    void reduceTotal(final int index, final long qty)
    {
        totals[levels[index]] -= qty;
    }
}
