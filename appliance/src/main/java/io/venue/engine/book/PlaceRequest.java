package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import org.agrona.DirectBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reusable, mutable description of an order to place: fill it, pass it to
 * {@link OrderBook#place(PlaceRequest, MatchListener)}, then reuse it. Setters return {@code this} for chaining.
 * <p>
 * {@link #reset()} puts every field back to a value that {@code place} rejects as INVALID (account -1, no side,
 * no time in force), so a forgotten field cannot pass silently.
 */
public final class PlaceRequest
{
    /** Length of an order id in bytes. */
    public static final int ORDER_ID_LENGTH = 32;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private long id0;
    private long id1;
    private long id2;
    private long id3;
    private int accountIndex;
    private Side side;
    private long price;
    private long qty;
    private long filledBefore;
    private TimeInForce timeInForce;
    private StpMode stpMode;
    private boolean market;
    private long expiresAt;
    private long sequence;
    private long nowMs;

    public PlaceRequest()
    {
        reset();
    }

    /**
     * Clears every field.
     *
     * @return this.
     */
    public PlaceRequest reset()
    {
        id0 = 0;
        id1 = 0;
        id2 = 0;
        id3 = 0;
        accountIndex = -1;
        side = null;
        price = 0;
        qty = 0;
        filledBefore = 0;
        timeInForce = null;
        stpMode = null;
        market = false;
        expiresAt = OrderBook.NO_EXPIRY;
        sequence = 0;
        nowMs = 0;
        return this;
    }

    /**
     * Order id from 32 bytes, read as four big-endian longs.
     *
     * @param src    bytes.
     * @param offset where the id starts.
     * @return this.
     */
    public PlaceRequest orderId(final byte[] src, final int offset)
    {
        id0 = (long)LONGS.get(src, offset);
        id1 = (long)LONGS.get(src, offset + 8);
        id2 = (long)LONGS.get(src, offset + 16);
        id3 = (long)LONGS.get(src, offset + 24);
        return this;
    }

    /**
     * Order id from 32 bytes of a buffer, read as four big-endian longs.
     *
     * @param src    buffer.
     * @param offset where the id starts.
     * @return this.
     */
    public PlaceRequest orderId(final DirectBuffer src, final int offset)
    {
        id0 = src.getLong(offset, ByteOrder.BIG_ENDIAN);
        id1 = src.getLong(offset + 8, ByteOrder.BIG_ENDIAN);
        id2 = src.getLong(offset + 16, ByteOrder.BIG_ENDIAN);
        id3 = src.getLong(offset + 24, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * Order id as its four big-endian words, most significant first.
     *
     * @return this.
     */
    public PlaceRequest orderId(final long word0, final long word1, final long word2, final long word3)
    {
        id0 = word0;
        id1 = word1;
        id2 = word2;
        id3 = word3;
        return this;
    }

    /**
     * @param index 0..3, most significant first.
     * @return that big-endian word of the order id.
     */
    public long orderIdWord(final int index)
    {
        switch (index)
        {
            case 0:
                return id0;
            case 1:
                return id1;
            case 2:
                return id2;
            case 3:
                return id3;
            default:
                throw new IndexOutOfBoundsException(index);
        }
    }

    /** @return the engine's dense account number of the owner. */
    public int accountIndex()
    {
        return accountIndex;
    }

    public PlaceRequest accountIndex(final int accountIndex)
    {
        this.accountIndex = accountIndex;
        return this;
    }

    public Side side()
    {
        return side;
    }

    public PlaceRequest side(final Side side)
    {
        this.side = side;
        return this;
    }

    /** @return the limit price in micro-units; for a market order, the worst price the taker accepts. */
    public long price()
    {
        return price;
    }

    public PlaceRequest price(final long price)
    {
        this.price = price;
        return this;
    }

    public long qty()
    {
        return qty;
    }

    public PlaceRequest qty(final long qty)
    {
        this.qty = qty;
        return this;
    }

    /**
     * @return what the order's id filled before this place: 0 for a new order; for an order an amend takes out and
     * enters again, its fills so far. Only its resting size ({@link OrderBook#originalQtyOf}) counts it, so
     * {@link OrderBook#filledOf} holds every fill of the id; matching uses {@link #qty()} alone.
     */
    public long filledBefore()
    {
        return filledBefore;
    }

    public PlaceRequest filledBefore(final long filledBefore)
    {
        this.filledBefore = filledBefore;
        return this;
    }

    public TimeInForce timeInForce()
    {
        return timeInForce;
    }

    public PlaceRequest timeInForce(final TimeInForce timeInForce)
    {
        this.timeInForce = timeInForce;
        return this;
    }

    /** @return the self-trade prevention mode, or null for none (self trades happen). */
    public StpMode stpMode()
    {
        return stpMode;
    }

    public PlaceRequest stpMode(final StpMode stpMode)
    {
        this.stpMode = stpMode;
        return this;
    }

    /** @return true for a market order: it never rests and {@link #price()} is its protection limit. */
    public boolean market()
    {
        return market;
    }

    public PlaceRequest market(final boolean market)
    {
        this.market = market;
        return this;
    }

    /** @return expiry in Unix ms, or {@link OrderBook#NO_EXPIRY}. */
    public long expiresAt()
    {
        return expiresAt;
    }

    public PlaceRequest expiresAt(final long expiresAt)
    {
        this.expiresAt = expiresAt;
        return this;
    }

    /** @return the command sequence that places the order: its time priority. */
    public long sequence()
    {
        return sequence;
    }

    public PlaceRequest sequence(final long sequence)
    {
        this.sequence = sequence;
        return this;
    }

    /** @return the command's stamped time in Unix ms: resting orders that expire at or before it do not trade. */
    public long nowMs()
    {
        return nowMs;
    }

    public PlaceRequest nowMs(final long nowMs)
    {
        this.nowMs = nowMs;
        return this;
    }
}
