package io.venue.bench.peer;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One market's book with exchange-core's rules, written from its documented behaviour and independent of both
 * engines: price-time priority, trades at the maker's price, a GTC remainder rests at the tail of its level, an IOC
 * remainder is dropped, a move leaves its level and enters the tail of the new one (even at the same price), a reduce
 * keeps the order's place and removes it when nothing would remain; a move, cancel or reduce of an order that is not
 * open (or not the caller's) is refused. It tells the translator what a reduce must ask for and the harness what book
 * exchange-core must end with. Not for the hot path: it allocates.
 */
final class PeerBookModel
{
    private final NavigableMap<Long, ArrayDeque<Order>> bids = new TreeMap<>(Comparator.reverseOrder());
    private final NavigableMap<Long, ArrayDeque<Order>> asks = new TreeMap<>();
    private final Map<Long, Order> open = new HashMap<>();
    private long refused;

    /** A place (the stream's ids are unique, so none is refused as a duplicate). */
    void place(final long orderId, final long uid, final boolean bid, final long price, final long size,
        final boolean ioc)
    {
        final long remaining = match(bid, price, size);
        if (remaining > 0 && !ioc)
        {
            rest(new Order(orderId, uid, bid, price, remaining));
        }
    }

    boolean move(final long orderId, final long uid, final long newPrice)
    {
        final Order order = owned(orderId, uid);
        if (null == order)
        {
            return false;
        }
        unlink(order);
        open.remove(orderId);
        final long remaining = match(order.bid, newPrice, order.remaining);
        if (remaining > 0)
        {
            rest(new Order(orderId, uid, order.bid, newPrice, remaining));
        }
        return true;
    }

    boolean cancel(final long orderId, final long uid)
    {
        final Order order = owned(orderId, uid);
        if (null == order)
        {
            return false;
        }
        unlink(order);
        open.remove(orderId);
        return true;
    }

    boolean reduce(final long orderId, final long uid, final long by)
    {
        final Order order = by > 0 ? owned(orderId, uid) : null;
        if (null == order)
        {
            if (by <= 0)
            {
                refused++;
            }
            return false;
        }
        if (by >= order.remaining)
        {
            unlink(order);
            open.remove(orderId);
        }
        else
        {
            order.remaining -= by;
        }
        return true;
    }

    /** What is left of an open order of {@code uid}, or 0. */
    long remaining(final long orderId, final long uid)
    {
        final Order order = open.get(orderId);
        return null == order || order.uid != uid ? 0 : order.remaining;
    }

    /** Commands refused so far (unknown order, wrong owner, a reduce of nothing). */
    long refused()
    {
        return refused;
    }

    int openOrders()
    {
        return open.size();
    }

    /** The book as price levels, best first: what exchange-core's L2 request must answer. */
    BookLevels levels()
    {
        return new BookLevels(side(bids), side(asks));
    }

    private static long[][] side(final NavigableMap<Long, ArrayDeque<Order>> levels)
    {
        final long[][] rows = new long[levels.size()][];
        int i = 0;
        for (final Map.Entry<Long, ArrayDeque<Order>> level : levels.entrySet())
        {
            long volume = 0;
            for (final Order order : level.getValue())
            {
                volume += order.remaining;
            }
            rows[i++] = new long[] {level.getKey(), volume, level.getValue().size()};
        }
        return rows;
    }

    private Order owned(final long orderId, final long uid)
    {
        final Order order = open.get(orderId);
        if (null == order || order.uid != uid)
        {
            refused++;
            return null;
        }
        return order;
    }

    /** Takes from the opposite side up to {@code limit}; returns what is left of {@code size}. */
    private long match(final boolean bid, final long limit, final long size)
    {
        final NavigableMap<Long, ArrayDeque<Order>> opposite = bid ? asks : bids;
        long left = size;
        final Iterator<Map.Entry<Long, ArrayDeque<Order>>> levels = opposite.entrySet().iterator();
        while (left > 0 && levels.hasNext())
        {
            final Map.Entry<Long, ArrayDeque<Order>> level = levels.next();
            if (bid ? level.getKey() > limit : level.getKey() < limit)
            {
                break;
            }
            final ArrayDeque<Order> queue = level.getValue();
            while (left > 0 && !queue.isEmpty())
            {
                final Order maker = queue.peekFirst();
                final long traded = Math.min(left, maker.remaining);
                maker.remaining -= traded;
                left -= traded;
                if (maker.remaining == 0)
                {
                    queue.pollFirst();
                    open.remove(maker.orderId);
                }
            }
            if (queue.isEmpty())
            {
                levels.remove();
            }
        }
        return left;
    }

    private void rest(final Order order)
    {
        (order.bid ? bids : asks).computeIfAbsent(order.price, price -> new ArrayDeque<>()).addLast(order);
        open.put(order.orderId, order);
    }

    private void unlink(final Order order)
    {
        final NavigableMap<Long, ArrayDeque<Order>> side = order.bid ? bids : asks;
        final ArrayDeque<Order> queue = side.get(order.price);
        queue.remove(order);
        if (queue.isEmpty())
        {
            side.remove(order.price);
        }
    }

    private static final class Order
    {
        final long orderId;
        final long uid;
        final boolean bid;
        final long price;
        long remaining;

        Order(final long orderId, final long uid, final boolean bid, final long price, final long remaining)
        {
            this.orderId = orderId;
            this.uid = uid;
            this.bid = bid;
            this.price = price;
            this.remaining = remaining;
        }
    }
}
