package io.venue.engine;

import io.venue.action.Side;
import io.venue.engine.book.MakerDoneReason;
import io.venue.engine.book.MatchListener;
import io.venue.engine.book.OrderBook;
import io.venue.engine.book.SlotReader;
import io.venue.engine.book.TakerDoneReason;
import io.venue.engine.market.MarketKind;
import io.venue.engine.risk.Notional;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.RejectCode;
import org.agrona.DirectBuffer;

/**
 * Turns what a book did into balances and events. Set up for one book and one incoming order (the
 * taker) before each book call; a book call that has no taker (cancel, expiry) uses {@link #forBook}.
 * <p>
 * Acceptance is written lazily: the events that say an order was accepted (and the lock of its
 * reservation) are written only when the book does something with it, so a post-only or STP-reject order
 * or fill-or-kill order that the book refuses before any fill ends as a plain {@code ActionRejected}.
 */
final class Settlement implements MatchListener
{
    private final ShardState state;
    private final Gate gate;

    private int market;
    private int book;
    private OrderBook orderBook;
    /**
     * Where the callbacks read the slots they name: the book, or the copies of a replayed match ({@link #readingFrom}).
     */
    private SlotReader slots;
    private long marketId;
    private Book bookCode;
    private int baseAsset;
    private int quoteAsset;

    private int takerAccount;
    private Side takerSide;
    private DirectBuffer takerIdBuffer;
    private int takerIdOffset;
    private long takerReserved;
    private boolean takerWithClientId;
    private long takerClientHi;
    private long takerClientLo;
    private long takerPrice;
    private long takerQty;
    /**
     * What the taker's id filled before it entered again (an amend), 0 for a new order: part of its size, not of
     * its quantity.
     */
    private long takerFilledBefore;

    /** The taker is an order moved within its book: it keeps its handle, so resting updates its entry. */
    private boolean takerKeepsHandle;
    private boolean acceptPending;
    private boolean acceptActionToo;
    private DirectBuffer envelopeBuffer;
    private int envelopeOffset;
    private int legIndex;
    private RejectCode lateReject;

    Settlement(final ShardState state, final Gate gate)
    {
        this.state = state;
        this.gate = gate;
    }

    /** Points at a book for calls without an incoming order. */
    Settlement forBook(final int book)
    {
        // a book's market, id, kind and assets never change once it exists: looked up again only for another book
        if (book != this.book || orderBook == null)
        {
            this.book = book;
            this.market = book >>> 1;
            this.orderBook = state.books[book];
            this.marketId = state.markets.id(market);
            this.bookCode = state.markets.kind(market) == MarketKind.SPOT ? Book.NONE :
                ((book & 1) == 0 ? Book.YES : Book.NO);
            this.baseAsset = state.markets.baseAssetOfBook(book);
            this.quoteAsset = state.markets.quoteAsset(market);
        }
        this.slots = orderBook;
        this.acceptPending = false;
        this.takerKeepsHandle = false;
        this.lateReject = null;
        return this;
    }

    /**
     * Makes the callbacks that follow read the slots they name from {@code recorded} instead of the book: for
     * a match made on a matching shard's thread and replayed here after the book moved on. Until the next
     * {@link #forBook} or {@link #forTaker}.
     */
    Settlement readingFrom(final SlotReader recorded)
    {
        this.slots = recorded;
        return this;
    }

    /**
     * Sets up an incoming order whose reservation is already locked; its acceptance events are written at
     * the first thing the book reports.
     */
    Settlement forTaker(
        final int book,
        final int account,
        final Side side,
        final long price,
        final long qty,
        final DirectBuffer idBuffer,
        final int idOffset,
        final long reserved,
        final boolean withClientId,
        final long clientHi,
        final long clientLo,
        final boolean acceptAction,
        final DirectBuffer envelope,
        final int envelopeOffset,
        final int legIndex)
    {
        forBook(book);
        this.takerAccount = account;
        this.takerSide = side;
        this.takerPrice = price;
        this.takerQty = qty;
        this.takerFilledBefore = 0;
        this.takerIdBuffer = idBuffer;
        this.takerIdOffset = idOffset;
        this.takerReserved = reserved;
        this.takerWithClientId = withClientId;
        this.takerClientHi = clientHi;
        this.takerClientLo = clientLo;
        this.acceptPending = true;
        this.acceptActionToo = acceptAction;
        this.envelopeBuffer = envelope;
        this.envelopeOffset = envelopeOffset;
        this.legIndex = legIndex;
        return this;
    }

