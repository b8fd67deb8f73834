package io.venue.engine.book;

import io.venue.action.Side;

import java.util.ArrayList;
import java.util.List;

/**
 * Records every callback as a line naming orders by their id (the last id word), and keeps the taker's end.
 */
final class RecordingListener implements MatchListener
{
    private final OrderBook book;
    final List<String> events = new ArrayList<>();
    TakerDoneReason takerReason;
    long takerFilled = -1;
    long takerRemaining = -1;
    int restedSlot = OrderBook.NULL_SLOT;

    RecordingListener(final OrderBook book)
    {
        this.book = book;
    }

    void clear()
    {
        events.clear();
        takerReason = null;
        takerFilled = -1;
        takerRemaining = -1;
        restedSlot = OrderBook.NULL_SLOT;
    }

    /** @return the events without market data level changes. */
    List<String> orderEvents()
    {
        final List<String> result = new ArrayList<>();
        for (final String event : events)
        {
            if (!event.startsWith("L "))
            {
                result.add(event);
            }
        }
        return result;
    }

    List<String> trades()
    {
        final List<String> result = new ArrayList<>();
        for (final String event : events)
        {
            if (event.startsWith("T"))
            {
                result.add(event);
            }
        }
        return result;
    }

    private long id(final int slot)
    {
        return book.orderIdWord(slot, 3);
    }

    @Override
    public void onTrade(
        final int makerSlot, final int makerAccount, final int takerAccount, final long price, final long qty,
        final long makerRemainingAfter)
    {
        events.add("T#" + id(makerSlot) + " a" + makerAccount + ">a" + takerAccount + " " + price + "x" + qty +
            " left=" + makerRemainingAfter);
    }

    @Override
    public void onMakerDone(final int slot, final MakerDoneReason reason)
    {
        events.add("D#" + id(slot) + " " + reason);
    }

    @Override
    public void onTakerRested(final int slot)
    {
        restedSlot = slot;
        events.add("R#" + id(slot) + " left=" + book.remainingOf(slot));
    }

    @Override
    public void onTakerDone(final TakerDoneReason reason, final long filledQty, final long remainingQty)
    {
        takerReason = reason;
        takerFilled = filledQty;
        takerRemaining = remainingQty;
        events.add("X " + reason + " " + filledQty + "/" + remainingQty);
    }

    @Override
    public void onLevelChanged(final Side side, final long price, final long newLevelQty, final int orderCount)
    {
        events.add("L " + side + " " + price + "=" + newLevelQty);
    }
}
