package io.venue.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Map key: a 32-byte order id (the v2 digest of the placing action).
 * <pre>
 *   0  orderId  32 bytes
 * </pre>
 */
public final class OrderIdKey extends Flyweight
{
    public static final int ORDER_ID = 0;
    public static final int ORDER_ID_LENGTH = 32;
    public static final int SIZE = 32;

    public OrderIdKey()
    {
        bytesStore(scratch(SIZE), 0, SIZE);
    }

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public OrderIdKey orderId(final DirectBuffer src, final int offset)
    {
        putBytes(ORDER_ID, src, offset, ORDER_ID_LENGTH);
        return this;
    }

    public OrderIdKey orderId(final byte[] src)
    {
        putBytes(ORDER_ID, src, 0, ORDER_ID_LENGTH);
        return this;
    }

    public void getOrderId(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(ORDER_ID, dst, offset, ORDER_ID_LENGTH);
    }

    public void getOrderId(final byte[] dst, final int offset)
    {
        getBytes(ORDER_ID, dst, offset, ORDER_ID_LENGTH);
    }

    public boolean orderIdEquals(final DirectBuffer other, final int offset)
    {
        return bytesEqual(ORDER_ID, other, offset, ORDER_ID_LENGTH);
    }
}
