package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A book with a reusable request, a recording listener, increasing sequences and a clock, addressing orders
 * by a small numeric id (stored in the last id word).
 */
final class BookTester
{
    final OrderBook book;
    final RecordingListener listener;
    final PlaceRequest request = new PlaceRequest();
    private final Map<Long, Integer> slots = new HashMap<>();
    long sequence = 1;
    long nowMs = 1_000;

    BookTester(final int capacity, final int maxLevels)
    {
        book = new OrderBook(capacity, maxLevels);
        listener = new RecordingListener(book);
    }

    BookTester()
    {
        this(1024, 1000);
    }

    PlaceRequest request(
        final long id, final int account, final Side side, final long price, final long qty, final TimeInForce tif,
        final StpMode stp)
    {
        return request.reset()
            .orderId(0x1111L, 0x2222L, 0x3333L, id)
            .accountIndex(account)
            .side(side)
            .price(price)
            .qty(qty)
            .timeInForce(tif)
            .stpMode(stp)
            .sequence(sequence++)
            .nowMs(nowMs);
    }

    PlaceResult place(final PlaceRequest request)
    {
        listener.clear();
        final PlaceResult result = book.place(request, listener);
        if (result == PlaceResult.RESTED)
        {
            slots.put(request.orderIdWord(3), listener.restedSlot);
        }
        forgetDone();
        return result;
    }

    PlaceResult place(
        final long id, final int account, final Side side, final long price, final long qty, final TimeInForce tif,
        final StpMode stp)
    {
        return place(request(id, account, side, price, qty, tif, stp));
    }

    PlaceResult gtc(final long id, final int account, final Side side, final long price, final long qty)
    {
        return place(id, account, side, price, qty, TimeInForce.GTC, null);
    }

    PlaceResult gtcExpiring(
        final long id, final int account, final Side side, final long price, final long qty, final long expiresAt)
    {
        return place(request(id, account, side, price, qty, TimeInForce.GTC, null).expiresAt(expiresAt));
    }

    PlaceResult market(
        final long id, final int account, final Side side, final long protection, final long qty,
        final TimeInForce tif)
    {
        return place(request(id, account, side, protection, qty, tif, null).market(true));
    }

    int slotOf(final long id)
    {
        final Integer slot = slots.get(id);
        return null == slot ? OrderBook.NULL_SLOT : slot;
    }

    boolean cancel(final long id)
    {
        listener.clear();
        final boolean cancelled = book.cancel(slotOf(id), listener);
        forgetDone();
        return cancelled;
    }

    boolean remove(final long id)
    {
        listener.clear();
        final int slot = slotOf(id);
        final boolean removed = book.remove(slot, listener);
        if (removed)
        {
            slots.remove(id);
        }
        return removed;
    }

    boolean reduce(final long id, final long newRemaining)
    {
        listener.clear();
        return book.reduceQty(slotOf(id), newRemaining, listener);
    }

    int expireUpTo(final long now)
    {
        listener.clear();
        final int count = book.expireUpTo(now, listener);
        forgetDone();
        return count;
    }

    private void forgetDone()
    {
        for (final String event : listener.events)
        {
            if (event.startsWith("D#"))
            {
                slots.remove(Long.parseLong(event.substring(2, event.indexOf(' '))));
            }
        }
    }

    /**
     * @return the side best first, one entry per level: {@code price=total[#id:remaining ...]}.
     */
    List<String> levels(final Side side)
    {
        final List<String> result = new ArrayList<>();
        for (int depth = 0; depth < book.levelCount(side); depth++)
        {
            final StringBuilder level = new StringBuilder()
                .append(book.levelPrice(side, depth)).append('=').append(book.levelQty(side, depth)).append('[');
            for (int slot = book.levelHead(side, depth); slot != OrderBook.NULL_SLOT; slot = book.nextInLevel(slot))
            {
                if (level.charAt(level.length() - 1) != '[')
                {
                    level.append(' ');
                }
                level.append('#').append(book.orderIdWord(slot, 3)).append(':').append(book.remainingOf(slot));
            }
            result.add(level.append(']').toString());
        }
        return result;
    }

    String snapshot()
    {
        return "ASK " + levels(Side.ASK) + " BID " + levels(Side.BID);
    }
}
