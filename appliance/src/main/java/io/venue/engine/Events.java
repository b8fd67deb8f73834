package io.venue.engine;

import io.venue.journal.sbe.ProtectionAction;
import io.venue.journal.sbe.ProtectionChangedEncoder;
import io.venue.journal.sbe.ProtectionKind;

import io.venue.engine.account.Accounts;
import io.venue.engine.book.SlotReader;
import io.venue.journal.sbe.ActionAcceptedEncoder;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.ActionRejectedEncoder;
import io.venue.journal.sbe.AgentChangedEncoder;
import io.venue.journal.sbe.AssetCreatedEncoder;
import io.venue.journal.sbe.BalanceChangedEncoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BookDeltaEncoder;
import io.venue.journal.sbe.BooleanType;
import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.journal.sbe.FixOnboardingChangedEncoder;
import io.venue.journal.sbe.FixRateTier;
import io.venue.journal.sbe.KillSwitchChangedEncoder;
import io.venue.journal.sbe.MarketCreatedEncoder;
import io.venue.journal.sbe.MarketStatus;
import io.venue.journal.sbe.MarketStatusChangedEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.OrderAcceptedEncoder;
import io.venue.journal.sbe.OrderAmendedEncoder;
import io.venue.journal.sbe.OrderDoneEncoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.OrderRestedEncoder;
import io.venue.journal.sbe.PositionChangedEncoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeEncoder;
import io.venue.journal.sbe.VaultOwnerChangedEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Encodes the engine's events as SBE records into one reused buffer and hands each to the sink. Every
 * event carries the sequence of the command that caused it and its index within that command, and is written in the
 * schema version of that command (a version this build reads, all of them laid out alike: JOURNAL-SCHEMA.md, section
 * 9), so a replay of an older journal writes the very bytes its run wrote.
 */
final class Events
{
    private static final int VERSION_OFFSET = MessageHeaderEncoder.versionEncodingOffset();

    private final EventSink sink;
    private final Accounts accounts;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ActionAcceptedEncoder actionAccepted = new ActionAcceptedEncoder();
    private final ActionRejectedEncoder actionRejected = new ActionRejectedEncoder();
    private final OrderAcceptedEncoder orderAccepted = new OrderAcceptedEncoder();
    private final OrderRestedEncoder orderRested = new OrderRestedEncoder();
    private final TradeEncoder trade = new TradeEncoder();
    private final OrderDoneEncoder orderDone = new OrderDoneEncoder();
    private final OrderAmendedEncoder orderAmended = new OrderAmendedEncoder();
    private final BalanceChangedEncoder balanceChanged = new BalanceChangedEncoder();
    private final PositionChangedEncoder positionChanged = new PositionChangedEncoder();
    private final BookDeltaEncoder bookDelta = new BookDeltaEncoder();
    private final MarketCreatedEncoder marketCreated = new MarketCreatedEncoder();
    private final MarketStatusChangedEncoder marketStatusChanged = new MarketStatusChangedEncoder();
    private final AssetCreatedEncoder assetCreated = new AssetCreatedEncoder();
    private final KillSwitchChangedEncoder killSwitchChanged = new KillSwitchChangedEncoder();
    private final AgentChangedEncoder agentChanged = new AgentChangedEncoder();
    private final VaultOwnerChangedEncoder vaultOwnerChanged = new VaultOwnerChangedEncoder();
    private final ProtectionChangedEncoder protectionChanged = new ProtectionChangedEncoder();
    private final FixOnboardingChangedEncoder fixOnboardingChanged = new FixOnboardingChangedEncoder();
    /** The reason a resting order cancelled on request is reported with: CANCELLED but during a sweep or CancelAll. */
    private OrderDoneReason cancelledAs = OrderDoneReason.CANCELLED;

    private long sequence;
    private int eventIndex;
    /** The schema version of the current command, which its events are written in. */
    private int version = MessageHeaderEncoder.SCHEMA_VERSION;

