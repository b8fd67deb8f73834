package io.venue.engine.book;

import io.venue.action.Side;
import org.agrona.MutableDirectBuffer;

/**
 * What a {@link MatchListener} may read about the order in a slot while a callback names it: the book itself,
 * or, when the callbacks are replayed on another thread after the book moved on, a copy taken at the callback.
 */
public interface SlotReader
{
    int accountOf(int slot);

    Side sideOf(int slot);

    long priceOf(int slot);

    long originalQtyOf(int slot);

    long remainingOf(int slot);

    /** One big-endian word (0..3, most significant first) of the 32-byte order id. */
    long orderIdWord(int slot, int index);

    /** Copies the 32-byte order id. */
    void orderIdInto(int slot, MutableDirectBuffer dst, int offset);
}
