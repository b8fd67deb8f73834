package io.venue.engine;

import io.venue.action.Side;
import io.venue.action.TimeInForce;
import io.venue.engine.book.OrderBook;
import io.venue.engine.book.PlaceRequest;
import io.venue.engine.book.PlaceResult;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.market.MarketKind;
import io.venue.engine.market.Markets;
import io.venue.engine.risk.Notional;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.BatchDecoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.LegType;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MergeDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.SplitDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The trading actions: place, cancel, amend, cancel by client order id, cancel all, batch, split, merge.
 * Each validates against the market's rules and the account's credit, then drives the book through
 * {@link Settlement}. A refusal after the gate is an ActionRejected (with the leg index inside a batch)
 * and changes nothing but the consumed nonce.
 */
final class OrderEntry
{
    private static final long OUTCOME_PRICE_LIMIT = Notional.SCALE;

    private final ShardState state;
    private final Gate gate;
    private final Settlement settlement;
    private final PlaceIntent intent = new PlaceIntent();
    private final PlaceRequest request = new PlaceRequest();
    private final byte[] legId = new byte[32];
    private final UnsafeBuffer legIdBuffer = new UnsafeBuffer(legId);
    private final UnsafeBuffer clientIdScratch = new UnsafeBuffer(new byte[16]);
    /** The order id or client order id a cancel or amend leg names, copied out of the group. */
    private final byte[] legTarget = new byte[32];
    private final UnsafeBuffer legTargetBuffer = new UnsafeBuffer(legTarget);
    private final IntArrayList handles = new IntArrayList();
    private final CrossShardCredit crossShardCredit;
    private final AmendSteps amendSteps;

    private long nowMs;
    /** Whether the command's journal version keeps an amended order's fills when it enters again (JournalRecords). */
    private boolean keepsFilled = true;
    /**
     * Set by a pipeline's credit stage while it admits a place ({@link ShardPipeline}): the checks read its group
     * view, and an admitted order is handed to the pipeline instead of the book.
     */
    private ShardPipeline forwardTo;
    /** What the checks read: the live state, or the pipeline's group view while it admits. */
    private final OrderChecks live;
    private OrderChecks checks;

    OrderEntry(final ShardState state, final Gate gate, final Settlement settlement)
    {
        this.state = state;
        this.gate = gate;
        this.settlement = settlement;
        this.crossShardCredit = new CrossShardCredit(state.config);
        this.amendSteps = new AmendSteps(state, settlement);
        this.live = OrderChecks.live(state);
        this.checks = live;
    }

    /** Starts a command stamped {@code nowMs}, a record of schema {@code version}. */
    void command(final long nowMs, final int version)
    {
        this.nowMs = nowMs;
        this.keepsFilled = JournalRecords.keepsFilledOnReentry(version);
    }

    /** Admits {@code place} for a pipeline's matching shard: see {@link #forwardTo}. */
    void admitPlace(final PlaceOrderDecoder place, final ShardPipeline pipeline)
    {
        forwardingTo(pipeline);
        try
        {
            onPlace(place);
        }
        finally
        {
            forwardingTo(null);
        }
    }

    /** Admits {@code amend} for a pipeline's matching shard: see {@link #forwardTo}. */
    void admitAmend(final AmendDecoder amend, final ShardPipeline pipeline)
    {
        forwardingTo(pipeline);
        try
        {
            onAmend(amend);
        }
        finally
        {
            forwardingTo(null);
        }
    }

    /** Admits for {@code pipeline} from now on, or (null) applies at once against the live state. */
    private void forwardingTo(final ShardPipeline pipeline)
    {
        forwardTo = pipeline;
        checks = pipeline == null ? live : pipeline.view();
    }