    /**
     * Marks the taker set up by {@link #forTaker} as an order the book moves in its own slot
     * ({@link OrderBook#restAgain}): it is still registered, so resting only sets its new reservation.
     */
    Settlement keepingHandle()
    {
        this.takerKeepsHandle = true;
        return this;
    }

    /**
     * Marks the taker set up by {@link #forTaker} as an order an amend enters again, which filled {@code filledBefore}
     * before: its acceptance reports that in its size, as the book counts it ({@code PlaceRequest.filledBefore}).
     */
    Settlement reentering(final long filledBefore)
    {
        this.takerFilledBefore = filledBefore;
        return this;
    }

    /** The reject the book decided for the last taker before any fill (post-only, STP reject), or null. */
    RejectCode lateReject()
    {
        return lateReject;
    }

    /** Writes the acceptance of the pending taker now (also used when no book call follows). */
    void flushAccept()
    {
        if (!acceptPending)
        {
            return;
        }
        acceptPending = false;
        if (acceptActionToo)
        {
            state.events.actionAccepted(envelopeBuffer, envelopeOffset);
        }
        state.events.orderAccepted(takerIdBuffer, takerIdOffset, takerAccount, marketId, bookCode,
            Events.side(takerSide), takerPrice, takerFilledBefore + takerQty, takerQty);
        balance(takerAccount, takerSide == Side.BID ? quoteAsset : baseAsset);
    }

    @Override
    public void onTrade(
        final int makerSlot, final int makerAccount, final int takerAccount, final long price, final long qty,
        final long makerRemainingAfter)
    {
        flushAccept();
        // every amount moved here already exists and each asset's supply is below 2^62, so no credit fails
        final long amount = Notional.settle(price, qty);
        final int makerHandle = Orders.handle(book, makerSlot);
        final var ledger = state.ledger;
        if (takerSide == Side.BID)
        {
            ledger.spendLocked(takerAccount, quoteAsset, amount);
            takerReserved -= amount;
            ledger.credit(takerAccount, baseAsset, qty);
            ledger.spendLocked(makerAccount, baseAsset, qty);
            state.orders.reserved(makerHandle, state.orders.reserved(makerHandle) - qty);
            ledger.credit(makerAccount, quoteAsset, amount);
        }
        else
        {
            ledger.spendLocked(takerAccount, baseAsset, qty);
            takerReserved -= qty;
            ledger.credit(takerAccount, quoteAsset, amount);
            ledger.spendLocked(makerAccount, quoteAsset, amount);
            state.orders.reserved(makerHandle, state.orders.reserved(makerHandle) - amount);
            ledger.credit(makerAccount, baseAsset, qty);
        }
        state.events.trade(marketId, bookCode, slots, makerSlot, takerIdBuffer, takerIdOffset, takerAccount, price, qty,
            Events.side(takerSide), makerRemainingAfter);
        balance(makerAccount, baseAsset);
        balance(makerAccount, quoteAsset);
        if (takerAccount != makerAccount)
        {
            balance(takerAccount, baseAsset);
            balance(takerAccount, quoteAsset);
        }
    }

    @Override
    public void onMakerDone(final int slot, final MakerDoneReason reason)
    {
        flushAccept();
        final int handle = Orders.handle(book, slot);
        final int account = slots.accountOf(slot);
        final int asset = slots.sideOf(slot) == Side.BID ? quoteAsset : baseAsset;
        final long reserved = state.orders.reserved(handle);
        final long remaining = slots.remainingOf(slot);
        state.orders.remove(handle, slots.orderIdWord(slot, 0), slots.orderIdWord(slot, 1),
            slots.orderIdWord(slot, 2), slots.orderIdWord(slot, 3), account, market);
        if (reserved > 0)
        {
            state.ledger.unlock(account, asset, reserved);
        }
        state.events.orderDone(slots, slot, marketId, switch (reason)
        {
            case FILLED -> OrderDoneReason.FILLED;
            case CANCELLED_STP -> OrderDoneReason.CANCELLED_STP;
            case EXPIRED -> OrderDoneReason.EXPIRED;
            case PRUNED -> OrderDoneReason.PRUNED;
            case CANCELLED -> OrderDoneReason.CANCELLED;
        }, remaining);
        if (reserved > 0)
        {
            balance(account, asset);
        }
    }

