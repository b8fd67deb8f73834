package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A deliberately naive reference of the matching rules of {@link OrderBook}: each side is one list in priority
 * order, every question is a linear scan. The property test runs both on the same stream and compares what they
 * report and what they hold. It writes events in the format of {@link RecordingListener#orderEvents()}.
 */
final class ModelBook
{
    private final int capacity;
    private final int maxLevels;
    private final List<Order> bids = new ArrayList<>();
    private final List<Order> asks = new ArrayList<>();
    private long lastSequence = Long.MIN_VALUE;
    final List<String> events = new ArrayList<>();

    ModelBook(final int capacity, final int maxLevels)
    {
        this.capacity = capacity;
        this.maxLevels = maxLevels;
    }

    static final class Order
    {
        final long id;
        final int account;
        final Side side;
        final long price;
        final long expiresAt;
        final long sequence;
        long original;
        long remaining;

        Order(
            final long id, final int account, final Side side, final long price, final long qty, final long expiresAt,
            final long sequence)
        {
            this.id = id;
            this.account = account;
            this.side = side;
            this.price = price;
            this.original = qty;
            this.remaining = qty;
            this.expiresAt = expiresAt;
            this.sequence = sequence;
        }
    }

    int openOrders()
    {
        return bids.size() + asks.size();
    }

    List<Long> liveIds()
    {
        final List<Long> ids = new ArrayList<>();
        bids.forEach(order -> ids.add(order.id));
        asks.forEach(order -> ids.add(order.id));
        ids.sort(Comparator.naturalOrder());
        return ids;
    }

    Order find(final long id)
    {
        for (final Order order : bids)
        {
            if (order.id == id)
            {
                return order;
            }
        }
        for (final Order order : asks)
        {
            if (order.id == id)
            {
                return order;
            }
        }
        return null;
    }

    PlaceResult place(
        final long id, final int account, final Side side, final long price, final long qty, final TimeInForce tif,
        final StpMode stp, final boolean market, final long expiresAt, final long sequence, final long now)
    {
        if (side == null || tif == null || account < 0 || price <= 0 || qty <= 0 ||
            (market && tif == TimeInForce.POST_ONLY) || expiresAt < -1 || sequence < lastSequence)
        {
            return PlaceResult.INVALID;
        }
        final boolean restable = !market && (tif == TimeInForce.GTC || tif == TimeInForce.POST_ONLY);
        if (tif == TimeInForce.POST_ONLY && openOrders() == capacity)
        {
            return PlaceResult.POOL_EXHAUSTED;
        }
        lastSequence = sequence;
        final boolean bid = side == Side.BID;
        final List<Order> opposite = bid ? asks : bids;

        if (tif == TimeInForce.POST_ONLY)
        {
            for (final Order order : opposite)
            {
                if (crosses(bid, price, order) && !expired(order, now))
                {
                    return done(PlaceResult.REJECTED_POST_ONLY, 0, qty);
                }
            }
            for (final Order order : new ArrayList<>(opposite))
            {
                if (crosses(bid, price, order) && expired(order, now))
                {
                    removeOrder(order, MakerDoneReason.EXPIRED);
                }
            }
            return rest(new Order(id, account, side, price, qty, expiresAt, sequence), qty);
        }

        if (tif == TimeInForce.FOK || stp == StpMode.REJECT)
        {
            long needed = qty;
            for (final Order order : opposite)
            {
                if (!crosses(bid, price, order) || needed <= 0)
                {
                    break;
                }
                if (expired(order, now))
                {
                    continue;
                }
                if (stp != null && order.account == account)
                {
                    if (stp == StpMode.REJECT)
                    {
                        return done(PlaceResult.REJECTED_STP, 0, qty);
                    }
                    if (stp == StpMode.CANCEL_TAKER)
                    {
                        break;
                    }
                    continue;
                }
                needed -= order.remaining;
            }
            if (needed > 0 && tif == TimeInForce.FOK)
            {
                return done(PlaceResult.KILLED_FOK, 0, qty);
            }
        }

        long remaining = qty;
        boolean stoppedBySelf = false;
        for (final Order order : new ArrayList<>(opposite))
        {
            if (remaining == 0 || !crosses(bid, price, order))
            {
                break;
            }
            if (expired(order, now))
            {
                removeOrder(order, MakerDoneReason.EXPIRED);
                continue;
            }
            if (stp != null && order.account == account)
            {
                if (stp == StpMode.CANCEL_MAKER)
                {
                    removeOrder(order, MakerDoneReason.CANCELLED_STP);
                    continue;
                }
                if (stp == StpMode.SKIP_SELF)
                {
                    continue;
                }
                stoppedBySelf = true;
                break;
            }
            final long traded = Math.min(remaining, order.remaining);
            order.remaining -= traded;
            remaining -= traded;
            events.add("T#" + order.id + " a" + order.account + ">a" + account + " " + order.price + "x" + traded +
                " left=" + order.remaining);
            if (order.remaining == 0)
            {
                removeOrder(order, MakerDoneReason.FILLED);
            }
        }

        final long filled = qty - remaining;
        if (remaining == 0)
        {
            return done(PlaceResult.FILLED, filled, 0);
        }
        if (stoppedBySelf)
        {
            return done(PlaceResult.CANCELLED_STP, filled, remaining);
        }
        if (!restable)
        {
            return done(PlaceResult.CANCELLED_IOC, filled, remaining);
        }
        for (final Order order : opposite)
        {
            if (crosses(bid, price, order))
            {
                return done(PlaceResult.CANCELLED_STP, filled, remaining);
            }
        }
        if (openOrders() == capacity)
        {
            return done(PlaceResult.BOOK_FULL, filled, remaining);
        }
        final Order order = new Order(id, account, side, price, qty, expiresAt, sequence);
        order.remaining = remaining;
        return rest(order, qty);
    }

    boolean cancel(final long id)
    {
        final Order order = find(id);
        if (order == null)
        {
            return false;
        }
        removeOrder(order, MakerDoneReason.CANCELLED);
        return true;
    }

    boolean remove(final long id)
    {
        final Order order = find(id);
        if (order == null)
        {
            return false;
        }
        (order.side == Side.BID ? bids : asks).remove(order);
        return true;
    }

    boolean reduce(final long id, final long newRemaining)
    {
        final Order order = find(id);
        if (order == null || newRemaining <= 0 || newRemaining >= order.remaining)
        {
            return false;
        }
        order.original -= order.remaining - newRemaining;
        order.remaining = newRemaining;
        return true;
    }

    int expireUpTo(final long now)
    {
        final List<Order> expired = new ArrayList<>();
        for (final List<Order> side : List.of(bids, asks))
        {
            for (final Order order : side)
            {
                if (expired(order, now))
                {
                    expired.add(order);
                }
            }
        }
        expired.sort(
            Comparator.<Order>comparingLong(order -> order.expiresAt).thenComparingLong(order -> order.sequence));
        expired.forEach(order -> removeOrder(order, MakerDoneReason.EXPIRED));
        return expired.size();
    }

    /** @return the side best first, one entry per level, as {@link BookTester#levels(Side)} writes it. */
    List<String> levels(final Side side)
    {
        final List<String> result = new ArrayList<>();
        final List<Order> orders = side == Side.BID ? bids : asks;
        int i = 0;
        while (i < orders.size())
        {
            final long price = orders.get(i).price;
            long total = 0;
            final StringBuilder queue = new StringBuilder();
            while (i < orders.size() && orders.get(i).price == price)
            {
                final Order order = orders.get(i++);
                total += order.remaining;
                queue.append(queue.length() == 0 ? "" : " ").append('#').append(order.id).append(':')
                    .append(order.remaining);
            }
            result.add(price + "=" + total + "[" + queue + "]");
        }
        return result;
    }

    private PlaceResult rest(final Order order, final long qty)
    {
        final List<Order> same = order.side == Side.BID ? bids : asks;
        boolean levelExists = false;
        int levels = 0;
        long lastPrice = Long.MIN_VALUE;
        for (final Order other : same)
        {
            levelExists |= other.price == order.price;
            if (other.price != lastPrice)
            {
                levels++;
                lastPrice = other.price;
            }
        }
        if (!levelExists && levels == maxLevels)
        {
            final long worst = same.get(same.size() - 1).price;
            if (better(order.side, worst, order.price))
            {
                return done(PlaceResult.PRUNED, qty - order.remaining, order.remaining);
            }
            for (final Order other : new ArrayList<>(same))
            {
                if (other.price == worst)
                {
                    removeOrder(other, MakerDoneReason.PRUNED);
                }
            }
        }
        int position = 0;
        while (position < same.size() && !better(order.side, order.price, same.get(position).price))
        {
            position++;
        }
        same.add(position, order);
        events.add("R#" + order.id + " left=" + order.remaining);
        return PlaceResult.RESTED;
    }

    private static boolean better(final Side side, final long price, final long than)
    {
        return side == Side.BID ? price > than : price < than;
    }

    private void removeOrder(final Order order, final MakerDoneReason reason)
    {
        (order.side == Side.BID ? bids : asks).remove(order);
        events.add("D#" + order.id + " " + reason);
    }

    private PlaceResult done(final PlaceResult result, final long filled, final long remaining)
    {
        events.add("X " + result.takerDoneReason() + " " + filled + "/" + remaining);
        return result;
    }

    private static boolean crosses(final boolean takerBid, final long limit, final Order maker)
    {
        return takerBid ? maker.price <= limit : maker.price >= limit;
    }

    private static boolean expired(final Order order, final long now)
    {
        return order.expiresAt != -1 && order.expiresAt <= now;
    }
}
