package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.OrderRestedDecoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeDecoder;
import org.agrona.DirectBuffer;

import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each order stands, as the event journal tells it, for GET /api/v1/trading/orders/{orderId}: every open
 * order, and the last {@link #FINISHED_KEPT} finished ones. Written by one thread at a time (the start-up scan, then
 * the responder), read by the I/O threads; an order's view changes in place, read whole under its sequence lock.
 */
public final class OrderStatuses
{
    public static final int FINISHED_KEPT = 100_000;

    /**
     * One order; amounts in micro-units. {@code qty} is its size, what it filled plus {@code remaining}, so
     * {@code qty - remaining} counts every fill of its id, also across an amend that took it out and entered it again.
     * {@code status}: accepted, resting, or how it finished (filled, cancelled, ...). Changed in place by the one
     * writer thread under a sequence lock ({@link #version}, odd while it writes), so an event of a known order
     * allocates nothing and a reader copies one event's state whole.
     */
    private static final class View
    {
        /** The order's id (the map's own key): its text is made by a reader, not per order on the responder. */
        private final BytesKey orderId;
        private volatile long version;
        /** The account's 20 bytes; never changed once written (an id is one account's). */
        private byte[] account;
        private long market;
        private String book;
        private String side;
        private long price;
        private long qty;
        private long remaining;
        private String status;
        private long sequence;

        View(final BytesKey orderId)
        {
            this.orderId = orderId;
        }

        boolean isOpen()
        {
            return "accepted".equals(status) || "resting".equals(status);
        }

        private long beginWrite()
        {
            final long odd = version + 1;
            version = odd;
            // the fields' writes stay after the odd version, as a reader's loads stay before its second look
            VarHandle.storeStoreFence();
            return odd;
        }

        void accepted(final byte[] account, final long market, final String book, final String side,
            final long price, final long qty, final long remaining, final long sequence)
        {
            final long odd = beginWrite();
            this.account = account;
            this.market = market;
            this.book = book;
            this.side = side;
            this.price = price;
            this.qty = qty;
            this.remaining = remaining;
            this.status = "accepted";
            this.sequence = sequence;
            version = odd + 1;
        }

        void changed(final long price, final long qty, final long remaining, final String status,
            final long sequence)
        {
            final long odd = beginWrite();
            this.price = price;
            this.qty = qty;
            this.remaining = remaining;
            this.status = status;
            this.sequence = sequence;
            version = odd + 1;
        }

        void changed(final long remaining, final String status, final long sequence)
        {
            changed(price, qty, remaining, status, sequence);
        }

