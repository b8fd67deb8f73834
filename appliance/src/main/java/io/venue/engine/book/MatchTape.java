package io.venue.engine.book;

import io.venue.action.Side;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Records what a book did, callback by callback, with a copy of every slot a callback names as it was at
 * that moment, so that another thread can hand the same callbacks to its own {@link MatchListener} later,
 * after the book has moved on ({@link #replay}). Callers add their own marks between the callbacks
 * ({@link #mark}), which replay hands to a {@link Marks} handler in place.
 * <p>
 * A record is a type byte, its arguments and, for the callbacks that name a slot, the slot's copy (account,
 * side, price, original and remaining quantity, the 32-byte id). The buffer grows once to the largest match
 * it holds and is then reused: nothing allocates per record.
 */
public final class MatchTape implements MatchListener
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final byte TRADE = 1;
    private static final byte MAKER_DONE = 2;
    private static final byte TAKER_RESTED = 3;
    private static final byte TAKER_DONE = 4;
    private static final byte LEVEL = 5;
    private static final byte MARK = 6;
    private static final byte MARK_WITH_SLOT = 7;
    private static final int SLOT_COPY = 4 + 1 + 8 + 8 + 8 + 32;
    private static final MakerDoneReason[] MAKER_REASONS = MakerDoneReason.values();
    private static final TakerDoneReason[] TAKER_REASONS = TakerDoneReason.values();
    private static final Side[] SIDES = Side.values();

    /** Receives the caller's own marks during {@link #replay}. */
    @FunctionalInterface
    public interface Marks
    {
        void onMark(int type, int value);
    }

    private final ExpandableArrayBuffer buffer;
    private SlotReader book;
    private int length;

    public MatchTape(final int initialCapacity)
    {
        buffer = new ExpandableArrayBuffer(initialCapacity);
    }

    /** The book whose slots the callbacks that follow name. */
    public MatchTape reading(final SlotReader book)
    {
        this.book = book;
        return this;
    }

    public DirectBuffer buffer()
    {
        return buffer;
    }

    public int length()
    {
        return length;
    }

    public void clear()
    {
        length = 0;
    }

    /** Adds a mark of the caller's own (any type; replay hands it back unchanged). */
    public void mark(final int type, final int value)
    {
        buffer.putByte(length, MARK);
        buffer.putInt(length + 1, type, LE);
        buffer.putInt(length + 5, value, LE);
        length += 9;
    }

    /** Adds a mark with a copy of {@code slot} as it is now, which the mark's handler reads during replay. */
    public void mark(final int type, final int value, final int slot)
    {
        buffer.putByte(length, MARK_WITH_SLOT);
        buffer.putInt(length + 1, type, LE);
        buffer.putInt(length + 5, value, LE);
        length = copySlot(length + 9, slot);
    }

    @Override
    public void onTrade(
        final int makerSlot, final int makerAccount, final int takerAccount, final long price, final long qty,
        final long makerRemainingAfter)
    {
        buffer.putByte(length, TRADE);
        buffer.putInt(length + 1, makerSlot, LE);
        buffer.putInt(length + 5, makerAccount, LE);
        buffer.putInt(length + 9, takerAccount, LE);
        buffer.putLong(length + 13, price, LE);
        buffer.putLong(length + 21, qty, LE);
        buffer.putLong(length + 29, makerRemainingAfter, LE);
        length = copySlot(length + 37, makerSlot);
    }

    @Override
    public void onMakerDone(final int slot, final MakerDoneReason reason)
    {
        buffer.putByte(length, MAKER_DONE);
        buffer.putInt(length + 1, slot, LE);
        buffer.putByte(length + 5, (byte)reason.ordinal());
        length = copySlot(length + 6, slot);
    }

    @Override
    public void onTakerRested(final int slot)
    {
        buffer.putByte(length, TAKER_RESTED);
        buffer.putInt(length + 1, slot, LE);
        length = copySlot(length + 5, slot);
    }

    @Override
    public void onTakerDone(final TakerDoneReason reason, final long filledQty, final long remainingQty)
    {
        buffer.putByte(length, TAKER_DONE);
        buffer.putByte(length + 1, (byte)reason.ordinal());
        buffer.putLong(length + 2, filledQty, LE);
        buffer.putLong(length + 10, remainingQty, LE);
        length += 18;
    }

    @Override
    public void onLevelChanged(final Side side, final long price, final long newLevelQty, final int orderCount)
    {
        buffer.putByte(length, LEVEL);
        buffer.putByte(length + 1, (byte)side.ordinal());
        buffer.putLong(length + 2, price, LE);
        buffer.putLong(length + 10, newLevelQty, LE);
        buffer.putInt(length + 18, orderCount, LE);
        length += 22;
    }

    private int copySlot(final int at, final int slot)
    {
        buffer.putInt(at, book.accountOf(slot), LE);
        buffer.putByte(at + 4, (byte)book.sideOf(slot).ordinal());
        buffer.putLong(at + 5, book.priceOf(slot), LE);
        buffer.putLong(at + 13, book.originalQtyOf(slot), LE);
        buffer.putLong(at + 21, book.remainingOf(slot), LE);
        for (int word = 0; word < 4; word++)
        {
            buffer.putLong(at + 29 + 8 * word, book.orderIdWord(slot, word), LE);
        }
        return at + SLOT_COPY;
    }

    /**
     * Hands the records in {@code tape[offset, offset + length)} to {@code listener} and {@code marks}, in
     * order. During a callback that names a slot, {@code slots} reads that slot's copy: point the listener's
     * reads at it.
     */
    public static void replay(
        final DirectBuffer tape, final int offset, final int length, final Replayed slots, final MatchListener listener,
        final Marks marks)
    {
        final int end = offset + length;
        int at = offset;
        while (at < end)
        {
            final byte type = tape.getByte(at);
            switch (type)
            {
                case TRADE ->
                {
                    slots.at(tape, at + 37);
                    listener.onTrade(tape.getInt(at + 1, LE), tape.getInt(at + 5, LE), tape.getInt(at + 9, LE),
                        tape.getLong(at + 13, LE), tape.getLong(at + 21, LE), tape.getLong(at + 29, LE));
                    at += 37 + SLOT_COPY;
                }
                case MAKER_DONE ->
                {
                    slots.at(tape, at + 6);
                    listener.onMakerDone(tape.getInt(at + 1, LE), MAKER_REASONS[tape.getByte(at + 5)]);
                    at += 6 + SLOT_COPY;
                }
                case TAKER_RESTED ->
                {
                    slots.at(tape, at + 5);
                    listener.onTakerRested(tape.getInt(at + 1, LE));
                    at += 5 + SLOT_COPY;
                }
                case TAKER_DONE ->
                {
                    listener.onTakerDone(TAKER_REASONS[tape.getByte(at + 1)], tape.getLong(at + 2, LE),
                        tape.getLong(at + 10, LE));
                    at += 18;
                }
                case LEVEL ->
                {
                    listener.onLevelChanged(SIDES[tape.getByte(at + 1)], tape.getLong(at + 2, LE),
                        tape.getLong(at + 10, LE), tape.getInt(at + 18, LE));
                    at += 22;
                }
                case MARK ->
                {
                    marks.onMark(tape.getInt(at + 1, LE), tape.getInt(at + 5, LE));
                    at += 9;
                }
                case MARK_WITH_SLOT ->
                {
                    slots.at(tape, at + 9);
                    marks.onMark(tape.getInt(at + 1, LE), tape.getInt(at + 5, LE));
                    at += 9 + SLOT_COPY;
                }
                default -> throw new IllegalStateException(
                    "not a match tape record: type " + type + " at " + (at - offset));
            }
        }
    }

    /** The slot copy of the record being replayed, whatever slot number a reader asks for. */
    public static final class Replayed implements SlotReader
    {
        private DirectBuffer tape;
        private int at;

        void at(final DirectBuffer tape, final int at)
        {
            this.tape = tape;
            this.at = at;
        }

        @Override
        public int accountOf(final int slot)
        {
            return tape.getInt(at, LE);
        }

        @Override
        public Side sideOf(final int slot)
        {
            return SIDES[tape.getByte(at + 4)];
        }

        @Override
        public long priceOf(final int slot)
        {
            return tape.getLong(at + 5, LE);
        }

        @Override
        public long originalQtyOf(final int slot)
        {
            return tape.getLong(at + 13, LE);
        }

        @Override
        public long remainingOf(final int slot)
        {
            return tape.getLong(at + 21, LE);
        }

        @Override
        public long orderIdWord(final int slot, final int index)
        {
            return tape.getLong(at + 29 + 8 * index, LE);
        }

        @Override
        public void orderIdInto(final int slot, final MutableDirectBuffer dst, final int offset)
        {
            for (int word = 0; word < 4; word++)
            {
                dst.putLong(offset + 8 * word, tape.getLong(at + 29 + 8 * word, LE), ByteOrder.BIG_ENDIAN);
            }
        }
    }
}
