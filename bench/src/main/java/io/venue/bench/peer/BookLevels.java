package io.venue.bench.peer;

import java.util.Arrays;
import java.util.Locale;

/** A book as price levels, best first: {@code {price, volume, orders}} per level, bids and asks. */
record BookLevels(long[][] bids, long[][] asks)
{
    /** The first difference from {@code other} in words, or null when the two are the same book. */
    String differenceFrom(final BookLevels other)
    {
        final String bidDifference = difference("bid", bids, other.bids);
        return null != bidDifference ? bidDifference : difference("ask", asks, other.asks);
    }

    int levels()
    {
        return bids.length + asks.length;
    }

    long orders()
    {
        long orders = 0;
        for (final long[] level : bids)
        {
            orders += level[2];
        }
        for (final long[] level : asks)
        {
            orders += level[2];
        }
        return orders;
    }

    private static String difference(final String side, final long[][] mine, final long[][] theirs)
    {
        for (int i = 0; i < Math.max(mine.length, theirs.length); i++)
        {
            final long[] a = i < mine.length ? mine[i] : null;
            final long[] b = i < theirs.length ? theirs[i] : null;
            if (null == a || null == b || !Arrays.equals(a, b))
            {
                return String.format(Locale.ROOT, "%s level %d: %s here, %s there (%d and %d %s levels)", side, i,
                    text(a), text(b), mine.length, theirs.length, side);
            }
        }
        return null;
    }

    private static String text(final long[] level)
    {
        return null == level ? "none" : String.format(Locale.ROOT, "price %d volume %d in %d orders", level[0],
            level[1], level[2]);
    }
}