        /** The order as JSON, one event's state whole; any thread. */
        String json()
        {
            while (true)
            {
                final long before = version;
                final byte[] account = this.account;
                final long market = this.market;
                final String book = this.book;
                final String side = this.side;
                final long price = this.price;
                final long qty = this.qty;
                final long remaining = this.remaining;
                final String status = this.status;
                final long sequence = this.sequence;
                VarHandle.loadLoadFence();
                if ((before & 1) == 0 && version == before)
                {
                    return new JsonWriter().field("orderId", orderId.toString()).field("account", Hex.to0x(account))
                        .field("market", market).field("book", book).field("side", side).field("price", price)
                        .field("qty", qty).field("remaining", remaining).field("filled", qty - remaining)
                        .field("status", status).field("asOfSequence", sequence).toJson();
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Lower-case names of the reasons, by value: a status string made once, not per finished order. */
    private static final String[] DONE_STATUSES = new String[OrderDoneReason.values().length];

    static
    {
        for (final OrderDoneReason reason : OrderDoneReason.values())
        {
            if (reason != OrderDoneReason.NULL_VAL)
            {
                DONE_STATUSES[reason.value()] = reason.name().toLowerCase(Locale.ROOT);
            }
        }
    }

    /** By the order id's 32 bytes, probed with {@link #probe}: an event of a known order makes no key or id text. */
    private final Map<BytesKey, View> orders;
    private final ArrayDeque<BytesKey> finished = new ArrayDeque<>();
    private final BytesKey probe = new BytesKey(BytesKey.ORDER);
    private final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
    private final OrderRestedDecoder rested = new OrderRestedDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final OrderAmendedDecoder amended = new OrderAmendedDecoder();
    private final OrderDoneDecoder done = new OrderDoneDecoder();
    private final byte[] id = new byte[32];
    private final byte[] address = new byte[20];

    /**
     * @param openOrders how many orders may be open at once (the state's limit): the map is made for them and the kept
     *                   finished ones, so it never grows by copying its whole table on the responder's thread.
     */
    public OrderStatuses(final long openOrders)
    {
        orders = new ConcurrentHashMap<>((int)Math.min(openOrders + FINISHED_KEPT, 1 << 29));
    }

    /** The order's status as JSON, or null when it is neither open nor among the recently finished. */
    public String json(final String orderId)
    {
        final View view = find(orderId);
        return view == null ? null : new JsonWriter().field("ok", true).raw("order", view.json()).toJson();
    }

    /** The market of the order (its 0x id), or -1 when it is neither open nor among the recently finished. */
    public long marketOf(final String orderId)
    {
        final View view = find(orderId);
        // a view's market never changes: its id names one order
        return view == null ? -1 : view.market;
    }

    private View find(final String orderId)
    {
        final BytesKey key = BytesKey.parse(orderId, BytesKey.ORDER);
        return key == null ? null : orders.get(key);
    }

    /** Applies an order event; others are ignored. {@code header} is wrapped at {@code offset}. */
    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        switch (header.templateId())
        {
            case OrderAcceptedDecoder.TEMPLATE_ID ->
            {
                accepted.wrapAndApplyHeader(buffer, offset, header);
                accepted.getOrderId(id, 0, 32);
                accepted.getAccount(address, 0, 20);
                final View before = orders.get(probe.set(id));
                // an open order accepted again is one an amend took out and entered again: what it filled stays filled.
                // The event's qty counts it only for an amend of version 6 or later, and then only the fills the
                // engine's book held (not those before an older amend's re-entry): carried here, it is right for
                // every journal
                final long qty = before != null && before.isOpen() ?
                    before.qty - before.remaining + accepted.remaining() : accepted.qty();
                final View view = before != null ? before : new View(probe.copy());
                view.accepted(before != null ? before.account : address.clone(), accepted.market(),
                    accepted.book().name(), side(accepted.side()), accepted.price(), qty, accepted.remaining(),
                    accepted.sequence());
                if (before == null)
                {
                    orders.put(view.orderId, view);
                }
            }
            case OrderRestedDecoder.TEMPLATE_ID ->
            {
                rested.wrapAndApplyHeader(buffer, offset, header);
                rested.getOrderId(id, 0, 32);
                probe.set(id);
                update(rested.remaining(), "resting", rested.sequence());
            }
            case TradeDecoder.TEMPLATE_ID ->
            {
                trade.wrapAndApplyHeader(buffer, offset, header);
                trade.getMakerOrderId(id, 0, 32);
                final View makerView = orders.get(probe.set(id));
                if (makerView != null)
                {
                    makerView.changed(trade.makerRemaining(), makerView.status, trade.sequence());
                }
                trade.getTakerOrderId(id, 0, 32);
                final View takerView = orders.get(probe.set(id));
                if (takerView != null)
                {
                    takerView.changed(takerView.remaining - trade.qty(), takerView.status, trade.sequence());
                }
            }
            case OrderAmendedDecoder.TEMPLATE_ID ->
            {
                amended.wrapAndApplyHeader(buffer, offset, header);
                amended.getOrderId(id, 0, 32);
                final View view = orders.get(probe.set(id));
                if (view != null)
                {
                    // an amend that keeps the order's place fills nothing: what it filled stays, carried as for a
                    // re-entry, since the event's qty of an order an older amend entered again counts only later fills
                    view.changed(amended.price(), view.qty - view.remaining + amended.remaining(),
                        amended.remaining(), view.status, amended.sequence());
                }
            }
            case OrderDoneDecoder.TEMPLATE_ID ->
            {
                done.wrapAndApplyHeader(buffer, offset, header);
                done.getOrderId(id, 0, 32);
                probe.set(id);
                final int reason = done.reasonRaw();
                if (update(done.remaining(), reason < DONE_STATUSES.length && DONE_STATUSES[reason] != null ?
                    DONE_STATUSES[reason] : "unknown", done.sequence()))
                {
                    finished.add(probe.copy());
                    if (finished.size() > FINISHED_KEPT)
                    {
                        // an id that came back (re-entered) since is open again: it stays
                        orders.computeIfPresent(finished.poll(), (key, view) -> view.isOpen() ? view : null);
                    }
                }
            }
            default ->
            {
                // not an order event
            }
        }
    }

    /** Changes the order {@link #probe} holds, if it is kept; whether it was. */
    private boolean update(final long remaining, final String status, final long sequence)
    {
        final View view = orders.get(probe);
        if (view == null)
        {
            return false;
        }
        view.changed(remaining, status, sequence);
        return true;
    }

    private static String side(final Side side)
    {
        return side == Side.BID ? "Bid" : "Ask";
    }
}
