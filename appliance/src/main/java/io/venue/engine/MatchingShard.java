package io.venue.engine;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.engine.book.MakerDoneReason;
import io.venue.engine.book.MatchListener;
import io.venue.engine.book.MatchTape;
import io.venue.engine.book.OrderBook;
import io.venue.engine.book.PlaceRequest;
import io.venue.engine.book.PlaceResult;
import io.venue.engine.book.TakerDoneReason;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.risk.Notional;
import io.venue.journal.sbe.RejectCode;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One matching shard: on a thread of its own, it takes the places, cancels and amends the credit stage admitted for
 * the markets it owns ({@link ShardState#shardOf}), in sequence order, drives their books and writes what the
 * books did on a {@link MatchTape}, which the credit stage settles in the same order ({@link ShardPipeline}).
 * Before each command it expires the orders of its books whose time has come, on the command's stamped time,
 * looking only at its own markets' books.
 * <p>
 * It touches nothing but its books, its own index of their order ids and its two rings; the credit stage
 * touches those books only while every shard is idle (between a drain and the next ticket).
 */
final class MatchingShard implements Agent, MessageHandler
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    /**
     * A tape longer than this after a callback goes out as a part, so no match is bounded by the ring's message size.
     */
    private static final int PART_BYTES = 16 * 1024;
    private static final Side[] SIDES = Side.values();
    private static final TimeInForce[] TIME_IN_FORCE = TimeInForce.values();
    private static final StpMode[] STP_MODES = StpMode.values();

    private final int shard;
    private final ShardState state;
    private final OneToOneRingBuffer inbound;
    private final OneToOneRingBuffer outbound;
    private final IdleStrategy blockedIdle;
    private final MatchTape tape = new MatchTape(PART_BYTES * 2);
    private final Indexing listener = new Indexing();
    /** Order id (four big-endian words) to handle, for this shard's books. */
    private final FixedKeyIndex ids;
    private final long[] idKey = new long[4];
    /** (account, client id high, low) to handle, and each slot's client id, for this shard's books. */
    private final FixedKeyIndex clientIds;
    private final long[] clientKey = new long[3];
    private boolean[][] slotHasClientId = new boolean[0][];
    private long[][] slotClientHi = new long[0][];
    private long[][] slotClientLo = new long[0][];
    private final PlaceRequest request = new PlaceRequest();
    /**
     * The view of the ticket in hand ({@link ShardTicket#VIEW}), in 32 bits: a stamp as old as 2^32 views that
     * matches by wrapping only makes the amend rule stricter, never looser.
     */
    private int view;
    /**
     * Per book and slot: the last view in which this shard changed its order's reservation (a fill, a reduce, a rest;
     * 0: none).
     */
    private int[][] changedInView = new int[0][];
    /** What stopped this shard (a defect in matching), for the engine's thread to report; null while it runs. */
    private volatile Throwable failure;
    /** Set by the pipeline's close: a publish waiting for room gives up. */
    private volatile boolean closing;

    MatchingShard(
        final int shard,
        final ShardState state,
        final OneToOneRingBuffer inbound,
        final OneToOneRingBuffer outbound,
        final IdleStrategy blockedIdle)
    {
        this.shard = shard;
        this.state = state;
        this.inbound = inbound;
        this.outbound = outbound;
        this.blockedIdle = blockedIdle;
        this.ids = new FixedKeyIndex(4, 1024, state.config.indexSeed());
        this.clientIds = new FixedKeyIndex(3, 1024, state.config.indexSeed());
    }

    @Override
    public String roleName()
    {
        return "matching-shard-" + shard;
    }

    @Override
    public int doWork()
    {
        return inbound.read(this, 16);
    }

    @Override
    public void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length)
    {
        try
        {
            tape.clear();
            view = (int)buffer.getLong(index + ShardTicket.VIEW, LE);
            expire(buffer.getLong(index + ShardTicket.NOW_MS, LE));
            switch (type)
            {
                case ShardTicket.PLACE -> place(buffer, index);
                case ShardTicket.CANCEL -> cancel(buffer, index);
                case ShardTicket.AMEND -> amend(buffer, index);
                default -> cancelByClientId(buffer, index);
            }
            publish(ShardTicket.TAPE_END);
        }
        catch (final AgentTerminationException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            // a defect: the engine must stop at this very command, never settle the next one's tape in its place
            failure = ex;
            tape.clear();
            publish(ShardTicket.TAPE_FAILED);
            throw new AgentTerminationException(ex);
        }
    }

    /** What stopped this shard, or null. */
    Throwable failure()
    {
        return failure;
    }

    /** The pipeline is closing: a publish waiting for room stops waiting. */
    void closing()
    {
        closing = true;
    }

    private void expire(final long nowMs)
    {
        final OrderBook[] books = state.books;
        final int shards = state.config.shards();
        // this shard's markets are shard, shard + shards, ...: their books, in number order
        for (int book = 2 * shard; book < books.length; book += (book & 1) == 0 ? 1 : 2 * shards - 1)
        {
            final OrderBook orderBook = books[book];
            if (orderBook != null)
            {
                final long next = orderBook.nextExpiry();
                if (next != OrderBook.NO_EXPIRY && next <= nowMs)
                {
                    tape.mark(ShardTicket.MARK_EXPIRY, book);
                    orderBook.expireUpTo(nowMs, listener.in(book, orderBook));
                }
            }
        }
    }

    private void place(final DirectBuffer ticket, final int at)
    {
        final int book = ticket.getInt(at + ShardTicket.BOOK, LE);
        final OrderBook orderBook = state.books[book];
        final Side side = SIDES[ticket.getByte(at + ShardTicket.SIDE)];
        final long price = ticket.getLong(at + ShardTicket.PRICE, LE);
        final long qty = ticket.getLong(at + ShardTicket.QTY, LE);
        if (orderBook.levelWouldOverflow(side, price, qty))
        {
            tape.mark(ShardTicket.MARK_LEVEL_OVERFLOW, book);
            return;
        }
        tape.mark(ShardTicket.MARK_PLACE, book);
        final byte stp = ticket.getByte(at + ShardTicket.STP_MODE);
        request.reset()
            .orderId(ticket, at + ShardTicket.ORDER_ID)
            .accountIndex(ticket.getInt(at + ShardTicket.ACCOUNT, LE))
            .side(side)
            .price(price)
            .qty(qty)
            .timeInForce(TIME_IN_FORCE[ticket.getByte(at + ShardTicket.TIME_IN_FORCE)])
            .stpMode(stp == ShardTicket.NONE ? null : STP_MODES[stp])
            .market(ticket.getByte(at + ShardTicket.IS_MARKET) != 0)
            .expiresAt(ticket.getLong(at + ShardTicket.EXPIRES_AT, LE))
            .sequence(ticket.getLong(at + ShardTicket.PRIORITY, LE))
            .nowMs(ticket.getLong(at + ShardTicket.NOW_MS, LE));
        final PlaceResult result = orderBook.place(request, listener.in(book, orderBook).taking(ticket, at,
            ticket.getByte(at + ShardTicket.WITH_CLIENT_ID) != 0, ticket.getLong(at + ShardTicket.CLIENT_HI, LE),
            ticket.getLong(at + ShardTicket.CLIENT_LO, LE)));
        tape.mark(ShardTicket.MARK_PLACE_RESULT, result.ordinal());
    }

    private void cancel(final DirectBuffer ticket, final int at)
    {
        cancelHandle(ownOrder(ticket, at));
    }

    /** The handle of the ticket's account's open order with the ticket's order id, or MISSING. */
    private int ownOrder(final DirectBuffer ticket, final int at)
    {
        loadId(ticket, at + ShardTicket.ORDER_ID);
        final int handle = ids.get(idKey, 0);
        final boolean owned = handle != FixedKeyIndex.MISSING &&
            state.books[Orders.bookOf(handle)].accountOf(Orders.slotOf(handle)) ==
            ticket.getInt(at + ShardTicket.ACCOUNT, LE);
        return owned ? handle : FixedKeyIndex.MISSING;
    }

    /**
     * An amend, as {@code OrderEntry} makes it with one shard: the order's own checks here, the account's credit as
     * admission judged it. Admission judged it on the order's reservation when the view began; if this shard has
     * changed that reservation since (a part fill, a reduce, a move or re-entry), an amend that loses priority may add
     * no more than admission held for it ({@link ShardTicket#HEADROOM}) to what the order still holds at least.
     */
    private void amend(final DirectBuffer ticket, final int at)
    {
        final int handle = ownOrder(ticket, at);
        if (handle == FixedKeyIndex.MISSING)
        {
            tape.mark(ShardTicket.MARK_AMEND_UNKNOWN, 0);
            return;
        }
        final int early = ticket.getInt(at + ShardTicket.EARLY_REFUSAL, LE);
        if (early != ShardTicket.NO_REFUSAL)
        {
            tape.mark(ShardTicket.MARK_AMEND_REFUSED, early);
            return;
        }
        final int book = Orders.bookOf(handle);
        final int slot = Orders.slotOf(handle);
        final OrderBook orderBook = state.books[book];
        final Side side = orderBook.sideOf(slot);
        final long price = ticket.getLong(at + ShardTicket.PRICE, LE);
        final long qty = ticket.getLong(at + ShardTicket.QTY, LE);
        if (orderBook.levelWouldOverflow(side, price, qty))
        {
            tape.mark(ShardTicket.MARK_AMEND_REFUSED, RejectCode.INVALID_QTY.value());
            return;
        }
        final Indexing listening = listener.in(book, orderBook);
        final long remaining = orderBook.remainingOf(slot);
        if (price == orderBook.priceOf(slot) && qty <= remaining)
        {
            // a smaller quantity at the same price keeps its place in the queue
            tape.mark(ShardTicket.MARK_AMEND_KEEP, handle, slot);
            final boolean reduced = qty < remaining;
            if (reduced)
            {
                orderBook.reduceQty(slot, qty, listening);
                changed(book, slot);
            }
            tape.mark(ShardTicket.MARK_AMEND_KEPT, reduced ? 1 : 0, slot);
            return;
        }
        int credit = ticket.getInt(at + ShardTicket.CREDIT_REFUSAL, LE);
        ensureBook(book);
        if (credit == ShardTicket.NO_REFUSAL && changedInView[book][slot] == view)
        {
            // a bid's reservation always covers its remaining quantity at its price (Notional), an ask's is
            // that quantity
            final long leastHeld = Notional.ofOrder(side, orderBook.priceOf(slot), remaining);
            if (ticket.getLong(at + ShardTicket.NEW_RESERVATION, LE) - leastHeld >
                ticket.getLong(at + ShardTicket.HEADROOM, LE))
            {
                credit = RejectCode.RISK_CREDIT_LIMIT.value();
            }
        }
        if (credit != ShardTicket.NO_REFUSAL)
        {
            tape.mark(ShardTicket.MARK_AMEND_REFUSED, credit);
            return;
        }
        final long priority = ticket.getLong(at + ShardTicket.PRIORITY, LE);
        // what the order keeps of its fills if it enters again: all of them, or none for an amend of an older version
        final long filledBefore = ticket.getByte(at + ShardTicket.KEEPS_FILLED) != 0 ? orderBook.filledOf(slot) : 0;
        if (orderBook.restsWithoutMatching(slot, price))
        {
            tape.mark(ShardTicket.MARK_AMEND_MOVE, handle, slot);
            orderBook.lift(slot, listening);
            tape.mark(ShardTicket.MARK_AMEND_REST, 0);
            // the order keeps its slot and so its index entries
            orderBook.restAgain(slot, price, qty, filledBefore, priority, listening.taking(ticket, at, false, 0, 0));
            return;
        }
        // a new price that may match: out of the book, and in again as a new place with the same id
        tape.mark(ShardTicket.MARK_AMEND_REENTER, handle, slot);
        final boolean withClientId = slotHasClientId[book][slot];
        final long clientHi = withClientId ? slotClientHi[book][slot] : 0;
        final long clientLo = withClientId ? slotClientLo[book][slot] : 0;
        final int account = orderBook.accountOf(slot);
        request.reset()
            .orderId(ticket, at + ShardTicket.ORDER_ID)
            .accountIndex(account)
            .side(side)
            .price(price)
            .qty(qty)
            .filledBefore(filledBefore)
            .timeInForce(orderBook.timeInForceOf(slot))
            .stpMode(orderBook.stpModeOf(slot))
            .market(false)
            .expiresAt(orderBook.expiresAtOf(slot))
            .sequence(priority)
            .nowMs(ticket.getLong(at + ShardTicket.NOW_MS, LE));
        unindexed(handle, idKey[0], idKey[1], idKey[2], idKey[3], account);
        orderBook.remove(slot, listening);
        tape.mark(ShardTicket.MARK_AMEND_PLACE, 0);
        final PlaceResult result = orderBook.place(request,
            listening.taking(ticket, at, withClientId, clientHi, clientLo));
        tape.mark(ShardTicket.MARK_AMEND_PLACE_RESULT, result.ordinal());
    }

    /** Notes that this shard changed an order's reservation in the current view (a part fill, a reduce, a rest). */
    private void changed(final int book, final int slot)
    {
        ensureBook(book);
        changedInView[book][slot] = view;
    }

    /** Makes this shard's per-slot records of {@code book} at their first use: client order ids, view stamps. */
    private void ensureBook(final int book)
    {
        if (book >= changedInView.length)
        {
            final int capacity = Math.max(book + 1, changedInView.length * 2);
            changedInView = Arrays.copyOf(changedInView, capacity);
            slotHasClientId = Arrays.copyOf(slotHasClientId, capacity);
            slotClientHi = Arrays.copyOf(slotClientHi, capacity);
            slotClientLo = Arrays.copyOf(slotClientLo, capacity);
        }
        if (changedInView[book] == null)
        {
            final int slots = state.config.orderCapacityPerBook();
            changedInView[book] = new int[slots];
            slotHasClientId[book] = new boolean[slots];
            slotClientHi[book] = new long[slots];
            slotClientLo[book] = new long[slots];
        }
    }

    private void cancelByClientId(final DirectBuffer ticket, final int at)
    {
        clientKey[0] = ticket.getInt(at + ShardTicket.ACCOUNT, LE);
        clientKey[1] = ticket.getLong(at + ShardTicket.ORDER_ID, ByteOrder.BIG_ENDIAN);
        clientKey[2] = ticket.getLong(at + ShardTicket.ORDER_ID + 8, ByteOrder.BIG_ENDIAN);
        cancelHandle(clientIds.get(clientKey, 0));
    }

    /** Cancels the order of a handle found for the account, or marks that there is none. */
    private void cancelHandle(final int handle)
    {
        if (handle == FixedKeyIndex.MISSING)
        {
            tape.mark(ShardTicket.MARK_CANCEL_UNKNOWN, 0);
            return;
        }
        final int book = Orders.bookOf(handle);
        tape.mark(ShardTicket.MARK_CANCEL, book);
        final OrderBook orderBook = state.books[book];
        orderBook.cancel(Orders.slotOf(handle), listener.in(book, orderBook));
    }

    /**
     * Registers a resting order of this shard's books, with its account's client order id if it has one (for a
     * barrier, or when the pipeline starts on a restored state).
     */
    void indexed(
        final int handle, final long id0, final long id1, final long id2, final long id3, final int account,
        final boolean withClientId, final long clientHi, final long clientLo)
    {
        idKey[0] = id0;
        idKey[1] = id1;
        idKey[2] = id2;
        idKey[3] = id3;
        ids.put(idKey, 0, handle);
        if (withClientId)
        {
            clientIndexed(handle, account, clientHi, clientLo);
        }
    }

    /** Forgets an order that left one of this shard's books outside its own thread (a barrier). */
    void unindexed(final int handle, final long id0, final long id1, final long id2, final long id3, final int account)
    {
        idKey[0] = id0;
        idKey[1] = id1;
        idKey[2] = id2;
        idKey[3] = id3;
        ids.remove(idKey, 0);
        clientUnindexed(handle, account);
    }

    private void clientIndexed(final int handle, final int account, final long clientHi, final long clientLo)
    {
        final int book = Orders.bookOf(handle);
        final int slot = Orders.slotOf(handle);
        ensureBook(book);
        slotHasClientId[book][slot] = true;
        slotClientHi[book][slot] = clientHi;
        slotClientLo[book][slot] = clientLo;
        clientKey[0] = account;
        clientKey[1] = clientHi;
        clientKey[2] = clientLo;
        clientIds.put(clientKey, 0, handle);
    }

    private void clientUnindexed(final int handle, final int account)
    {
        final int book = Orders.bookOf(handle);
        final int slot = Orders.slotOf(handle);
        ensureBook(book);
        if (slotHasClientId[book][slot])
        {
            slotHasClientId[book][slot] = false;
            clientKey[0] = account;
            clientKey[1] = slotClientHi[book][slot];
            clientKey[2] = slotClientLo[book][slot];
            clientIds.remove(clientKey, 0);
        }
    }

    private void loadId(final DirectBuffer buffer, final int offset)
    {
        for (int word = 0; word < 4; word++)
        {
            idKey[word] = buffer.getLong(offset + 8 * word, ByteOrder.BIG_ENDIAN);
        }
    }

    private void publish(final int type)
    {
        while (!outbound.write(type, tape.buffer(), 0, tape.length()))
        {
            if (closing)
            {
                throw new AgentTerminationException("closed while its answers wait for room");
            }
            // the credit stage settles in order and drains this ring whenever it waits on anything
            blockedIdle.idle();
        }
        blockedIdle.reset();
        tape.clear();
    }

    /** Records each callback on the tape, keeps the id index in step, and sends the tape out in parts. */
    private final class Indexing implements MatchListener
    {
        private int book;
        private OrderBook orderBook;
        /** The ticket of the taker, for its id, and its client order id. */
        private DirectBuffer taker;
        private int takerAt;
        private boolean takerWithClientId;
        private long takerClientHi;
        private long takerClientLo;

        Indexing in(final int book, final OrderBook orderBook)
        {
            this.book = book;
            this.orderBook = orderBook;
            tape.reading(orderBook);
            return this;
        }

        /**
         * The taker of the book call that follows: its ticket (for its id) and client order id, if it has one to index.
         */
        Indexing taking(final DirectBuffer ticket, final int at, final boolean withClientId, final long clientHi,
            final long clientLo)
        {
            this.taker = ticket;
            this.takerAt = at;
            this.takerWithClientId = withClientId;
            this.takerClientHi = clientHi;
            this.takerClientLo = clientLo;
            return this;
        }

        @Override
        public void onTrade(
            final int makerSlot, final int makerAccount, final int takerAccount, final long price, final long qty,
            final long makerRemainingAfter)
        {
            tape.onTrade(makerSlot, makerAccount, takerAccount, price, qty, makerRemainingAfter);
            changed(book, makerSlot);
            partOut();
        }

        @Override
        public void onMakerDone(final int slot, final MakerDoneReason reason)
        {
            tape.onMakerDone(slot, reason);
            unindexed(Orders.handle(book, slot), orderBook.orderIdWord(slot, 0), orderBook.orderIdWord(slot, 1),
                orderBook.orderIdWord(slot, 2), orderBook.orderIdWord(slot, 3), orderBook.accountOf(slot));
            partOut();
        }

        @Override
        public void onTakerRested(final int slot)
        {
            tape.onTakerRested(slot);
            loadId(taker, takerAt + ShardTicket.ORDER_ID);
            final int handle = Orders.handle(book, slot);
            ids.put(idKey, 0, handle);
            if (takerWithClientId)
            {
                clientIndexed(handle, orderBook.accountOf(slot), takerClientHi, takerClientLo);
            }
            changed(book, slot);
            partOut();
        }

        @Override
        public void onTakerDone(final TakerDoneReason reason, final long filledQty, final long remainingQty)
        {
            tape.onTakerDone(reason, filledQty, remainingQty);
            partOut();
        }

        @Override
        public void onLevelChanged(final Side side, final long price, final long newLevelQty, final int orderCount)
        {
            tape.onLevelChanged(side, price, newLevelQty, orderCount);
            partOut();
        }

        private void partOut()
        {
            if (tape.length() > PART_BYTES)
            {
                publish(ShardTicket.TAPE_PART);
            }
        }
    }
}