    @Override
    public void onTakerRested(final int slot)
    {
        flushAccept();
        if (takerKeepsHandle)
        {
            state.orders.reserved(Orders.handle(book, slot), takerReserved);
        }
        else
        {
            state.orders.add(Orders.handle(book, slot), slots.orderIdWord(slot, 0), slots.orderIdWord(slot, 1),
                slots.orderIdWord(slot, 2), slots.orderIdWord(slot, 3), takerAccount, market, takerSide == Side.BID,
                takerReserved, takerWithClientId, takerClientHi, takerClientLo);
        }
        state.events.orderRested(slots, slot, marketId, bookCode);
    }

    @Override
    public void onTakerDone(final TakerDoneReason reason, final long filledQty, final long remainingQty)
    {
        final int asset = takerSide == Side.BID ? quoteAsset : baseAsset;
        if (acceptPending && (reason == TakerDoneReason.REJECTED_POST_ONLY || reason == TakerDoneReason.REJECTED_STP ||
            reason == TakerDoneReason.KILLED_FOK || reason == TakerDoneReason.BOOK_FULL))
        {
            // refused before any fill: undo the reservation quietly and report a reject instead
            acceptPending = false;
            state.ledger.unlock(takerAccount, asset, takerReserved);
            takerReserved = 0;
            lateReject = switch (reason)
            {
                case REJECTED_POST_ONLY -> RejectCode.POST_ONLY_WOULD_CROSS;
                case REJECTED_STP -> RejectCode.STP_REJECTED;
                case BOOK_FULL -> RejectCode.OPEN_ORDER_LIMIT;
                default -> RejectCode.FOK_NOT_FILLED;
            };
            return;
        }
        flushAccept();
        if (takerReserved > 0)
        {
            state.ledger.unlock(takerAccount, asset, takerReserved);
            takerReserved = 0;
        }
        state.events.orderDone(takerIdBuffer, takerIdOffset, takerAccount, marketId, switch (reason)
        {
            case FILLED -> OrderDoneReason.FILLED;
            case CANCELLED_IOC -> OrderDoneReason.CANCELLED_IOC;
            case KILLED_FOK -> OrderDoneReason.KILLED_FOK;
            case CANCELLED_STP, REJECTED_STP -> OrderDoneReason.CANCELLED_STP;
            case PRUNED -> OrderDoneReason.PRUNED;
            case BOOK_FULL -> OrderDoneReason.BOOK_FULL;
            case REJECTED_POST_ONLY -> OrderDoneReason.CANCELLED;
        }, remainingQty);
        balance(takerAccount, asset);
    }

    @Override
    public void onLevelChanged(final Side side, final long price, final long newLevelQty, final int orderCount)
    {
        flushAccept();
        state.events.bookDelta(marketId, bookCode, Events.side(side), price, newLevelQty, orderCount);
    }

    /**
     * Writes the account's balance of a ledger asset of the book's market: a BalanceChanged, or a PositionChanged
     * for shares.
     */
    void balance(final int account, final int asset)
    {
        balanceIn(market, account, asset);
    }

    /**
     * As {@link #balance(int, int)} for an asset of a given market (split and merge), leaving the book pointed at as
     * it is.
     */
    void balanceIn(final int market, final int account, final int asset)
    {
        final long publicId = state.assets.publicId(asset);
        final var ledger = state.ledger;
        if (publicId >= 0)
        {
            state.events.balanceChanged(account, publicId, ledger.available(account, asset),
                ledger.locked(account, asset));
            return;
        }
        // shares: the market's YES asset is the base of book 2m, NO of book 2m + 1
        final int yes = state.markets.baseAssetOfBook(2 * market);
        final int no = state.markets.baseAssetOfBook(2 * market + 1);
        state.events.positionChanged(account, state.markets.id(market), ledger.available(account, yes),
            ledger.locked(account, yes), ledger.available(account, no), ledger.locked(account, no));
    }

    void rejectLeg(final RejectCode code)
    {
        gate.rejectLeg(envelopeBuffer, envelopeOffset, takerAccount, code, legIndex);
    }
}
