package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;

/**
 * Preallocated storage of orders as parallel arrays of primitives indexed by slot, with a free list.
 * Allocation takes the most recently freed slot, so slot numbers are a deterministic function of the calls.
 */
final class OrderPool
{
    static final int NULL_SLOT = -1;

    private static final Side[] SIDES = Side.values();
    private static final TimeInForce[] TIMES_IN_FORCE = TimeInForce.values();
    private static final StpMode[] STP_MODES = StpMode.values();
    private static final byte NO_STP = -1;

    private final int capacity;
    private final long[] id0;
    private final long[] id1;
    private final long[] id2;
    private final long[] id3;
    private final int[] account;
    private final byte[] side;
    private final byte[] timeInForce;
    private final byte[] stpMode;
    private final boolean[] live;
    private final long[] price;
    private final long[] originalQty;
    private final long[] remainingQty;
    private final long[] expiresAt;
    private final long[] sequence;
    // prev/next link a live order into its level's FIFO; next also links the free list.
    private final int[] prev;
    private final int[] next;
    private int freeHead;
    private int used;

    private final RestingLimit shared;

    OrderPool(final int capacity, final RestingLimit shared)
    {
        this.shared = shared;
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        id0 = new long[capacity];
        id1 = new long[capacity];
        id2 = new long[capacity];
        id3 = new long[capacity];
        account = new int[capacity];
        side = new byte[capacity];
        timeInForce = new byte[capacity];
        stpMode = new byte[capacity];
        live = new boolean[capacity];
        price = new long[capacity];
        originalQty = new long[capacity];
        remainingQty = new long[capacity];
        expiresAt = new long[capacity];
        sequence = new long[capacity];
        prev = new int[capacity];
        next = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            next[i] = i + 1 < capacity ? i + 1 : NULL_SLOT;
            prev[i] = NULL_SLOT;
        }
        freeHead = 0;
    }

    int capacity()
    {
        return capacity;
    }

    int used()
    {
        return used;
    }

    /** Slots an order can still take: this pool's own, bounded by what the shared limit has left. */
    int free()
    {
        return (int)Math.min(capacity - used, shared.remaining());
    }

    boolean isLive(final int slot)
    {
        return slot >= 0 && slot < capacity && live[slot];
    }

    /**
     * Takes a free slot and fills it from the request with the given remaining quantity; not linked anywhere.
     *
     * @return the slot, or {@link #NULL_SLOT} when the pool is exhausted.
     */
    int allocate(final PlaceRequest request, final long remaining)
    {
        final int slot = freeHead;
        if (slot == NULL_SLOT)
        {
            return NULL_SLOT;
        }
        freeHead = next[slot];
        used++;
        shared.take();

        id0[slot] = request.orderIdWord(0);
        id1[slot] = request.orderIdWord(1);
        id2[slot] = request.orderIdWord(2);
        id3[slot] = request.orderIdWord(3);
        account[slot] = request.accountIndex();
        side[slot] = (byte)request.side().ordinal();
        timeInForce[slot] = (byte)request.timeInForce().ordinal();
        final StpMode stp = request.stpMode();
        stpMode[slot] = null == stp ? NO_STP : (byte)stp.ordinal();
        price[slot] = request.price();
        originalQty[slot] = request.filledBefore() + request.qty();
        remainingQty[slot] = remaining;
        expiresAt[slot] = request.expiresAt();
        sequence[slot] = request.sequence();
        prev[slot] = NULL_SLOT;
        next[slot] = NULL_SLOT;
        live[slot] = true;
        return slot;
    }

    /**
     * Gives a live slot a new price, size, remaining quantity and sequence, as the same order entering again (its size
     * is what it filled and keeps, plus {@code qty}). Unlinked first by the caller, relinked after.
     */
    void renew(final int slot, final long newPrice, final long size, final long qty, final long newSequence)
    {
        price[slot] = newPrice;
        originalQty[slot] = size;
        remainingQty[slot] = qty;
        sequence[slot] = newSequence;
    }

    void release(final int slot)
    {
        live[slot] = false;
        prev[slot] = NULL_SLOT;
        next[slot] = freeHead;
        freeHead = slot;
        used--;
        shared.giveBack();
    }

    long idWord(final int slot, final int index)
    {
        switch (index)
        {
            case 0:
                return id0[slot];
            case 1:
                return id1[slot];
            case 2:
                return id2[slot];
            case 3:
                return id3[slot];
            default:
                throw new IndexOutOfBoundsException(index);
        }
    }

    int account(final int slot)
    {
        return account[slot];
    }

    Side side(final int slot)
    {
        return SIDES[side[slot]];
    }

    TimeInForce timeInForce(final int slot)
    {
        return TIMES_IN_FORCE[timeInForce[slot]];
    }

    StpMode stpMode(final int slot)
    {
        final byte code = stpMode[slot];
        return NO_STP == code ? null : STP_MODES[code];
    }

    long price(final int slot)
    {
        return price[slot];
    }

    long originalQty(final int slot)
    {
        return originalQty[slot];
    }

    long remainingQty(final int slot)
    {
        return remainingQty[slot];
    }

    void remainingQty(final int slot, final long qty)
    {
        remainingQty[slot] = qty;
    }

    /** Lowers both sizes by the same amount, so original minus remaining (the filled quantity) is unchanged. */
    void reduceBy(final int slot, final long delta)
    {
        originalQty[slot] -= delta;
        remainingQty[slot] -= delta;
    }

    long expiresAt(final int slot)
    {
        return expiresAt[slot];
    }

    long sequence(final int slot)
    {
        return sequence[slot];
    }

    int prev(final int slot)
    {
        return prev[slot];
    }

    void prev(final int slot, final int value)
    {
        prev[slot] = value;
    }

    int next(final int slot)
    {
        return next[slot];
    }

    void next(final int slot, final int value)
    {
        next[slot] = value;
    }
}