    void onPlace(final PlaceOrderDecoder place)
    {
        final DirectBuffer buffer = place.buffer();
        final int envelope = place.offset() + PlaceOrderDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_TRADE, nowMs, accountLimited(place.limitClass()));
        if (account < 0)
        {
            return;
        }
        if (gate.refusesSessionMarket(buffer, envelope, place.market()))
        {
            gate.reject(buffer, envelope, account, RejectCode.MARKET_NOT_ALLOWED);
            return;
        }
        final ActionEnvelopeDecoder env = place.envelope();
        intent.marketId = place.market();
        intent.book = place.book();
        // FQN-CLASH: the codec's enum (the action's is imported)
        intent.side = place.side() == io.venue.journal.sbe.Side.NULL_VAL ? null : PlaceIntent.side(place.side());
        intent.price = place.price();
        intent.qty = place.qty();
        intent.stpMode = PlaceIntent.stpMode(place.stpMode());
        // FQN-CLASH: the codec's enum (the action's is imported)
        intent.timeInForce = place.timeInForce() == io.venue.journal.sbe.TimeInForce.NULL_VAL ?
            null : PlaceIntent.timeInForce(place.timeInForce());
        intent.isMarket = place.isMarket() == BooleanType.TRUE;
        intent.reduceOnly = place.reduceOnly() == BooleanType.TRUE;
        intent.expiresAt = place.expiresAt();
        intent.idBuffer = buffer;
        intent.idOffset = envelope + ActionEnvelopeDecoder.digestEncodingOffset();
        intent.withClientId = env.hasClientOrderId() == BooleanType.TRUE;
        final int clientOffset = envelope + ActionEnvelopeDecoder.clientOrderIdEncodingOffset();
        intent.clientHi = intent.withClientId ? buffer.getLong(clientOffset, ByteOrder.BIG_ENDIAN) : 0;
        intent.clientLo = intent.withClientId ? buffer.getLong(clientOffset + 8, ByteOrder.BIG_ENDIAN) : 0;
        final RejectCode refusal = place(account, true, buffer, envelope, -1);
        if (refusal != null)
        {
            gate.reject(buffer, envelope, account, refusal);
        }
    }

    void onCancel(final CancelDecoder cancel)
    {
        final DirectBuffer buffer = cancel.buffer();
        final int envelope = cancel.offset() + CancelDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_CANCEL, nowMs, accountLimited(cancel.limitClass()));
        if (account < 0)
        {
            return;
        }
        final int handle = ownOrder(account, buffer, cancel.offset() + CancelDecoder.orderIdEncodingOffset());
        if (handle < 0)
        {
            gate.reject(buffer, envelope, account, RejectCode.UNKNOWN_ORDER);
            return;
        }
        state.events.actionAccepted(buffer, envelope);
        cancelHandle(handle);
    }

    void onCancelByClientOrderId(final CancelByClientOrderIdDecoder cancel)
    {
        final DirectBuffer buffer = cancel.buffer();
        final int envelope = cancel.offset() + CancelByClientOrderIdDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_CANCEL, nowMs, accountLimited(cancel.limitClass()));
        if (account < 0)
        {
            return;
        }
        final int handle = state.orders.findByClientId(
            account, buffer, cancel.offset() + CancelByClientOrderIdDecoder.clientOrderIdEncodingOffset());
        if (handle == FixedKeyIndex.MISSING)
        {
            gate.reject(buffer, envelope, account, RejectCode.UNKNOWN_ORDER);
            return;
        }
        state.events.actionAccepted(buffer, envelope);
        cancelHandle(handle);
    }

    void onAmend(final AmendDecoder amend)
    {
        final DirectBuffer buffer = amend.buffer();
        final int envelope = amend.offset() + AmendDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_TRADE, nowMs, accountLimited(amend.limitClass()));
        if (account < 0)
        {
            return;
        }
        final RejectCode refusal = amend(account, buffer, amend.offset() + AmendDecoder.orderIdEncodingOffset(),
            amend.price(), amend.qty(), true, buffer, envelope);
        if (refusal != null)
        {
            gate.reject(buffer, envelope, account, refusal);
        }
    }

    /**
     * Whether the per-account action limiter counts a command of this limit class: not one of class MM, whose windows
     * were charged before the journal.
     */
    static boolean accountLimited(final LimitClass limitClass)
    {
        return limitClass != LimitClass.MM;
    }

    void onCancelAll(final CancelAllDecoder cancelAll)
    {
        final DirectBuffer buffer = cancelAll.buffer();
        final int envelope = cancelAll.offset() + CancelAllDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_CANCEL, nowMs);
        if (account < 0)
        {
            return;
        }
        int market = -1;
        if (cancelAll.allMarkets() != BooleanType.TRUE)
        {
            market = state.markets.find(cancelAll.market());
            if (market == Markets.MISSING)
            {
                gate.reject(buffer, envelope, account, RejectCode.UNKNOWN_MARKET);
                return;
            }
        }
        state.events.actionAccepted(buffer, envelope);
        cancelAll(account, market, JournalRecords.reportsCancelAll(state.events.version()) ?
            OrderDoneReason.CANCELLED_ALL : OrderDoneReason.CANCELLED);
    }

    void onBatch(final BatchDecoder batch)
    {
        final DirectBuffer buffer = batch.buffer();
        final int envelope = batch.offset() + BatchDecoder.envelopeEncodingOffset();
        // the scope of a batch is the union of its legs' scopes; the legs are read twice, decoders are cheap
        int scope = 0;
        final int limit = batch.limit();
        for (final BatchDecoder.LegsDecoder leg : batch.legs())
        {
            scope |= leg.legType() == LegType.CANCEL || leg.legType() == LegType.CANCEL_BY_CLIENT_ORDER_ID ?
                Gate.SCOPE_CANCEL : Gate.SCOPE_TRADE;
        }
        batch.limit(limit);
        final int account = gate.admit(buffer, envelope, scope, nowMs);
        if (account < 0)
        {
            return;
        }
        state.events.actionAccepted(buffer, envelope);
        int index = 0;
        for (final BatchDecoder.LegsDecoder leg : batch.legs())
        {
            final RejectCode refusal = leg(account, leg, index, buffer, envelope);
            if (refusal != null)
            {
                gate.rejectLeg(buffer, envelope, account, refusal, index);
            }
            index++;
        }
    }

    /**
     * The MM cancel-replace (spec 5.3): the order named is cancelled (leg 0), then the new order placed (leg 1) under
     * the EIP-712 Order hash as its id, as a two-leg batch: a refusal of one leg does not undo the other. The agent
     * scope is quote (spec 2.6), and the MM windows count it before the journal, not the per-account action limiter.
     */
    void onCancelReplace(final CancelReplaceDecoder replace)
    {
        final DirectBuffer buffer = replace.buffer();
        final int envelope = replace.offset() + CancelReplaceDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_QUOTE, nowMs, false);
        if (account < 0)
        {
            return;
        }
        state.events.actionAccepted(buffer, envelope);
        final int handle = ownOrder(account, buffer,
            replace.offset() + CancelReplaceDecoder.cancelOrderIdEncodingOffset());
        if (handle < 0)
        {
            gate.rejectLeg(buffer, envelope, account, RejectCode.UNKNOWN_ORDER, 0);
        }
        else
        {
            cancelHandle(handle);
        }
        // the EIP-712 expiry is in seconds; 0 is none
        final long expiry = replace.expiry();
        if (expiry < 0 || expiry > Long.MAX_VALUE / 1000)
        {
            gate.rejectLeg(buffer, envelope, account, RejectCode.INVALID_ACTION, 1);
            return;
        }
        intent.marketId = replace.market();
        intent.book = replace.book();
        // FQN-CLASH: the codec's enum (the action's is imported)
        intent.side = replace.side() == io.venue.journal.sbe.Side.NULL_VAL ? null : PlaceIntent.side(replace.side());
        intent.price = replace.price();
        intent.qty = replace.qty();
        intent.stpMode = null;
        // FQN-CLASH: the codec's enum (the action's is imported)
        intent.timeInForce = replace.timeInForce() == io.venue.journal.sbe.TimeInForce.NULL_VAL ?
            null : PlaceIntent.timeInForce(replace.timeInForce());
        intent.isMarket = false;
        intent.reduceOnly = false;
        intent.expiresAt = expiry == 0 ? -1 : expiry * 1000;
        intent.idBuffer = buffer;
        intent.idOffset = envelope + ActionEnvelopeDecoder.digestEncodingOffset();
        intent.withClientId = false;
        intent.clientHi = 0;
        intent.clientLo = 0;
        final RejectCode refusal = place(account, false, buffer, envelope, 1);
        if (refusal != null)
        {
            gate.rejectLeg(buffer, envelope, account, refusal, 1);
        }
    }

    void onSplit(final SplitDecoder split)
    {
        final int envelope = split.offset() + SplitDecoder.envelopeEncodingOffset();
        splitOrMerge(split.buffer(), envelope, split.market(), split.qty(), true);
    }

    void onMerge(final MergeDecoder merge)
    {
        final int envelope = merge.offset() + MergeDecoder.envelopeEncodingOffset();
        splitOrMerge(merge.buffer(), envelope, merge.market(), merge.qty(), false);
    }

    /**
     * Cancels every open order of an account (or of every account, -1) in a market (or all markets, -1), reporting each
     * with {@code reason}; the count cancelled.
     */
    int cancelAll(final int account, final int market, final OrderDoneReason reason)
    {
        state.events.cancelledAs(reason);
        try
        {
            return cancelAll(account, market);
        }
        finally
        {
            state.events.cancelledAs(OrderDoneReason.CANCELLED);
        }
    }

    /** Cancels every open order of an account (or of every account, -1) in a market (or all markets, -1). */
    int cancelAll(final int account, final int market)
    {
        handles.clear();
        final int firstMarket = market < 0 ? 0 : market;
        final int lastMarket = market < 0 ? state.markets.count() - 1 : market;
        for (int m = firstMarket; m <= lastMarket; m++)
        {
            for (int book = 2 * m; book <= 2 * m + 1; book++)
            {
                final OrderBook orderBook = state.books[book];
                if (orderBook != null)
                {
                    collect(orderBook, book, Side.BID, account);
                    collect(orderBook, book, Side.ASK, account);
                }
            }
        }
        final int n = handles.size();
        for (int i = 0; i < n; i++)
        {
            cancelHandle(handles.getInt(i));
        }
        return n;
    }

    private void collect(final OrderBook orderBook, final int book, final Side side, final int account)
    {
        for (int depth = 0, levels = orderBook.levelCount(side); depth < levels; depth++)
        {
            for (int slot = orderBook.levelHead(side, depth); slot != OrderBook.NULL_SLOT;
                slot = orderBook.nextInLevel(slot))
            {
                if (account < 0 || orderBook.accountOf(slot) == account)
                {
                    handles.addInt(Orders.handle(book, slot));
                }
            }
        }
    }

    private RejectCode leg(
        final int account, final BatchDecoder.LegsDecoder leg, final int index, final DirectBuffer envelopeBuffer,
        final int envelope)
    {
        switch (leg.legType())
        {
            case PLACE ->
            {
                intent.marketId = leg.market();
                intent.book = leg.book();
                // FQN-CLASH: the codec's enum (the action's is imported)
                intent.side = leg.side() == io.venue.journal.sbe.Side.NULL_VAL ? null : PlaceIntent.side(leg.side());
                intent.price = leg.price();
                intent.qty = leg.qty();
                intent.stpMode = PlaceIntent.stpMode(leg.stpMode());
                // FQN-CLASH: the codec's enum (the action's is imported)
                intent.timeInForce = leg.timeInForce() == io.venue.journal.sbe.TimeInForce.NULL_VAL ?
                    null : PlaceIntent.timeInForce(leg.timeInForce());
                intent.isMarket = leg.isMarket() == BooleanType.TRUE;
                intent.reduceOnly = leg.reduceOnly() == BooleanType.TRUE;
                intent.expiresAt = leg.expiresAt();
                // the sequencer derived the leg's order id (docs/SIGNING.md section 5); the engine never hashes
                leg.getOrderId(legId, 0, 32);
                intent.idBuffer = legIdBuffer;
                intent.idOffset = 0;
                intent.withClientId = false;
                intent.clientHi = 0;
                intent.clientLo = 0;
                return place(account, false, envelopeBuffer, envelope, index);
            }
            case CANCEL ->
            {
                leg.getOrderId(legTarget, 0, 32);
                final int handle = ownOrder(account, legTargetBuffer, 0);
                if (handle < 0)
                {
                    return RejectCode.UNKNOWN_ORDER;
                }
                cancelHandle(handle);
                return null;
            }
            case AMEND ->
            {
                leg.getOrderId(legTarget, 0, 32);
                return amend(account, legTargetBuffer, 0, leg.price(), leg.qty(), false, envelopeBuffer, envelope);
            }
            case CANCEL_BY_CLIENT_ORDER_ID ->
            {
                leg.getClientOrderId(legTarget, 0, 16);
                final int handle = state.orders.findByClientId(account, legTargetBuffer, 0);
                if (handle == FixedKeyIndex.MISSING)
                {
                    return RejectCode.UNKNOWN_ORDER;
                }
                cancelHandle(handle);
                return null;
            }
            default ->
            {
                return RejectCode.INVALID_ACTION;
            }
        }
    }

    /** Validates, reserves and places {@link #intent}; null when placed (whatever the book then did). */
    private RejectCode place(
        final int account, final boolean acceptAction, final DirectBuffer envelopeBuffer, final int envelope,
        final int legIndex)
    {
        final Markets markets = state.markets;
        final int market = markets.find(intent.marketId);
        if (market == Markets.MISSING)
        {
            return RejectCode.UNKNOWN_MARKET;
        }
        final int book = bookOf(market, intent.book);
        if (book < 0)
        {
            return RejectCode.BOOK_MISMATCH;
        }
        final RejectCode gating = tradingGate(account, market);
        if (gating != null)
        {
            return gating;
        }
        if (intent.side == null || intent.timeInForce == null ||
            (intent.isMarket && intent.timeInForce == TimeInForce.POST_ONLY))
        {
            return RejectCode.INVALID_ACTION;
        }
        if (!validPrice(market, intent.price))
        {
            return RejectCode.INVALID_PRICE;
        }
        if (!validQty(market, intent.qty))
        {
            return RejectCode.INVALID_QTY;
        }
        final int baseAsset = markets.baseAssetOfBook(book);
        final int quoteAsset = markets.quoteAsset(market);
        if (intent.reduceOnly && (intent.side == Side.BID || intent.qty > checks.holding(account, baseAsset)))
        {
            return RejectCode.REDUCE_ONLY_VIOLATION;
        }
        // an order that cannot rest (IOC, FOK, a market order) never becomes an open order: the limits do not stop it
        if (OrderBook.canRest(intent.isMarket, intent.timeInForce) && atOpenOrderLimit(account, market))
        {
            return RejectCode.OPEN_ORDER_LIMIT;
        }
        if (idInUse() || (intent.withClientId && clientIdInUse(account)))
        {
            return RejectCode.INVALID_ACTION;
        }
        final long reservation = Notional.ofOrder(intent.side, intent.price, intent.qty);
        if (reservation == Notional.TOO_LARGE || levelWouldOverflow(book))
        {
            return RejectCode.INVALID_QTY;
        }
        final int reserveAsset = intent.side == Side.BID ? quoteAsset : baseAsset;

        if (intent.expiresAt != OrderBook.NO_EXPIRY && intent.expiresAt <= nowMs)
        {
            if (forwardTo != null)
            {
                forwardTo.expiredOnArrival(account, book, intent);
                return null;
            }
            // already expired when it arrives: accepted, then done at once, nothing reserved
            settlement.forTaker(book, account, intent.side, intent.price, intent.qty, intent.idBuffer, intent.idOffset,
                0, false, 0, 0, acceptAction, envelopeBuffer, envelope, legIndex);
            settlement.flushAccept();
            state.events.orderDone(intent.idBuffer, intent.idOffset, account, intent.marketId,
                OrderDoneReason.EXPIRED, intent.qty);
            return null;
        }
        // what a fill pays out lands in cells opened now, so no fill ever makes a record beyond the limits
        if (!state.roomForCells(account, baseAsset, quoteAsset))
        {
            return RejectCode.CAPACITY_LIMIT;
        }
        state.ledger.open(account, baseAsset);
        state.ledger.open(account, quoteAsset);
        final RejectCode admission = crossShardAdmission(account, market, reserveAsset, reservation);
        if (admission != null)
        {
            return admission;
        }
        if (forwardTo != null)
        {
            return forwardTo.forwardPlace(account, book, reserveAsset, reservation, intent);
        }
        return enter(account, book, reserveAsset, reservation, acceptAction, envelopeBuffer, envelope, legIndex, 0);
    }

    /**
     * Locks the reservation of {@link #intent}, already validated, and hands it to the book. An amend that
     * re-enters its order comes here directly: its checks were made against the order it replaces, and
     * {@code filledBefore} is what the order filled before, which it keeps (0 for a new order, and for an amend of
     * journal version 4 or 5: {@link AmendSteps#begin}).
     */
    private RejectCode enter(
        final int account,
        final int book,
        final int reserveAsset,
        final long reservation,
        final boolean acceptAction,
        final DirectBuffer envelopeBuffer,
        final int envelope,
        final int legIndex,
        final long filledBefore)
    {
        if (!state.ledger.lock(account, reserveAsset, reservation))
        {
            return RejectCode.RISK_CREDIT_LIMIT;
        }

        settlement.forTaker(book, account, intent.side, intent.price, intent.qty, intent.idBuffer, intent.idOffset,
            reservation,
            intent.withClientId, intent.clientHi, intent.clientLo, acceptAction, envelopeBuffer, envelope, legIndex)
            .reentering(filledBefore);
        request.reset()
            .orderId(intent.idBuffer, intent.idOffset)
            .accountIndex(account)
            .side(intent.side)
            .price(intent.price)
            .qty(intent.qty)
            .filledBefore(filledBefore)
            .timeInForce(intent.timeInForce)
            .stpMode(intent.stpMode)
            .market(intent.isMarket)
            .expiresAt(intent.expiresAt)
            .sequence(state.priority + 1)
            .nowMs(nowMs);
        final RejectCode refused = refusalOf(state.books[book].place(request, settlement));
        if (refused != null)
        {
            state.ledger.unlock(account, reserveAsset, reservation);
            return refused;
        }
        final RejectCode late = settlement.lateReject();
        if (late == null)
        {
            // the priority counter moves only for orders the book took; a late refusal leaves it as it was
            state.priority++;
        }
        return late;
    }

    private RejectCode amend(
        final int account,
        final DirectBuffer idBuffer,
        final int idOffset,
        final long price,
        final long qty,
        final boolean acceptAction,
        final DirectBuffer envelopeBuffer,
        final int envelope)
    {
        if (forwardTo != null)
        {
            return forwardAmend(account, idBuffer, idOffset, price, qty);
        }
        final int handle = ownOrder(account, idBuffer, idOffset);
        if (handle < 0)
        {
            return RejectCode.UNKNOWN_ORDER;
        }
        final int book = Orders.bookOf(handle);
        final int slot = Orders.slotOf(handle);
        final int market = book >>> 1;
        final OrderBook orderBook = state.books[book];
        final Side side = orderBook.sideOf(slot);
        final int reserveAsset = reserveAssetOf(book, side);
        final long newReservation = Notional.ofOrder(side, price, qty);
        final RejectCode early = amendRefusal(account, market, price, qty, newReservation);
        if (early != null)
        {
            return early;
        }
        if (orderBook.levelWouldOverflow(side, price, qty))
        {
            return RejectCode.INVALID_QTY;
        }
        settlement.forBook(book);
        amendSteps.begin(account, handle, reserveAsset, newReservation, orderBook, slot, keepsFilled);
        if (price == orderBook.priceOf(slot) && qty <= orderBook.remainingOf(slot))
        {
            // a smaller quantity at the same price keeps its place in the queue
            if (acceptAction)
            {
                state.events.actionAccepted(envelopeBuffer, envelope);
            }
            final boolean reduced = qty < orderBook.remainingOf(slot);
            if (reduced)
            {
                orderBook.reduceQty(slot, qty, settlement);
            }
            amendSteps.kept(reduced, orderBook, slot, state.markets.id(market));
            return null;
        }
        final RejectCode credit = amendCredit(account, market, reserveAsset, state.orders.reserved(handle),
            newReservation);
        if (credit != null)
        {
            return credit;
        }
        // a new price or a larger quantity loses priority: take the order out and place it again, same id
        if (acceptAction)
        {
            state.events.actionAccepted(envelopeBuffer, envelope);
        }
        if (orderBook.restsWithoutMatching(slot, price))
        {
            // nothing to match or prune: move it in its slot, with the events and state of the general way below
            orderBook.lift(slot, settlement);
            orderBook.restAgain(slot, price, qty, amendSteps.filledBefore(), ++state.priority,
                amendSteps.moved(book, side, price, qty, idBuffer, idOffset, envelopeBuffer, envelope));
            return null;
        }
        intent.marketId = state.markets.id(market);
        intent.book = state.markets.kind(market) == MarketKind.SPOT ? Book.NONE :
            ((book & 1) == 0 ? Book.YES : Book.NO);
        intent.side = side;
        intent.price = price;
        intent.qty = qty;
        intent.stpMode = orderBook.stpModeOf(slot);
        intent.timeInForce = orderBook.timeInForceOf(slot);
        intent.isMarket = false;
        intent.reduceOnly = false;
        intent.expiresAt = orderBook.expiresAtOf(slot);
        orderBook.orderIdInto(slot, legIdBuffer, 0);
        intent.idBuffer = legIdBuffer;
        intent.idOffset = 0;
        amendSteps.leave(orderBook, slot, market);
        intent.withClientId = amendSteps.withClientId();
        intent.clientHi = amendSteps.clientHi();
        intent.clientLo = amendSteps.clientLo();
        orderBook.remove(slot, settlement);
        amendSteps.release();
        // the old order is gone; a refusal of the new one (e.g. post-only would now cross) is reported as its cancel
        amendSteps.reentered(enter(account, book, reserveAsset, newReservation, false, envelopeBuffer, envelope, -1,
            amendSteps.filledBefore()), legIdBuffer, 0, intent.marketId);
        return null;
    }

    /**
     * An amend in a pipeline's admission: judged against the group's view on the order as it was when the view
     * began, and handed to the order's shard, which makes the book's checks and calls ({@code MatchingShard}).
     */
    private RejectCode forwardAmend(final int account, final DirectBuffer idBuffer, final int idOffset,
        final long price, final long qty)
    {
        final GroupView view = forwardTo.view();
        final int handle = view.startHandle(idBuffer, idOffset);
        if (handle == FixedKeyIndex.MISSING)
        {
            return RejectCode.UNKNOWN_ORDER;
        }
        final int book = Orders.bookOf(handle);
        final int market = book >>> 1;
        final Side side = view.startIsBid(handle) ? Side.BID : Side.ASK;
        final int reserveAsset = reserveAssetOf(book, side);
        final long newReservation = Notional.ofOrder(side, price, qty);
        final long oldReserved = view.startReservation(handle);
        final RejectCode early = amendRefusal(account, market, price, qty, newReservation);
        final RejectCode credit = early != null ? null :
            amendCredit(account, market, reserveAsset, oldReserved, newReservation);
        final long headroom = early == null && credit == null ? Math.max(0, newReservation - oldReserved) : 0;
        return forwardTo.forwardAmend(account, book, side, reserveAsset, newReservation, headroom, price, qty, early,
            credit, idOffset);
    }

    /** The refusals of an amend that come before the book's own checks: the trading gate, the price, the quantity. */
    private RejectCode amendRefusal(final int account, final int market, final long price, final long qty,
        final long newReservation)
    {
        final RejectCode gating = tradingGate(account, market);
        if (gating != null)
        {
            return gating;
        }
        if (!validPrice(market, price))
        {
            return RejectCode.INVALID_PRICE;
        }
        if (!validQty(market, qty) || newReservation == Notional.TOO_LARGE)
        {
            return RejectCode.INVALID_QTY;
        }
        return null;
    }

    /**
     * The credit check of an amend that loses its priority: what it adds, if anything, must be admitted and available.
     */
    private RejectCode amendCredit(
        final int account, final int market, final int reserveAsset, final long oldReserved, final long newReservation)
    {
        if (newReservation > oldReserved)
        {
            // what the amend adds is a new reservation for the cross-shard admission (whose kill switch comes first)
            final RejectCode admission = crossShardAdmission(account, market, reserveAsset,
                newReservation - oldReserved);
            if (admission != null)
            {
                return admission;
            }
        }
        return checks.available(account, reserveAsset) + oldReserved < newReservation ?
            RejectCode.RISK_CREDIT_LIMIT : null;
    }

    private int reserveAssetOf(final int book, final Side side)
    {
        return side == Side.BID ? state.markets.quoteAsset(book >>> 1) : state.markets.baseAssetOfBook(book);
    }

    private void splitOrMerge(final DirectBuffer buffer, final int envelope, final long marketId, final long qty,
        final boolean split)
    {
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_MINT_REDEEM, nowMs);
        if (account < 0)
        {
            return;
        }
        final int market = state.markets.find(marketId);
        final RejectCode refusal;
        if (market == Markets.MISSING)
        {
            refusal = RejectCode.UNKNOWN_MARKET;
        }
        else if (state.markets.kind(market) != MarketKind.OUTCOME)
        {
            refusal = RejectCode.BOOK_MISMATCH;
        }
        else
        {
            final RejectCode gating = tradingGate(account, market);
            refusal = gating != null ? gating : !validQty(market, qty) ? RejectCode.INVALID_QTY :
                !state.roomForCells(account, state.markets.quoteAsset(market),
                    state.markets.baseAssetOfBook(2 * market)) ?
                    RejectCode.CAPACITY_LIMIT : convert(account, market, qty, split);
        }
        if (refusal != null)
        {
            gate.reject(buffer, envelope, account, refusal);
            return;
        }
        state.events.actionAccepted(buffer, envelope);
        final int collateral = state.markets.quoteAsset(market);
        settlement.balanceIn(market, account, collateral);
        settlement.balanceIn(market, account, state.markets.baseAssetOfBook(2 * market));
    }

    /** Split: collateral into YES + NO. Merge: YES + NO into collateral. Null when done. */
    private RejectCode convert(final int account, final int market, final long qty, final boolean split)
    {
        final var ledger = state.ledger;
        final int collateral = state.markets.quoteAsset(market);
        final int yes = state.markets.baseAssetOfBook(2 * market);
        final int no = state.markets.baseAssetOfBook(2 * market + 1);
        // every supply stays at most 2^62 (ShardState.supply), so no credit below can overflow: a split may not take
        // the shares' supply past it, nor a merge the collateral's (deposits bound only the collateral's own)
        if (split)
        {
            if (ledger.available(account, collateral) < qty)
            {
                return RejectCode.INSUFFICIENT_BALANCE;
            }
            if (qty > ShardState.MAX_SUPPLY - state.supply[yes] || qty > ShardState.MAX_SUPPLY - state.supply[no])
            {
                return RejectCode.INVALID_QTY;
            }
            ledger.debit(account, collateral, qty);
            ledger.credit(account, yes, qty);
            ledger.credit(account, no, qty);
            state.supply[collateral] -= qty;
            state.supply[yes] += qty;
            state.supply[no] += qty;
            return null;
        }
        if (ledger.available(account, yes) < qty || ledger.available(account, no) < qty)
        {
            return RejectCode.INSUFFICIENT_BALANCE;
        }
        if (qty > ShardState.MAX_SUPPLY - state.supply[collateral])
        {
            return RejectCode.INVALID_QTY;
        }
        ledger.debit(account, yes, qty);
        ledger.debit(account, no, qty);
        ledger.credit(account, collateral, qty);
        state.supply[collateral] += qty;
        state.supply[yes] -= qty;
        state.supply[no] -= qty;
        return null;
    }

    private void cancelHandle(final int handle)
    {
        final int book = Orders.bookOf(handle);
        state.books[book].cancel(Orders.slotOf(handle), settlement.forBook(book));
    }

    /** The handle of the account's open order with this id, or -1 (unknown ids and other accounts' look the same). */
    private int ownOrder(final int account, final DirectBuffer buffer, final int offset)
    {
        final int handle = state.orders.find(buffer, offset);
        if (handle == FixedKeyIndex.MISSING)
        {
            return -1;
        }
        return state.books[Orders.bookOf(handle)].accountOf(Orders.slotOf(handle)) == account ? handle : -1;
    }

    /** Spec 8.6, with several shards and the policy on ({@link CrossShardCredit}); null when admitted or inactive. */
    private RejectCode crossShardAdmission(final int account, final int market, final int asset, final long amount)
    {
        if (!crossShardCredit.active())
        {
            return null;
        }
        long marketLocked = 0;
        final int books = state.markets.kind(market) == MarketKind.SPOT ? 1 : 2;
        for (int book = 2 * market; book < 2 * market + books; book++)
        {
            if (asset == state.markets.quoteAsset(market))
            {
                marketLocked += checks.reservedIn(book, true);
            }
            if (asset == state.markets.baseAssetOfBook(book))
            {
                marketLocked += checks.reservedIn(book, false);
            }
        }
        return crossShardCredit.admit(checks.available(account, asset), checks.locked(account, asset),
            marketLocked, amount);
    }

    private boolean atOpenOrderLimit(final int account, final int market)
    {
        return checks.openOrders(account) >= state.config.maxOpenOrdersPerAccount() ||
            checks.openOrders(account, market) >= state.config.maxOpenOrdersPerAccountAndMarket();
    }

    private boolean idInUse()
    {
        return checks.bookOf(intent.idBuffer, intent.idOffset) != FixedKeyIndex.MISSING;
    }

    private boolean clientIdInUse(final int account)
    {
        clientIdScratch.putLong(0, intent.clientHi, ByteOrder.BIG_ENDIAN);
        clientIdScratch.putLong(8, intent.clientLo, ByteOrder.BIG_ENDIAN);
        return checks.clientBookOf(account, clientIdScratch, 0) != FixedKeyIndex.MISSING;
    }

    /** The refusal of a place the book did not take in (nothing of it happened), or null when it did. */
    static RejectCode refusalOf(final PlaceResult result)
    {
        return switch (result)
        {
            case POOL_EXHAUSTED -> RejectCode.OPEN_ORDER_LIMIT;
            case INVALID -> RejectCode.INVALID_ACTION;
            default -> null;
        };
    }

    /** In a pipeline the book belongs to its shard's thread, which checks the level itself. */
    private boolean levelWouldOverflow(final int book)
    {
        return forwardTo == null && state.books[book].levelWouldOverflow(intent.side, intent.price, intent.qty);
    }

    private RejectCode tradingGate(final int account, final int market)
    {
        if (state.venueKilled || state.accountKilled[account] || state.markets.isKilled(market))
        {
            return RejectCode.KILL_SWITCH;
        }
        return state.markets.isHalted(market) ? RejectCode.MARKET_HALTED : null;
    }

    private int bookOf(final int market, final Book book)
    {
        if (state.markets.kind(market) == MarketKind.SPOT)
        {
            return book == Book.NONE ? 2 * market : -1;
        }
        return book == Book.YES ? 2 * market : book == Book.NO ? 2 * market + 1 : -1;
    }

    private boolean validPrice(final int market, final long price)
    {
        if (price <= 0 || price % state.markets.tickSize(market) != 0)
        {
            return false;
        }
        return state.markets.kind(market) != MarketKind.OUTCOME || price < OUTCOME_PRICE_LIMIT;
    }

    private boolean validQty(final int market, final long qty)
    {
        return qty > 0 && qty % state.markets.lotSize(market) == 0 && qty >= state.markets.minQty(market);
    }
}
