package io.venue.engine.state;

import org.agrona.DirectBuffer;

/**
 * Resting orders by order id. Single-threaded: the store reuses one key, so only the owning thread may call it.
 * <p>
 * {@link #forEach} exists to rebuild the books at start-up and visits orders in <b>hash order</b>, which
 * depends on the ids and the map's layout, not on when orders arrived. The caller must sort what it collects
 * (by {@link OpenOrder#prioritySequence()}, which is unique) before anything reaches a book or an output;
 * otherwise replay would not be deterministic.
 */
public final class OpenOrderStore
{
    /** Receives each order during {@link #forEach}; both flyweights are re-pointed for the next order. */
    @FunctionalInterface
    public interface Visitor
    {
        void onOrder(OrderIdKey orderId, OpenOrder order);
    }

    private final FixedMap<OrderIdKey, OpenOrder> map;
    private final OrderIdKey key = new OrderIdKey();

    OpenOrderStore(final FixedMap<OrderIdKey, OpenOrder> map)
    {
        this.map = map;
    }

    /** Points {@code into} at the order; null (and {@code into} untouched) when there is none. */
    public OpenOrder find(final DirectBuffer orderId, final int offset, final OpenOrder into)
    {
        return map.find(key.orderId(orderId, offset), into);
    }

    public OpenOrder find(final byte[] orderId, final OpenOrder into)
    {
        return map.find(key.orderId(orderId), into);
    }

    /**
     * Inserts an all-zero order and points {@code into} at it for the caller to fill; null when an order with
     * this id is already resting (the engine rejects the duplicate).
     */
    public OpenOrder insert(final DirectBuffer orderId, final int offset, final OpenOrder into)
    {
        return map.insertNew(key.orderId(orderId, offset), into);
    }

    public OpenOrder insert(final byte[] orderId, final OpenOrder into)
    {
        return map.insertNew(key.orderId(orderId), into);
    }

    /** Points {@code into} at the order, creating it all zero when absent: an upsert for a write-through mirror. */
    public OpenOrder acquire(final DirectBuffer orderId, final int offset, final OpenOrder into)
    {
        return map.acquire(key.orderId(orderId, offset), into);
    }

    public boolean remove(final DirectBuffer orderId, final int offset)
    {
        return map.remove(key.orderId(orderId, offset));
    }

    public boolean remove(final byte[] orderId)
    {
        return map.remove(key.orderId(orderId));
    }

    /**
     * Visits every order in hash order (see the class comment: sort before use). Start-up only: it allocates a
     * little. The visitor must not insert or remove orders.
     */
    public void forEach(final Visitor visitor)
    {
        final OrderIdKey idCursor = new OrderIdKey();
        final OpenOrder orderCursor = new OpenOrder();
        map.forEach(idCursor, orderCursor, visitor::onOrder);
    }

    public long size()
    {
        return map.size();
    }

    /** The entry count the map was sized for; Chronicle may take a little more, never rely on it. */
    public long capacity()
    {
        return map.capacity();
    }
}