    /**
     * Reads an account's limiter and nonce window for the ActionAccepted and ActionRejected that report them: the
     * gate's state, read when such an event is written rather than copied at every step of the gate.
     */
    interface AccountLimits
    {
        /** Whole actions the account's limiter holds at {@code nowMs}; the full limit for -1 (an account not seen). */
        long rateRemaining(int account, long nowMs);

        /** Milliseconds until the account's limiter is full at {@code nowMs}; 0 for -1. */
        long rateResetMs(int account, long nowMs);

        long nonceFloor(int account);

        long nextUsableNonce(int account);
    }

    private AccountLimits limits;
    /** The account whose limiter this command's events report, -1 for a full bucket; and the command's time. */
    private int rateAccount;
    private long rateNowMs;
    /** The account whose nonce window this command's ActionAccepted reports, -1 for none. */
    private int nonceAccount;

    /** Tells the sink that the current command's events are complete. */
    void commandEnd()
    {
        sink.onCommandEnd();
    }

    /** Tells the sink to write every event it holds. */
    void flush()
    {
        sink.flush();
    }

    Events(final EventSink sink, final Accounts accounts)
    {
        this.sink = sink;
        this.accounts = accounts;
    }

    /** The schema version of the current command: what the engine does with some commands depends on it. */
    int version()
    {
        return version;
    }

    /** Starts the events of one command, a record of schema {@code version}. */
    void command(final long sequence, final int version)
    {
        this.sequence = sequence;
        this.version = version;
        this.eventIndex = 0;
        this.rateAccount = -1;
        this.nonceAccount = -1;
    }

    void limits(final AccountLimits limits)
    {
        this.limits = limits;
    }

    /** This command's ActionAccepted reports the nonce window of {@code account} (after its nonce was consumed). */
    void nonceOf(final int account)
    {
        nonceAccount = account;
    }

    /** This command's ActionAccepted and ActionRejected report the limiter of {@code account} (-1: a full bucket). */
    void rateOf(final int account, final long nowMs)
    {
        rateAccount = account;
        rateNowMs = nowMs;
    }

    int rateAccount()
    {
        return rateAccount;
    }

    long rateNowMs()
    {
        return rateNowMs;
    }

    int nonceAccount()
    {
        return nonceAccount;
    }

    /** Hands on an event another writer encoded for the current command (its index already in it) and counts it. */
    void emitCopy(final DirectBuffer event, final int offset, final int length)
    {
        sink.onEvent(event, offset, length);
        eventIndex++;
    }

    /** Events written so far for the current command. */
    int count()
    {
        return eventIndex;
    }

    /** ActionAccepted for the signed action whose envelope is at {@code envelope[offset..)}. */
    void actionAccepted(final DirectBuffer envelope, final int envelopeOffset)
    {
        actionAccepted(envelope, envelopeOffset + ActionEnvelopeDecoder.accountEncodingOffset(),
            envelope.getLong(envelopeOffset + ActionEnvelopeDecoder.nonceEncodingOffset(), ByteOrder.LITTLE_ENDIAN),
            envelope, envelopeOffset + ActionEnvelopeDecoder.digestEncodingOffset());
    }

    void actionAccepted(
        final DirectBuffer accountBuffer, final int accountOffset, final long nonce, final DirectBuffer digestBuffer,
        final int digestOffset)
    {
        actionAccepted.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        actionAccepted.putAccount(accountBuffer, accountOffset, 20);
        actionAccepted.nonce(nonce);
        actionAccepted.putDigest(digestBuffer, digestOffset, 32);
        actionAccepted.rateRemaining(limits.rateRemaining(rateAccount, rateNowMs))
            .rateResetMs(limits.rateResetMs(rateAccount, rateNowMs))
            .nonceFloor(nonceAccount < 0 ? 0 : limits.nonceFloor(nonceAccount))
            .nextUsableNonce(nonceAccount < 0 ? 0 : limits.nextUsableNonce(nonceAccount));
        emit(actionAccepted.encodedLength());
    }

