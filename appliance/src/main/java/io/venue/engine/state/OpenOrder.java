package io.venue.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Map value: a resting order, enough to rebuild its book at start-up and to release its credit.
 * <pre>
 *   0  account               20 bytes
 *  20  market                u32
 *  24  price                 i64   in ticks
 *  32  originalQty           i64
 *  40  remainingQty          i64
 *  48  expiresAt             i64   Unix ms, 0 = none
 *  56  prioritySequence      i64   time priority within a price level
 *  64  reservedCredit        i64   credit still locked for this order
 *  72  clientOrderId         16 bytes
 *  88  book                  i8    code of the book (spot, outcome yes/no, ...)
 *  89  side                  i8
 *  90  timeInForce           i8
 *  91  stp                   i8    self-trade prevention mode
 *  92  clientOrderIdPresent  i8    1 when clientOrderId holds a value
 *  93  (padding)             3 bytes
 * </pre>
 * The enum-like bytes are the engine's codes, stored as given. Bound to map memory: writes land in the entry.
 */
public final class OpenOrder extends Flyweight
{
    public static final int ACCOUNT = 0;
    public static final int ACCOUNT_LENGTH = 20;
    public static final int MARKET = 20;
    public static final int PRICE = 24;
    public static final int ORIGINAL_QTY = 32;
    public static final int REMAINING_QTY = 40;
    public static final int EXPIRES_AT = 48;
    public static final int PRIORITY_SEQUENCE = 56;
    public static final int RESERVED_CREDIT = 64;
    public static final int CLIENT_ORDER_ID = 72;
    public static final int CLIENT_ORDER_ID_LENGTH = 16;
    public static final int BOOK = 88;
    public static final int SIDE = 89;
    public static final int TIME_IN_FORCE = 90;
    public static final int STP = 91;
    public static final int CLIENT_ORDER_ID_PRESENT = 92;
    public static final int SIZE = 96;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public OpenOrder account(final DirectBuffer src, final int offset)
    {
        putBytes(ACCOUNT, src, offset, ACCOUNT_LENGTH);
        return this;
    }

    public OpenOrder account(final byte[] src)
    {
        putBytes(ACCOUNT, src, 0, ACCOUNT_LENGTH);
        return this;
    }

    public void getAccount(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(ACCOUNT, dst, offset, ACCOUNT_LENGTH);
    }

    public void getAccount(final byte[] dst, final int offset)
    {
        getBytes(ACCOUNT, dst, offset, ACCOUNT_LENGTH);
    }

    public boolean accountEquals(final DirectBuffer other, final int offset)
    {
        return bytesEqual(ACCOUNT, other, offset, ACCOUNT_LENGTH);
    }

    /** Market id, an unsigned 32-bit value held in an int. */
    public int market()
    {
        return getInt(MARKET);
    }

    public OpenOrder market(final int market)
    {
        putInt(MARKET, market);
        return this;
    }

    public long price()
    {
        return getLong(PRICE);
    }

    public OpenOrder price(final long price)
    {
        putLong(PRICE, price);
        return this;
    }

    public long originalQty()
    {
        return getLong(ORIGINAL_QTY);
    }

    public OpenOrder originalQty(final long qty)
    {
        putLong(ORIGINAL_QTY, qty);
        return this;
    }

    public long remainingQty()
    {
        return getLong(REMAINING_QTY);
    }

    public OpenOrder remainingQty(final long qty)
    {
        putLong(REMAINING_QTY, qty);
        return this;
    }

    public long expiresAt()
    {
        return getLong(EXPIRES_AT);
    }

    public OpenOrder expiresAt(final long expiresAtMs)
    {
        putLong(EXPIRES_AT, expiresAtMs);
        return this;
    }

    public long prioritySequence()
    {
        return getLong(PRIORITY_SEQUENCE);
    }

    public OpenOrder prioritySequence(final long sequence)
    {
        putLong(PRIORITY_SEQUENCE, sequence);
        return this;
    }

    public long reservedCredit()
    {
        return getLong(RESERVED_CREDIT);
    }

    public OpenOrder reservedCredit(final long credit)
    {
        putLong(RESERVED_CREDIT, credit);
        return this;
    }

    public boolean hasClientOrderId()
    {
        return getByte(CLIENT_ORDER_ID_PRESENT) != 0;
    }

    public OpenOrder clientOrderId(final DirectBuffer src, final int offset)
    {
        putBytes(CLIENT_ORDER_ID, src, offset, CLIENT_ORDER_ID_LENGTH);
        putByte(CLIENT_ORDER_ID_PRESENT, (byte)1);
        return this;
    }

    public OpenOrder clientOrderId(final byte[] src)
    {
        putBytes(CLIENT_ORDER_ID, src, 0, CLIENT_ORDER_ID_LENGTH);
        putByte(CLIENT_ORDER_ID_PRESENT, (byte)1);
        return this;
    }

    /** Marks the client order id absent and zeroes its bytes, so equal orders have equal bytes. */
    public OpenOrder clearClientOrderId()
    {
        zero(CLIENT_ORDER_ID, CLIENT_ORDER_ID_LENGTH);
        putByte(CLIENT_ORDER_ID_PRESENT, (byte)0);
        return this;
    }

    public void getClientOrderId(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(CLIENT_ORDER_ID, dst, offset, CLIENT_ORDER_ID_LENGTH);
    }

    public void getClientOrderId(final byte[] dst, final int offset)
    {
        getBytes(CLIENT_ORDER_ID, dst, offset, CLIENT_ORDER_ID_LENGTH);
    }

    public boolean clientOrderIdEquals(final DirectBuffer other, final int offset)
    {
        return hasClientOrderId() && bytesEqual(CLIENT_ORDER_ID, other, offset, CLIENT_ORDER_ID_LENGTH);
    }

    public byte book()
    {
        return getByte(BOOK);
    }

    public OpenOrder book(final byte book)
    {
        putByte(BOOK, book);
        return this;
    }

    public byte side()
    {
        return getByte(SIDE);
    }

    public OpenOrder side(final byte side)
    {
        putByte(SIDE, side);
        return this;
    }

    public byte timeInForce()
    {
        return getByte(TIME_IN_FORCE);
    }

    public OpenOrder timeInForce(final byte timeInForce)
    {
        putByte(TIME_IN_FORCE, timeInForce);
        return this;
    }

    public byte stp()
    {
        return getByte(STP);
    }

    public OpenOrder stp(final byte stp)
    {
        putByte(STP, stp);
        return this;
    }
}
