package io.venue.feed;

import java.util.Arrays;

/**
 * One side of a price-level book: levels kept sorted best first in two arrays (bids highest first, asks lowest
 * first), so reading the best N needs no sort and a change allocates nothing once the arrays have grown.
 */
final class Levels
{
    private final boolean highestFirst;
    private long[] prices = new long[16];
    private long[] quantities = new long[16];
    private int count;

    Levels(final boolean highestFirst)
    {
        this.highestFirst = highestFirst;
    }

    int count()
    {
        return count;
    }

    /** The price of level {@code i}, 0 the best. */
    long price(final int i)
    {
        return prices[i];
    }

    long qty(final int i)
    {
        return quantities[i];
    }

    /** The level's total quantity, 0 when there is no level at the price. */
    long qtyAt(final long price)
    {
        final int at = find(price);
        return at >= 0 ? quantities[at] : 0;
    }

    /** Sets the level's new total; 0 removes it. */
    void set(final long price, final long qty)
    {
        final int at = find(price);
        if (at >= 0)
        {
            if (qty == 0)
            {
                System.arraycopy(prices, at + 1, prices, at, count - at - 1);
                System.arraycopy(quantities, at + 1, quantities, at, count - at - 1);
                count--;
            }
            else
            {
                quantities[at] = qty;
            }
            return;
        }
        if (qty == 0)
        {
            return;
        }
        final int insert = -at - 1;
        if (count == prices.length)
        {
            prices = Arrays.copyOf(prices, count * 2);
            quantities = Arrays.copyOf(quantities, count * 2);
        }
        System.arraycopy(prices, insert, prices, insert + 1, count - insert);
        System.arraycopy(quantities, insert, quantities, insert + 1, count - insert);
        prices[insert] = price;
        quantities[insert] = qty;
        count++;
    }

    void clear()
    {
        count = 0;
    }

    /** Binary search in best-first order: the index, or {@code -(insertion point) - 1}. */
    private int find(final long price)
    {
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi)
        {
            final int mid = (lo + hi) >>> 1;
            final long p = prices[mid];
            if (p == price)
            {
                return mid;
            }
            final boolean before = highestFirst ? p > price : p < price;
            if (before)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return -(lo + 1);
    }
}