    void actionRejected(
        final DirectBuffer accountBuffer,
        final int accountOffset,
        final long nonce,
        final DirectBuffer digestBuffer,
        final int digestOffset,
        final RejectCode code,
        final long nonceFloor,
        final long nonceWindow,
        final long nextUsableNonce,
        final int legIndex)
    {
        actionRejected.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        actionRejected.putAccount(accountBuffer, accountOffset, 20);
        actionRejected.nonce(nonce);
        actionRejected.putDigest(digestBuffer, digestOffset, 32);
        actionRejected.code(code).nonceFloor(nonceFloor).nonceWindow(nonceWindow).nextUsableNonce(nextUsableNonce)
            .legIndex(legIndex < 0 ? ActionRejectedEncoder.legIndexNullValue() : legIndex)
            .rateRemaining(limits.rateRemaining(rateAccount, rateNowMs))
            .rateResetMs(limits.rateResetMs(rateAccount, rateNowMs));
        emit(actionRejected.encodedLength());
    }

    /**
     * {@code qty} is the order's size, {@code remaining} what enters matching: less by what an amended order
     * filled before.
     */
    void orderAccepted(
        final DirectBuffer orderId,
        final int orderIdOffset,
        final int account,
        final long market,
        final Book book,
        final Side side,
        final long price,
        final long qty,
        final long remaining)
    {
        orderAccepted.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        orderAccepted.putOrderId(orderId, orderIdOffset, 32);
        accounts.addressInto(account, buffer, orderAccepted.offset() + OrderAcceptedEncoder.accountEncodingOffset());
        orderAccepted.market(market).book(book).side(side).price(price).qty(qty).remaining(remaining);
        emit(orderAccepted.encodedLength());
    }

    void orderRested(final SlotReader orderBook, final int slot, final long market, final Book book)
    {
        orderRested.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        orderBook.orderIdInto(slot, buffer, orderRested.offset() + OrderRestedEncoder.orderIdEncodingOffset());
        accounts.addressInto(orderBook.accountOf(slot), buffer,
            orderRested.offset() + OrderRestedEncoder.accountEncodingOffset());
        orderRested.market(market).book(book).side(side(orderBook.sideOf(slot))).price(orderBook.priceOf(slot))
            .qty(orderBook.originalQtyOf(slot)).remaining(orderBook.remainingOf(slot));
        emit(orderRested.encodedLength());
    }

    void trade(
        final long market,
        final Book book,
        final SlotReader orderBook,
        final int makerSlot,
        final DirectBuffer takerOrderId,
        final int takerOrderIdOffset,
        final int takerAccount,
        final long price,
        final long qty,
        final Side takerSide,
        final long makerRemaining)
    {
        trade.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        trade.market(market).book(book);
        orderBook.orderIdInto(makerSlot, buffer, trade.offset() + TradeEncoder.makerOrderIdEncodingOffset());
        accounts.addressInto(orderBook.accountOf(makerSlot), buffer,
            trade.offset() + TradeEncoder.makerAccountEncodingOffset());
        trade.putTakerOrderId(takerOrderId, takerOrderIdOffset, 32);
        accounts.addressInto(takerAccount, buffer, trade.offset() + TradeEncoder.takerAccountEncodingOffset());
        trade.price(price).qty(qty).takerSide(takerSide).makerRemaining(makerRemaining);
        emit(trade.encodedLength());
    }

    /** An order done while resting: its id and account are read from the book. */
    void orderDone(final SlotReader orderBook, final int slot, final long market, final OrderDoneReason reason,
        final long remaining)
    {
        orderDone.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        orderBook.orderIdInto(slot, buffer, orderDone.offset() + OrderDoneEncoder.orderIdEncodingOffset());
        accounts.addressInto(orderBook.accountOf(slot), buffer,
            orderDone.offset() + OrderDoneEncoder.accountEncodingOffset());
        orderDone.market(market).reason(reason == OrderDoneReason.CANCELLED ? cancelledAs : reason)
            .remaining(remaining);
        emit(orderDone.encodedLength());
    }

