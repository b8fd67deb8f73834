package io.venue.engine;

import io.venue.action.Side;
import io.venue.engine.book.MatchTape;
import io.venue.engine.book.OrderBook;
import io.venue.engine.book.PlaceResult;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.limit.TokenBucket;
import io.venue.engine.nonce.NonceWindow;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.tuning.Doorbell;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The engine with several matching shards: the engine's own thread is the credit stage, and each shard's
 * books are driven by a {@link MatchingShard} on a thread of its own.
 * <p>
 * Places, amends, cancels and cancels by client order id go through three steps. <b>Admission</b>, on the engine's
 * thread in sequence order: the gate, the order checks and the credit reservation, against a {@link GroupView} (the
 * credit as it stood when the command's group began, less what the group's orders hold), then a ticket to the
 * market's shard. <b>Matching</b>, on the shard's thread, in sequence order per shard: the book, recorded on a match
 * tape. <b>Settlement</b>, back on the engine's thread in sequence order: the reservation is locked and the tape is
 * replayed through the single-shard {@link Settlement} (and {@link AmendSteps}), which moves the balances and writes
 * the events. The events of one command are therefore contiguous, in command order, whatever the threads' timing.
 * <p>
 * An amend is judged on its order as it stood when the view began; the shard applies that judgement, except that an
 * order whose reservation it changed since (a part fill, a reduce, a move) may grow by no more than admission held
 * for the amend (see {@code MatchingShard}). What admission held stays held until the view ends, whatever the shard
 * decides. An amend of an order placed since the view began is a barrier.
 * <p>
 * Every other command is a <b>barrier</b>: the pipeline drains (every admitted command settled, every shard
 * idle) and the engine applies it on its own thread exactly as with one shard, books included. A barrier, like
 * the first command of a new group, starts a fresh view.
 * <p>
 * Events written during admission (a refusal) are staged and written at settlement; the account's nonce window
 * and limiter are put back as admission left them while its command settles, so the events read what they
 * would have read at once.
 */