    /**
     * Until the next call, resting orders cancelled on request are reported with {@code reason} (a protective sweep,
     * a CancelAll of version 12); {@code CANCELLED} puts it back.
     */
    void cancelledAs(final OrderDoneReason reason)
    {
        cancelledAs = reason;
    }

    /** A protection changed ({@link Protections}); the market {@code -1} is every market. */
    void protectionChanged(final ProtectionKind kind, final ProtectionAction action, final DirectBuffer accountBuffer,
        final int accountOffset, final long market, final long session, final long credential, final long deadline,
        final int cancelled)
    {
        protectionChanged.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        protectionChanged.kind(kind).action(action).putAccount(accountBuffer, accountOffset, 20)
            .market(market < 0 ? 0 : market).allMarkets(market < 0 ? BooleanType.TRUE : BooleanType.FALSE)
            .sessionId(session);
        buffer.putLong(protectionChanged.offset() + ProtectionChangedEncoder.credentialIdEncodingOffset(), credential,
            ByteOrder.BIG_ENDIAN);
        protectionChanged.deadlineMs(deadline).cancelled(cancelled);
        emit(protectionChanged.encodedLength());
    }

    /** An incoming order done without resting. */
    void orderDone(
        final DirectBuffer orderId, final int orderIdOffset, final int account, final long market,
        final OrderDoneReason reason, final long remaining)
    {
        orderDone.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        orderDone.putOrderId(orderId, orderIdOffset, 32);
        accounts.addressInto(account, buffer, orderDone.offset() + OrderDoneEncoder.accountEncodingOffset());
        orderDone.market(market).reason(reason).remaining(remaining);
        emit(orderDone.encodedLength());
    }

    void orderAmended(
        final SlotReader orderBook, final int slot, final long market, final boolean priorityKept)
    {
        orderAmended.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        orderBook.orderIdInto(slot, buffer, orderAmended.offset() + OrderAmendedEncoder.orderIdEncodingOffset());
        accounts.addressInto(orderBook.accountOf(slot), buffer,
            orderAmended.offset() + OrderAmendedEncoder.accountEncodingOffset());
        orderAmended.market(market).price(orderBook.priceOf(slot)).qty(orderBook.originalQtyOf(slot))
            .remaining(orderBook.remainingOf(slot)).priorityKept(priorityKept ? BooleanType.TRUE : BooleanType.FALSE);
        emit(orderAmended.encodedLength());
    }

    void balanceChanged(final int account, final long assetId, final long available, final long locked)
    {
        balanceChanged.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        accounts.addressInto(account, buffer, balanceChanged.offset() + BalanceChangedEncoder.accountEncodingOffset());
        balanceChanged.asset(assetId).available(available).locked(locked);
        emit(balanceChanged.encodedLength());
    }

    void positionChanged(
        final int account, final long market, final long yes, final long yesLocked, final long no, final long noLocked)
    {
        positionChanged.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        accounts.addressInto(account, buffer,
            positionChanged.offset() + PositionChangedEncoder.accountEncodingOffset());
        positionChanged.market(market).yes(yes).yesLocked(yesLocked).no(no).noLocked(noLocked);
        emit(positionChanged.encodedLength());
    }

    void bookDelta(final long market, final Book book, final Side side, final long price, final long levelQty,
        final int orderCount)
    {
        bookDelta.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        bookDelta.market(market).book(book).side(side).price(price).levelQty(levelQty).orderCount(orderCount);
        emit(bookDelta.encodedLength());
    }

    MarketCreatedEncoder marketCreated()
    {
        marketCreated.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        return marketCreated;
    }

    void emitMarketCreated()
    {
        emit(marketCreated.encodedLength());
    }

    void marketStatusChanged(final long market, final MarketStatus status)
    {
        marketStatusChanged.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        marketStatusChanged.market(market).status(status);
        emit(marketStatusChanged.encodedLength());
    }

    void assetCreated(final long asset, final DirectBuffer symbol, final int symbolOffset)
    {
        assetCreated.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        assetCreated.asset(asset);
        buffer.putBytes(assetCreated.offset() + AssetCreatedEncoder.symbolEncodingOffset(), symbol, symbolOffset,
            AssetCreatedEncoder.symbolLength());
        emit(assetCreated.encodedLength());
    }

    KillSwitchChangedEncoder killSwitchChanged()
    {
        killSwitchChanged.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        return killSwitchChanged;
    }

    void emitKillSwitchChanged()
    {
        emit(killSwitchChanged.encodedLength());
    }

    /**
     * Every field zero but the sequence and index: a revocation sets only some, and the scratch buffer holds
     * older events.
     */
    AgentChangedEncoder agentChanged()
    {
        agentChanged.wrapAndApplyHeader(buffer, 0, header);
        buffer.setMemory(agentChanged.offset(), AgentChangedEncoder.BLOCK_LENGTH, (byte)0);
        agentChanged.sequence(sequence).eventIndex(eventIndex++);
        return agentChanged;
    }

    void emitAgentChanged()
    {
        emit(agentChanged.encodedLength());
    }

    void vaultOwnerChanged(final int account, final int owner)
    {
        vaultOwnerChanged.wrapAndApplyHeader(buffer, 0, header).sequence(sequence).eventIndex(eventIndex++);
        accounts.addressInto(account, buffer,
            vaultOwnerChanged.offset() + VaultOwnerChangedEncoder.accountEncodingOffset());
        final int ownerOffset = vaultOwnerChanged.offset() + VaultOwnerChangedEncoder.ownerEncodingOffset();
        if (owner >= 0)
        {
            accounts.addressInto(owner, buffer, ownerOffset);
        }
        else
        {
            buffer.setMemory(ownerOffset, 20, (byte)0);
        }
        vaultOwnerChanged.hasOwner(owner >= 0 ? BooleanType.TRUE : BooleanType.FALSE);
        emit(vaultOwnerChanged.encodedLength());
    }

    /** A credential's FIX onboarding record as the table now holds it, with the account its agent acts for. */
    void fixOnboardingChanged(final FixOnboardingTable table, final int slot, final int account)
    {
        final FixOnboardingChangedEncoder e = fixOnboardingChanged.wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex++);
        final long credential = table.credentialOf(slot);
        for (int i = 0; i < 8; i++)
        {
            e.credentialId(i, (short)((credential >>> (56 - 8 * i)) & 0xFF));
        }
        accounts.addressInto(account, buffer, e.offset() + FixOnboardingChangedEncoder.accountEncodingOffset());
        final int flags = table.flagsOf(slot);
        e.fixEnabled(bool(flags & FixOnboardingTable.FIX)).dropCopy(bool(flags & FixOnboardingTable.DROP_COPY))
            .allMarkets(bool(flags & FixOnboardingTable.ALL_MARKETS)).marketCount((short)table.marketCountOf(slot));
        final int markets = e.offset() + FixOnboardingChangedEncoder.marketsEncodingOffset();
        for (int i = 0; i < FixOnboardingTable.MAX_MARKETS; i++)
        {
            buffer.putInt(markets + 4 * i, i < table.marketCountOf(slot) ? table.marketOf(slot, i) : 0,
                ByteOrder.LITTLE_ENDIAN);
        }
        e.rateTier(FixRateTier.get((short)table.tierOf(slot)))
            .cancelOnDisconnect(bool(flags & FixOnboardingTable.CANCEL_ON_DISCONNECT)).codGraceMs(table.graceOf(slot));
        emit(e.encodedLength());
    }

    private static BooleanType bool(final int bit)
    {
        return bit != 0 ? BooleanType.TRUE : BooleanType.FALSE;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    static Side side(final io.venue.action.Side side) // FQN-CLASH: the action's Side (Side here is the codec's)
    {
        // FQN-CLASH: the action's Side (Side here is the codec's)
        return side == io.venue.action.Side.BID ? Side.BID : Side.ASK;
    }

    private void emit(final int bodyLength)
    {
        buffer.putShort(VERSION_OFFSET, (short)version, ByteOrder.LITTLE_ENDIAN);
        sink.onEvent(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + bodyLength);
    }
}