final class ShardPipeline implements AutoCloseable
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int INBOUND_BYTES = 1 << 20;
    private static final int OUTBOUND_BYTES = 1 << 22;
    private static final int ENTRIES = 4096;
    private static final byte NOTHING = 0;
    private static final byte PLACE = 1;
    private static final byte CANCEL = 2;
    private static final byte EXPIRED = 3;
    private static final byte AUDIT = 4;
    private static final byte AMEND = 5;
    private static final PlaceResult[] PLACE_RESULTS = PlaceResult.values();
    private static final Side[] SIDES = Side.values();

    /** Told of each command once it is settled, in sequence order, and of each new group. */
    interface Completion
    {
        void completed(long sequence, boolean command);

        /** Everything before is settled and the next command starts a fresh view: the state may be written. */
        void groupStarts();
    }

    private final ShardState state;
    private final Gate gate;
    private final OrderEntry orderEntry;
    private final Settlement settlement;
    private final Completion completion;
    private final int groupCommands;
    private final GroupView view;
    private final Events live;
    private final Events staging;
    private final MatchingShard[] shards;
    private final OneToOneRingBuffer[] inbound;
    private final OneToOneRingBuffer[] outbound;
    private final AgentRunner[] runners;
    /** Rung after each ticket, so a parked shard wakes at once. */
    private final Doorbell[] bells;
    /** Waiting for a shard's answer, which takes microseconds: spin, then yield (a park would take tens of them). */
    private final IdleStrategy waiting = new BackoffIdleStrategy(1_000, Long.MAX_VALUE, 1_000, 1_000);
    private final MatchTape.Replayed replayed = new MatchTape.Replayed();
    private final TapeSettler settler = new TapeSettler();
    private final Orders.Listener barrierIndexing = new BarrierIndexing();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final PlaceOrderDecoder placeOrder = new PlaceOrderDecoder();
    private final CancelDecoder cancel = new CancelDecoder();
    private final CancelByClientOrderIdDecoder cancelByClientId = new CancelByClientOrderIdDecoder();
    private final AmendDecoder amend = new AmendDecoder();
    private final AmendSteps amendSteps;
    private final UnsafeBuffer ticket = new UnsafeBuffer(new byte[ShardTicket.AMEND_LENGTH]);

    /** Command copies, tickets and staged events of the commands in flight; emptied whenever nothing is. */
    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(1 << 16);
    private int bytesTail;
    /** Each admitted command's account's nonce window and limiter words as admission left them. */
    private long[] words = new long[1024];
    private int wordsTail;

    // the commands in flight, a ring of ENTRIES
    private final long[] sequence = new long[ENTRIES];
    /** The schema version of each command's record, which its events are written in. */
    private final int[] recordVersion = new int[ENTRIES];
    private final byte[] kind = new byte[ENTRIES];
    private final int[] shard = new int[ENTRIES];
    private final int[] account = new int[ENTRIES];
    private final int[] envelopeAt = new int[ENTRIES];
    private final int[] idAt = new int[ENTRIES];
    private final int[] stagedAt = new int[ENTRIES];
    private final int[] stagedEnd = new int[ENTRIES];
    private final int[] ticketAt = new int[ENTRIES];
    private final int[] ticketType = new int[ENTRIES];
    private final int[] rateAccount = new int[ENTRIES];
    private final long[] rateNowMs = new long[ENTRIES];
    private final int[] nonceAccount = new int[ENTRIES];
    private final int[] wordsAt = new int[ENTRIES];
    private final int[] book = new int[ENTRIES];
    private final int[] reserveAsset = new int[ENTRIES];
    private final long[] reservation = new long[ENTRIES];
    private final byte[] side = new byte[ENTRIES];
    private final long[] price = new long[ENTRIES];
    private final long[] qty = new long[ENTRIES];
    private final boolean[] withClientId = new boolean[ENTRIES];
    private final long[] clientHi = new long[ENTRIES];
    private final long[] clientLo = new long[ENTRIES];
    private final long[] marketId = new long[ENTRIES];
    private long head;
    private long tail;
    /** The entry being admitted, and its command's stamped time. */
    private int current;
    private long nowMs;

    private long group = Long.MIN_VALUE;
    /**
     * Counts the views: each ticket carries its view's number, by which a shard knows what it changed since the
     * view began.
     */
    private long viewNumber;
    /** Commands admitted since the view was last cleared. */
    private long sinceClear;
    private boolean started;

    ShardPipeline(
        final ShardState state,
        final Gate gate,
        final OrderEntry orderEntry,
        final Settlement settlement,
        final Completion completion)
    {
        this.state = state;
        this.gate = gate;
        this.orderEntry = orderEntry;
        this.settlement = settlement;
        this.completion = completion;
        this.amendSteps = new AmendSteps(state, settlement);
        this.groupCommands = state.config.groupCommands();
        this.view = new GroupView(state);
        this.live = state.events;
        this.staging = new Events(this::stage, state.accounts);
        staging.limits(gate);
        final int count = state.config.shards();
        shards = new MatchingShard[count];
        inbound = new OneToOneRingBuffer[count];
        outbound = new OneToOneRingBuffer[count];
        runners = new AgentRunner[count];
        bells = new Doorbell[count];
        for (int i = 0; i < count; i++)
        {
            bells[i] = new Doorbell();
            inbound[i] = ring(INBOUND_BYTES);
            outbound[i] = ring(OUTBOUND_BYTES);
            shards[i] = new MatchingShard(i, state, inbound[i], outbound[i],
                new BackoffIdleStrategy(100, 10, 1_000, 100_000));
        }
    }

    private static OneToOneRingBuffer ring(final int capacity)
    {
        return new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    GroupView view()
    {
        return view;
    }

    /**
     * Takes a place, an amend, a cancel or a sequencer's audit record (after {@code Engine} checked it is readable).
     *
     * @return false for any other command, and for an amend of an order placed since the view began: the caller
     *         applies it as a barrier ({@link #beginBarrier}).
     */
    boolean submit(final int templateId, final long commandSequence, final long nowMs, final DirectBuffer buffer,
        final int offset, final int length)
    {
        if (templateId != PlaceOrderDecoder.TEMPLATE_ID && templateId != CancelDecoder.TEMPLATE_ID &&
            templateId != CancelByClientOrderIdDecoder.TEMPLATE_ID && templateId != AmendDecoder.TEMPLATE_ID &&
            !JournalRecords.isRefusalAudit(templateId))
        {
            return false;
        }
        start();
        final long commandGroup = commandSequence / groupCommands;
        if (commandGroup != group || tail - head == ENTRIES)
        {
            drain();
            if (commandGroup != group)
            {
                clearView();
                group = commandGroup;
            }
        }
        if (templateId == AmendDecoder.TEMPLATE_ID && amendsOrderOfTheGroup(buffer, offset))
        {
            // admission knows nothing of an order placed in the view: a barrier, once everything before it has settled
            return false;
        }
        sinceClear++;
        final int e = (int)(tail & (ENTRIES - 1));
        current = e;
        sequence[e] = commandSequence;
        recordVersion[e] = buffer.getShort(offset + MessageHeaderDecoder.versionEncodingOffset(), LE) & 0xFFFF;
        kind[e] = JournalRecords.isRefusalAudit(templateId) ? AUDIT : NOTHING;
        final int copyAt = bytesTail;
        bytes.putBytes(copyAt, buffer, offset, length);
        bytesTail += length;
        stagedAt[e] = bytesTail;
        if (kind[e] == NOTHING)
        {
            this.nowMs = nowMs;
            admit(templateId, copyAt);
        }
        stagedEnd[e] = bytesTail;
        tail++;
        if (kind[e] == PLACE || kind[e] == CANCEL || kind[e] == AMEND)
        {
            dispatch(e);
        }
        progress();
        return true;
    }

    private boolean amendsOrderOfTheGroup(final DirectBuffer buffer, final int offset)
    {
        header.wrap(buffer, offset);
        amend.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        return view.admittedInGroup(buffer, amend.offset() + AmendDecoder.orderIdEncodingOffset());
    }

    private void admit(final int templateId, final int copyAt)
    {
        final int e = current;
        header.wrap(bytes, copyAt);
        final int body = copyAt + MessageHeaderDecoder.ENCODED_LENGTH;
        state.events = staging;
        staging.command(sequence[e], recordVersion[e]);
        try
        {
            if (templateId == PlaceOrderDecoder.TEMPLATE_ID)
            {
                placeOrder.wrap(bytes, body, header.blockLength(), header.version());
                envelopeAt[e] = placeOrder.offset() + PlaceOrderDecoder.envelopeEncodingOffset();
                orderEntry.command(nowMs, recordVersion[e]);
                orderEntry.admitPlace(placeOrder, this);
            }
            else if (templateId == CancelDecoder.TEMPLATE_ID)
            {
                cancel.wrap(bytes, body, header.blockLength(), header.version());
                admitCancel();
            }
            else if (templateId == AmendDecoder.TEMPLATE_ID)
            {
                amend.wrap(bytes, body, header.blockLength(), header.version());
                envelopeAt[e] = amend.offset() + AmendDecoder.envelopeEncodingOffset();
                orderEntry.command(nowMs, recordVersion[e]);
                orderEntry.admitAmend(amend, this);
            }
            else
            {
                cancelByClientId.wrap(bytes, body, header.blockLength(), header.version());
                admitCancelByClientId();
            }
        }
        finally
        {
            state.events = live;
        }
        rateAccount[e] = staging.rateAccount();
        rateNowMs[e] = staging.rateNowMs();
        nonceAccount[e] = staging.nonceAccount();
        if (kind[e] != NOTHING)
        {
            capture(e);
        }
    }

    private void admitCancel()
    {
        admitCancel(cancel.offset() + CancelDecoder.envelopeEncodingOffset(),
            OrderEntry.accountLimited(cancel.limitClass()),
            cancel.offset() + CancelDecoder.orderIdEncodingOffset(), false);
    }

    private void admitCancelByClientId()
    {
        admitCancel(cancelByClientId.offset() + CancelByClientOrderIdDecoder.envelopeEncodingOffset(),
            OrderEntry.accountLimited(cancelByClientId.limitClass()),
            cancelByClientId.offset() + CancelByClientOrderIdDecoder.clientOrderIdEncodingOffset(), true);
    }

    /**
     * A cancel naming its order by id, or by the account's client order id (16 bytes, carried where a cancel's ticket
     * has the order id): routed to the shard of the order's book as the group's view knows it, or refused.
     */
    private void admitCancel(final int envelope, final boolean accountLimited, final int keyOffset,
        final boolean byClientId)
    {
        final int e = current;
        envelopeAt[e] = envelope;
        final int admitted = gate.admit(bytes, envelope, Gate.SCOPE_CANCEL, nowMs, accountLimited);
        if (admitted < 0)
        {
            return;
        }
        final int orderBook = byClientId ? view.clientBookOf(admitted, bytes, keyOffset) :
            view.bookOf(bytes, keyOffset);
        if (orderBook == FixedKeyIndex.MISSING)
        {
            gate.reject(bytes, envelope, admitted, RejectCode.UNKNOWN_ORDER);
            return;
        }
        kind[e] = CANCEL;
        account[e] = admitted;
        book[e] = orderBook;
        shard[e] = state.shardOf(orderBook);
        ticketHead(e, orderBook, admitted, bytes, keyOffset);
        keepTicket(e, byClientId ? ShardTicket.CANCEL_BY_CLIENT_ID : ShardTicket.CANCEL);
    }

    /**
     * The last step of admitting a place, from {@link OrderEntry}: the credit check against the group's view,
     * then the hold and the ticket.
     *
     * @return null when handed to the shard, or the refusal.
     */
    RejectCode forwardPlace(final int admitted, final int orderBook, final int asset, final long amount,
        final PlaceIntent intent)
    {
        if (view.available(admitted, asset) < amount)
        {
            return RejectCode.RISK_CREDIT_LIMIT;
        }
        view.hold(admitted, asset, amount);
        view.holdIn(orderBook, intent.side == Side.BID, amount);
        view.admitted(admitted, orderBook >>> 1, orderBook, intent.idBuffer, intent.idOffset, intent.withClientId,
            intent.clientHi, intent.clientLo);
        final int e = current;
        describe(e, admitted, orderBook, intent);
        kind[e] = PLACE;
        reserveAsset[e] = asset;
        reservation[e] = amount;
        // the time priority of the order if it rests; a refused one leaves a gap, which orders nothing
        final long priority = ++state.priority;
        ticketHead(e, orderBook, admitted, intent.idBuffer, intent.idOffset);
        ticket.putByte(ShardTicket.SIDE, (byte)intent.side.ordinal());
        ticket.putByte(ShardTicket.TIME_IN_FORCE, (byte)intent.timeInForce.ordinal());
        ticket.putByte(ShardTicket.STP_MODE,
            intent.stpMode == null ? ShardTicket.NONE : (byte)intent.stpMode.ordinal());
        ticket.putByte(ShardTicket.IS_MARKET, (byte)(intent.isMarket ? 1 : 0));
        ticket.putByte(ShardTicket.WITH_CLIENT_ID, (byte)(intent.withClientId ? 1 : 0));
        ticket.putLong(ShardTicket.CLIENT_HI, intent.clientHi, LE);
        ticket.putLong(ShardTicket.CLIENT_LO, intent.clientLo, LE);
        ticket.putLong(ShardTicket.PRICE, intent.price, LE);
        ticket.putLong(ShardTicket.QTY, intent.qty, LE);
        ticket.putLong(ShardTicket.EXPIRES_AT, intent.expiresAt, LE);
        ticket.putLong(ShardTicket.PRIORITY, priority, LE);
        keepTicket(e, ShardTicket.PLACE);
        return null;
    }

    /**
     * The last step of admitting an amend, from {@link OrderEntry}, which judged it against the group's view: the
     * credit it may add is held ({@code headroom}), and the ticket carries its refusals, if any, for the shard to
     * apply after its own checks, in the single-shard engine's order.
     *
     * @return null: the outcome is the shard's.
     */
    RejectCode forwardAmend(
        final int admitted, final int orderBook, final Side orderSide, final int asset, final long newReservation,
        final long headroom,
        final long newPrice, final long newQty, final RejectCode early, final RejectCode credit, final int idOffset)
    {
        if (headroom > 0)
        {
            view.hold(admitted, asset, headroom);
            view.holdIn(orderBook, orderSide == Side.BID, headroom);
        }
        final int e = current;
        describe(e, admitted, orderBook, idOffset, orderSide, newPrice, newQty);
        kind[e] = AMEND;
        reserveAsset[e] = asset;
        reservation[e] = newReservation;
        // the time priority of the order if it moves; kept or refused, it leaves a gap, which orders nothing
        final long priority = ++state.priority;
        ticketHead(e, orderBook, admitted, bytes, idOffset);
        ticket.putLong(ShardTicket.PRICE, newPrice, LE);
        ticket.putLong(ShardTicket.QTY, newQty, LE);
        ticket.putLong(ShardTicket.PRIORITY, priority, LE);
        ticket.putLong(ShardTicket.NEW_RESERVATION, newReservation, LE);
        ticket.putLong(ShardTicket.HEADROOM, headroom, LE);
        ticket.putInt(ShardTicket.EARLY_REFUSAL, early == null ? ShardTicket.NO_REFUSAL : early.value(), LE);
        ticket.putInt(ShardTicket.CREDIT_REFUSAL, credit == null ? ShardTicket.NO_REFUSAL : credit.value(), LE);
        ticket.putByte(ShardTicket.KEEPS_FILLED, (byte)(keepsFilled(e) ? 1 : 0));
        keepTicket(e, ShardTicket.AMEND);
        return null;
    }

    /** A place admitted with an expiry already past: accepted and done at once at settlement, no shard involved. */
    void expiredOnArrival(final int admitted, final int orderBook, final PlaceIntent intent)
    {
        final int e = current;
        describe(e, admitted, orderBook, intent);
        kind[e] = EXPIRED;
    }

    private void describe(final int e, final int admitted, final int orderBook, final PlaceIntent intent)
    {
        describe(e, admitted, orderBook, intent.idOffset, intent.side, intent.price, intent.qty);
        withClientId[e] = intent.withClientId;
        clientHi[e] = intent.clientHi;
        clientLo[e] = intent.clientLo;
    }

    /** The order a place or an amend names, in the entry: its account, book, id, side, price and quantity. */
    private void describe(
        final int e, final int admitted, final int orderBook, final int idOffset, final Side orderSide,
        final long orderPrice, final long orderQty)
    {
        account[e] = admitted;
        book[e] = orderBook;
        shard[e] = state.shardOf(orderBook);
        idAt[e] = idOffset;
        side[e] = (byte)orderSide.ordinal();
        price[e] = orderPrice;
        qty[e] = orderQty;
        marketId[e] = state.markets.id(orderBook >>> 1);
    }

    /** What every ticket starts with: the command's time, the view, the book, the account and the order id. */
    private void ticketHead(final int e, final int orderBook, final int admitted, final DirectBuffer id,
        final int idOffset)
    {
        ticket.putLong(ShardTicket.NOW_MS, nowMs, LE);
        ticket.putLong(ShardTicket.VIEW, viewNumber, LE);
        ticket.putInt(ShardTicket.BOOK, orderBook, LE);
        ticket.putInt(ShardTicket.ACCOUNT, admitted, LE);
        ticket.putBytes(ShardTicket.ORDER_ID, id, idOffset, 32);
    }

    /** Keeps the ticket written in {@link #ticket} with the entry; it goes out once admission is over. */
    private void keepTicket(final int e, final int type)
    {
        if (stagedAt[e] != bytesTail)
        {
            throw new IllegalStateException("an admitted command has staged events");
        }
        ticketAt[e] = bytesTail;
        ticketType[e] = type;
        bytes.putBytes(bytesTail, ticket, 0, ShardTicket.length(type));
        bytesTail += ShardTicket.length(type);
        stagedAt[e] = bytesTail;
    }

    /** Keeps the admitted account's nonce window and limiter words as admission left them. */
    private void capture(final int e)
    {
        final int need = NonceWindow.WORDS + TokenBucket.WORDS;
        if (wordsTail + need > words.length)
        {
            words = Arrays.copyOf(words, words.length * 2);
        }
        wordsAt[e] = wordsTail;
        System.arraycopy(state.nonceWords, NonceWindow.WORDS * account[e], words, wordsTail, NonceWindow.WORDS);
        System.arraycopy(state.rateWords, TokenBucket.WORDS * account[e], words, wordsTail + NonceWindow.WORDS,
            TokenBucket.WORDS);
        wordsTail += need;
    }

    /** Exchanges the account's live words with the captured ones (twice puts them back). */
    private void swapWords(final int e)
    {
        swap(state.nonceWords, NonceWindow.WORDS * account[e], wordsAt[e], NonceWindow.WORDS);
        swap(state.rateWords, TokenBucket.WORDS * account[e], wordsAt[e] + NonceWindow.WORDS, TokenBucket.WORDS);
    }

    private void swap(final long[] live, final int liveAt, final int keptAt, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final long kept = words[keptAt + i];
            words[keptAt + i] = live[liveAt + i];
            live[liveAt + i] = kept;
        }
    }

    private void stage(final DirectBuffer event, final int offset, final int length)
    {
        bytes.putInt(bytesTail, length, LE);
        bytes.putBytes(bytesTail + 4, event, offset, length);
        bytesTail += 4 + length;
    }

    private void dispatch(final int e)
    {
        final OneToOneRingBuffer ring = inbound[shard[e]];
        while (!ring.write(ticketType[e], bytes, ticketAt[e], ShardTicket.length(ticketType[e])))
        {
            // the shard is behind: settle what it has done meanwhile, which is what frees it
            if (!progress())
            {
                idle();
            }
        }
        waiting.reset();
        bells[shard[e]].ring();
    }

    /**
     * Settles the admitted commands whose shards have started answering, in order, without waiting for a shard
     * that has not.
     *
     * @return whether anything was settled.
     */
    boolean progress()
    {
        boolean settled = false;
        while (head < tail)
        {
            final int e = (int)(head & (ENTRIES - 1));
            final byte what = kind[e];
            if ((what == PLACE || what == CANCEL || what == AMEND) && outbound[shard[e]].size() == 0)
            {
                break;
            }
            settle(e);
            head++;
            settled = true;
        }
        if (head == tail)
        {
            bytesTail = 0;
            wordsTail = 0;
        }
        return settled;
    }

    /** Settles everything admitted: afterwards every shard is idle and the whole state is the engine thread's. */
    void drain()
    {
        while (head < tail)
        {
            if (!progress())
            {
                idle();
            }
        }
        waiting.reset();
    }

    /** Before a barrier command: drained, and the order index changes it makes go to the shards' own indexes. */
    void beginBarrier()
    {
        start();
        drain();
        state.orders.listen(barrierIndexing);
    }

    /** After a barrier command: the next command starts a fresh view. */
    void endBarrier()
    {
        state.orders.listen(view);
        clearView();
    }

    private void clearView()
    {
        view.clear();
        viewNumber++;
        sinceClear = 0;
        completion.groupStarts();
    }

    /**
     * Whether a state that reflects everything up to {@code settled} (drained) can be continued from exactly:
     * nothing admitted since the view was cleared, or {@code settled} ends its group, so the next command starts
     * a fresh view here as it would after a restart.
     */
    boolean atGroupStart(final long settled)
    {
        return head == tail && (sinceClear == 0 || (settled + 1) % groupCommands == 0);
    }

    private void idle()
    {
        for (final MatchingShard matching : shards)
        {
            final Throwable failure = matching.failure();
            if (failure != null)
            {
                throw new IllegalStateException("a matching shard stopped: " + failure, failure);
            }
        }
        waiting.idle();
    }

    private void settle(final int e)
    {
        live.command(sequence[e], recordVersion[e]);
        for (int at = stagedAt[e]; at < stagedEnd[e]; )
        {
            final int length = bytes.getInt(at, LE);
            live.emitCopy(bytes, at + 4, length);
            at += 4 + length;
        }
        final byte what = kind[e];
        if (what != NOTHING && what != AUDIT)
        {
            swapWords(e);
            try
            {
                live.rateOf(rateAccount[e], rateNowMs[e]);
                live.nonceOf(nonceAccount[e]);
                if (what == EXPIRED)
                {
                    settlement.forTaker(book[e], account[e], side(e), price[e], qty[e], bytes, idAt[e], 0, false, 0, 0,
                        true, bytes, envelopeAt[e], -1);
                    settlement.flushAccept();
                    live.orderDone(bytes, idAt[e], account[e], marketId[e], OrderDoneReason.EXPIRED, qty[e]);
                }
                else
                {
                    settleTape(e);
                }
            }
            finally
            {
                swapWords(e);
            }
        }
        live.commandEnd();
        completion.completed(sequence[e], what != AUDIT);
    }

    private void settleTape(final int e)
    {
        final OneToOneRingBuffer ring = outbound[shard[e]];
        settler.entry = e;
        settler.ended = false;
        while (!settler.ended)
        {
            if (ring.read(settler, 1) == 0)
            {
                idle();
            }
        }
        waiting.reset();
    }

    private Side side(final int e)
    {
        return SIDES[side[e]];
    }

    /**
     * Whether entry {@code e}'s command, an amend, keeps the order's fills if it enters it again (its
     * record's version).
     */
    private boolean keepsFilled(final int e)
    {
        return JournalRecords.keepsFilledOnReentry(recordVersion[e]);
    }

    /** Replays one command's tape parts through {@link Settlement}, acting on the shard's marks. */
    private final class TapeSettler implements MessageHandler, MatchTape.Marks
    {
        int entry;
        boolean ended;
        /** The slot of the order an amend names, from its first mark. */
        private int amendSlot;

        @Override
        public void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length)
        {
            if (type == ShardTicket.TAPE_FAILED)
            {
                final Throwable failure = shards[shard[entry]].failure();
                throw new IllegalStateException(
                    "matching shard " + shard[entry] + " failed on sequence " + sequence[entry] +
                    ": " + failure, failure);
            }
            MatchTape.replay(buffer, index, length, replayed, settlement, this);
            ended = type == ShardTicket.TAPE_END;
        }

        @Override
        public void onMark(final int type, final int value)
        {
            final int e = entry;
            switch (type)
            {
                case ShardTicket.MARK_EXPIRY -> settlement.forBook(value).readingFrom(replayed);
                case ShardTicket.MARK_PLACE ->
                {
                    // admission held it against the group's view, which is never above the live balance here
                    if (!state.ledger.lock(account[e], reserveAsset[e], reservation[e]))
                    {
                        throw new IllegalStateException(
                            "the reservation admitted for sequence " + sequence[e] + " cannot be locked");
                    }
                    settlement.forTaker(book[e], account[e], side(e), price[e], qty[e], bytes, idAt[e], reservation[e],
                        withClientId[e], clientHi[e], clientLo[e], true, bytes, envelopeAt[e], -1)
                        .readingFrom(replayed);
                }
                case ShardTicket.MARK_PLACE_RESULT ->
                {
                    final RejectCode refusal = placeRefusal(e, value);
                    if (refusal != null)
                    {
                        gate.reject(bytes, envelopeAt[e], account[e], refusal);
                    }
                }
                case ShardTicket.MARK_LEVEL_OVERFLOW -> gate.reject(bytes, envelopeAt[e], account[e],
                    RejectCode.INVALID_QTY);
                case ShardTicket.MARK_CANCEL ->
                {
                    live.actionAccepted(bytes, envelopeAt[e]);
                    settlement.forBook(value).readingFrom(replayed);
                }
                case ShardTicket.MARK_CANCEL_UNKNOWN, ShardTicket.MARK_AMEND_UNKNOWN ->
                    gate.reject(bytes, envelopeAt[e], account[e], RejectCode.UNKNOWN_ORDER);
                case ShardTicket.MARK_AMEND_REFUSED -> gate.reject(bytes, envelopeAt[e], account[e],
                    RejectCode.get((short)value));
                case ShardTicket.MARK_AMEND_KEEP, ShardTicket.MARK_AMEND_MOVE, ShardTicket.MARK_AMEND_REENTER ->
                {
                    // the slot's copy is the order before the amend's book calls
                    amendSlot = Orders.slotOf(value);
                    live.actionAccepted(bytes, envelopeAt[e]);
                    amendSteps.begin(account[e], value, reserveAsset[e], reservation[e], replayed, amendSlot,
                        keepsFilled(e));
                    if (type == ShardTicket.MARK_AMEND_REENTER)
                    {
                        amendSteps.leave(replayed, amendSlot, book[e] >>> 1);
                    }
                    settlement.forBook(book[e]).readingFrom(replayed);
                }
                case ShardTicket.MARK_AMEND_KEPT -> amendSteps.kept(value != 0, replayed, amendSlot, marketId[e]);
                case ShardTicket.MARK_AMEND_REST ->
                    amendSteps.moved(book[e], side(e), price[e], qty[e], bytes, idAt[e], bytes, envelopeAt[e])
                    .readingFrom(replayed);
                case ShardTicket.MARK_AMEND_PLACE ->
                {
                    amendSteps.release();
                    amendSteps.reenter(book[e], side(e), price[e], qty[e], bytes, idAt[e], bytes, envelopeAt[e])
                        .readingFrom(replayed);
                }
                case ShardTicket.MARK_AMEND_PLACE_RESULT -> amendSteps.reentered(placeRefusal(e, value), bytes,
                    idAt[e], marketId[e]);
                default -> throw new IllegalStateException("unknown tape mark " + type);
            }
        }
    }

    /**
     * How the place of entry {@code e} ended, from its {@code PlaceResult} ordinal: null when the book took it in,
     * else its refusal, its reservation unlocked if the book never saw it (the book's own late refusals unlock it).
     */
    private RejectCode placeRefusal(final int e, final int resultOrdinal)
    {
        final RejectCode refused = OrderEntry.refusalOf(PLACE_RESULTS[resultOrdinal]);
        if (refused == null)
        {
            return settlement.lateReject();
        }
        state.ledger.unlock(account[e], reserveAsset[e], reservation[e]);
        return refused;
    }

    /** During a barrier: keeps each shard's own id index in step with the orders the engine thread moves. */
    private final class BarrierIndexing implements Orders.Listener
    {
        @Override
        public void added(
            final int handle, final long id0, final long id1, final long id2, final long id3, final int owner,
            final int market, final boolean withClient, final long hi, final long lo)
        {
            shards[state.shardOf(Orders.bookOf(handle))].indexed(handle, id0, id1, id2, id3, owner, withClient, hi, lo);
        }

        @Override
        public void removed(
            final int handle, final long id0, final long id1, final long id2, final long id3, final int owner,
            final int market, final boolean withClient, final long hi, final long lo)
        {
            shards[state.shardOf(Orders.bookOf(handle))].unindexed(handle, id0, id1, id2, id3, owner);
        }
    }

    /** On the first command: indexes the orders the state already holds in their shards and starts the threads. */
    private void start()
    {
        if (started)
        {
            return;
        }
        started = true;
        final OrderBook[] books = state.books;
        for (int b = 0; b < books.length; b++)
        {
            final OrderBook orderBook = books[b];
            if (orderBook == null)
            {
                continue;
            }
            for (final Side s : Side.values())
            {
                for (int depth = 0, levels = orderBook.levelCount(s); depth < levels; depth++)
                {
                    for (int slot = orderBook.levelHead(s, depth); slot != OrderBook.NULL_SLOT;
                        slot = orderBook.nextInLevel(slot))
                    {
                        final int handle = Orders.handle(b, slot);
                        shards[state.shardOf(b)].indexed(handle, orderBook.orderIdWord(slot, 0),
                            orderBook.orderIdWord(slot, 1),
                            orderBook.orderIdWord(slot, 2), orderBook.orderIdWord(slot, 3), orderBook.accountOf(slot),
                            state.orders.hasClientId(handle), state.orders.clientIdHi(handle),
                            state.orders.clientIdLo(handle));
                    }
                }
            }
        }
        state.ledger.watch(view);
        state.orders.listen(view);
        for (int i = 0; i < shards.length; i++)
        {
            // a shard's defect is recorded by the shard itself and reported on the engine's thread
            runners[i] = new AgentRunner(state.config.shardIdle().apply(bells[i]), error -> { }, null, shards[i]);
            AgentRunner.startOnThread(runners[i], state.config.shardThreads().apply(i));
        }
    }

    @Override
    public void close()
    {
        for (final MatchingShard matching : shards)
        {
            matching.closing();
        }
        for (final AgentRunner runner : runners)
        {
            if (runner != null)
            {
                runner.close();
            }
        }
    }
}
