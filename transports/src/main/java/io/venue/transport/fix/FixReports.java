package io.venue.transport.fix;

import io.venue.codec.Hex;
import io.venue.entry.RejectCodes;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordCursor;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.OrderRestedDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.TradeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;

import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The FIX lane's ExecutionReports, derived from the journals (docs/FIX.md, "Execution reports"): an agent that reads
 * the command journal and the event journal side by side, each command with its events, as the responder does, and
 * keeps every open order's FIX view (its ClOrdID, the credential whose session entered it, what it filled at what
 * average price over its whole life, amends included). Each event that changes an order is one {@link FixReport},
 * handed to {@code deliver} in journal order; the order-entry session of the order's credential and the drop-copy
 * sessions of its account send it. A command is read only once released (journaled, and held by a synchronous
 * standby), as every read of the node. Reports of commands up to {@code deliverAfter} (what the journal held when the
 * node started) only rebuild the views. The views are read by the sessions' threads (status, replace): each view is
 * immutable and replaced whole.
 */
final class FixReports implements Agent
{
    /** The FIX view of one open order. */
    record OrderView(String orderId, String account, long credentialId, String clOrdId, String symbol, char side,
        char ordType, long price, long qty, long cum, BigInteger notional, long leaves)
    {
        /** AvgPx in micro-units: the fills' notional over their quantity, to the nearest micro-unit. */
        long avgPx()
        {
            return cum == 0 ? 0 : notional.add(BigInteger.valueOf(cum / 2)).divide(BigInteger.valueOf(cum))
                .longValue();
        }

        char status()
        {
            return cum == 0 ? '0' : leaves == 0 ? '2' : '1';
        }
    }

    private static final int BATCH = 256;
    /** A report's key: its command's sequence times 2^20 plus its index among the command's reports (capped). */
    private static final int KEY_SHIFT = 20;
    private static final long MAX_INDEX = (1L << KEY_SHIFT) - 1;

    /** Where the reports go: numbered for their sessions ({@link FixSequences}). */
    @FunctionalInterface
    interface Sink
    {
        /** One report, in journal order; {@code replaying}: of the journal as it stood at the start, sent to nobody. */
        void deliver(FixReport report, long reportKey, boolean replaying);

        /** The journal as it stood at the start has been read (once). */
        default void caughtUp()
        {
        }
    }

    private final RecordCursor commands;
    private final RecordCursor events;
    private final LongSupplier released;
    private final long deliverAfter;
    private final int maxOrders;
    private final Sink deliver;
    /** The session NewOrderSingles' ClOrdIDs and their orders' last status (null: not kept). */
    private FixClOrdIds clOrdIds;
    private boolean caughtUp;
    private long reportIndex;
    private final Map<String, OrderView> orders = new ConcurrentHashMap<>();
    private final AtomicLong untracked = new AtomicLong();
    private final AtomicLong derived = new AtomicLong();
    private volatile long readThrough;
    private volatile RuntimeException failure;

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ActionEnvelopeDecoder envelope = new ActionEnvelopeDecoder();
    private final PlaceOrderDecoder place = new PlaceOrderDecoder();
    private final CancelDecoder cancel = new CancelDecoder();
    private final AmendDecoder amend = new AmendDecoder();
    private final CancelAllDecoder cancelAll = new CancelAllDecoder();
    private final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
    private final OrderRestedDecoder rested = new OrderRestedDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final OrderDoneDecoder done = new OrderDoneDecoder();
    private final OrderAmendedDecoder amended = new OrderAmendedDecoder();
    private final ActionRejectedDecoder rejected = new ActionRejectedDecoder();
    private final byte[] id = new byte[32];
    private final byte[] address = new byte[20];
    private final byte[] clientId = new byte[16];

    // the command being read
    private long commandSequence;
    private long commandTimeMs;
    private int commandTemplate;
    private boolean session;
    private long commandCredential;
    private String commandClOrdId;
    private String commandTarget;
    private boolean commandAllMarkets;
    private int commandCancelled;
    private boolean rejectedCommand;
    private String accountOfCommand;
    private final PlaceOrderFields placed = new PlaceOrderFields();

    // the group of events of one command, copied out of the event cursor
    private final ExpandableArrayBuffer group = new ExpandableArrayBuffer(1 << 16);
    private final int[] groupOffsets = new int[1 << 16];
    private int groupCount;
    private int groupLength;
    private long groupSequence;
    private boolean groupReady;
    /** The order being matched in this command (the last accepted) and what of it is still unfilled. */
    private String takerId;
    private long takerLeaves;

    /** A session PlaceOrder's fields, for the reject report (no event carries them). */
    private static final class PlaceOrderFields
    {
        String symbol;
        char side;
        char ordType;
        long price;
        long qty;
    }

    FixReports(final JournalTailer commands, final JournalTailer events, final LongSupplier released,
        final long deliverAfter, final int maxOrders, final Sink deliver)
    {
        this.commands = new RecordCursor(commands);
        this.events = new RecordCursor(events);
        this.released = released;
        this.deliverAfter = deliverAfter;
        this.maxOrders = maxOrders;
        this.deliver = deliver;
    }

    /** Keeps the session orders' ClOrdIDs in {@code ids} (set before the thread starts). */
    FixReports clOrdIds(final FixClOrdIds ids)
    {
        this.clOrdIds = ids;
        return this;
    }

    FixClOrdIds clOrdIds()
    {
        return clOrdIds;
    }

    @Override
    public String roleName()
    {
        return "fix-reports";
    }

    /** The open order's view, or null (not open, or not followed: past {@code maxOrders}). */
    OrderView order(final String orderIdHex)
    {
        return orders.get(orderIdHex);
    }

    /** The last command sequence read whole (its reports handed on). */
    long readThrough()
    {
        return readThrough;
    }

    /** Orders not followed because {@code maxOrders} were open. */
    long untracked()
    {
        return untracked.get();
    }

    /** Reports derived (delivered or not). */
    long derived()
    {
        return derived.get();
    }

    /** Whether the journals could not be read (damaged): the reports stopped, loudly, and the lane goes on. */
    boolean failed()
    {
        return failure != null;
    }

    @Override
    public int doWork()
    {
        if (failure != null)
        {
            return 0;
        }
        try
        {
            final int work = derive();
            if (!caughtUp && (readThrough >= deliverAfter || work == 0 && commandSequence == deliverAfter))
            {
                caughtUp = true;
                deliver.caughtUp();
            }
            return work;
        }
        catch (final RuntimeException ex)
        {
            // a journal this thread cannot read: no more reports (clients see none and ask for status), the sessions
            // and order entry go on; the error handler (the node's log) says where
            failure = ex;
            if (!caughtUp)
            {
                // the sessions go on without reports: their numbers then come from the marks read so far
                caughtUp = true;
                deliver.caughtUp();
            }
            throw ex;
        }
    }

    private int derive()
    {
        int work = 0;
        while (work < BATCH)
        {
            if (commandSequence == 0)
            {
                if (!commands.next(this::onCommand))
                {
                    break;
                }
                work++;
            }
            if (released.getAsLong() < commandSequence)
            {
                break;
            }
            if (JournalRecords.isRefusalAudit(commandTemplate))
            {
                // a refusal or a FIX mark has no events (waiting for them would hold the journal's last record)
                commandDone();
                continue;
            }
            if (!groupReady)
            {
                groupCount = 0;
                groupLength = 0;
                if (!events.next(this::onEvent))
                {
                    break;
                }
                while (events.nextInExcerptHasSequence(groupSequence))
                {
                    events.next(this::onEvent);
                }
                groupReady = true;
                work++;
            }
            if (groupSequence > commandSequence)
            {
                // a command with no events (an audit record, a quiet tick): nothing changed
                commandDone();
                continue;
            }
            groupReady = false;
            if (groupSequence == commandSequence)
            {
                for (int i = 0; i < groupCount; i++)
                {
                    final int offset = groupOffsets[i];
                    apply(offset);
                }
                afterEvents();
            }
            // a group before its command cannot happen in one journal pair; it is read past
            if (groupSequence >= commandSequence)
            {
                commandDone();
            }
        }
        return work;
    }

    private void commandDone()
    {
        readThrough = commandSequence;
        commandSequence = 0;
    }

    private void onCommand(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        header.wrap(buffer, offset);
        commandSequence = JournalRecords.sequence(buffer, offset);
        commandTimeMs = JournalRecords.timestampMs(buffer, offset);
        commandTemplate = header.templateId();
        reportIndex = 0;
        session = false;
        commandCredential = 0;
        commandClOrdId = null;
        commandTarget = null;
        commandCancelled = 0;
        rejectedCommand = false;
        accountOfCommand = null;
        if (!JournalRecords.isSessionOrder(commandTemplate) ||
            header.schemaId() != MessageHeaderDecoder.SCHEMA_ID || !JournalRecords.readsVersion(header.version()))
        {
            return;
        }
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        envelope.wrap(buffer, body + PlaceOrderDecoder.envelopeEncodingOffset());
        if (envelope.signerMatchRaw() != SignerMatch.SESSION_CREDENTIAL.value())
        {
            return;
        }
        session = true;
        envelope.getAccount(address, 0, 20);
        accountOfCommand = "0x" + Hex.toHex(address);
        commandCredential = buffer.getLong(envelope.offset() + ActionEnvelopeDecoder.rawSignerEncodingOffset(),
            ByteOrder.BIG_ENDIAN);
        envelope.getClientOrderId(clientId, 0, 16);
        commandClOrdId = clientOrderId(clientId);
        switch (commandTemplate)
        {
            case PlaceOrderDecoder.TEMPLATE_ID ->
            {
                place.wrap(buffer, body, blockLength, version);
                placed.symbol = FixSymbols.text(place.market(), place.bookRaw());
                placed.side = place.sideRaw() == 0 ? '1' : '2';
                placed.ordType = place.isMarketRaw() == 1 ? '1' : '2';
                placed.price = place.isMarketRaw() == 1 ? FixReport.NONE : place.price();
                placed.qty = place.qty();
                if (clOrdIds != null)
                {
                    clOrdIds.taken(commandCredential, commandClOrdId);
                }
            }
            case CancelDecoder.TEMPLATE_ID ->
            {
                cancel.wrap(buffer, body, blockLength, version).getOrderId(id, 0, 32);
                commandTarget = Hex.toHex(id);
            }
            case AmendDecoder.TEMPLATE_ID ->
            {
                amend.wrap(buffer, body, blockLength, version).getOrderId(id, 0, 32);
                commandTarget = Hex.toHex(id);
            }
            case CancelAllDecoder.TEMPLATE_ID ->
                commandAllMarkets = cancelAll.wrap(buffer, body, blockLength, version).allMarketsRaw() == 1;
            default ->
            {
                // CancelByClientOrderId: the FIX lane does not write it
            }
        }
    }

    private void onEvent(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        groupSequence = JournalRecords.sequence(buffer, offset);
        if (groupCount < groupOffsets.length)
        {
            groupOffsets[groupCount++] = groupLength;
            group.putInt(groupLength, length);
            group.putBytes(groupLength + 4, buffer, offset, length);
            groupLength += 4 + length;
        }
    }

    private void apply(final int at)
    {
        final int offset = at + 4;
        header.wrap(group, offset);
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int block = header.blockLength();
        final int version = header.version();
        final int eventIndex = (int)JournalRecords.eventIndex(group, offset);
        switch (header.templateId())
        {
            case OrderAcceptedDecoder.TEMPLATE_ID -> onAccepted(accepted.wrap(group, body, block, version), eventIndex);
            case OrderRestedDecoder.TEMPLATE_ID -> onRested(rested.wrap(group, body, block, version));
            case TradeDecoder.TEMPLATE_ID -> onTrade(trade.wrap(group, body, block, version), eventIndex);
            case OrderDoneDecoder.TEMPLATE_ID -> onDone(done.wrap(group, body, block, version), eventIndex);
            case OrderAmendedDecoder.TEMPLATE_ID -> onAmended(amended.wrap(group, body, block, version), eventIndex);
            case ActionRejectedDecoder.TEMPLATE_ID -> onRejected(rejected.wrap(group, body, block, version),
                eventIndex);
            default ->
            {
                // balances, positions, books, markets, agents: not an order's report
            }
        }
    }

    private void afterEvents()
    {
        if (session && commandTemplate == CancelAllDecoder.TEMPLATE_ID && !rejectedCommand)
        {
            publish(new FixReport.Builder().msgType('r').to(commandCredential, accountOfCommand)
                .order("MASS-" + commandSequence, commandClOrdId, null)
                .response(commandAllMarkets ? '7' : '1', commandAllMarkets ? '7' : '1', commandCancelled)
                .time(commandTimeMs, commandSequence).build());
        }
        rejectedCommand = false;
        takerId = null;
    }

    private void onAccepted(final OrderAcceptedDecoder event, final int eventIndex)
    {
        event.getOrderId(id, 0, 32);
        final String orderId = Hex.toHex(id);
        event.getAccount(address, 0, 20);
        takerId = orderId;
        takerLeaves = event.remaining();
        final OrderView before = orders.get(orderId);
        if (before != null)
        {
            // an amend that took the order out and entered it again: same id, its fills kept
            final boolean ours = session && commandTemplate == AmendDecoder.TEMPLATE_ID;
            final OrderView after = new OrderView(orderId, before.account(), before.credentialId(),
                ours ? commandClOrdId : before.clOrdId(), before.symbol(), before.side(), before.ordType(),
                event.price(), before.cum() + event.remaining(), before.cum(), before.notional(), event.remaining());
            orders.put(orderId, after);
            publish(report(after, eventIndex, 0, '5', after.status(), ours ? before.clOrdId() : null)
                .build());
            return;
        }
        final boolean ours = session && commandTemplate == PlaceOrderDecoder.TEMPLATE_ID;
        final OrderView view = new OrderView(orderId, "0x" + Hex.toHex(address), ours ? commandCredential : 0,
            ours ? commandClOrdId : null, FixSymbols.text(event.market(), event.bookRaw()),
            event.sideRaw() == 0 ? '1' : '2', ours ? placed.ordType : '2',
            ours && placed.ordType == '1' ? FixReport.NONE : event.price(), event.qty(), event.qty() -
            event.remaining(), BigInteger.ZERO, event.remaining());
        if (orders.size() >= maxOrders)
        {
            untracked.incrementAndGet();
        }
        else
        {
            orders.put(orderId, view);
        }
        publish(report(view, eventIndex, 0, '0', '0', null).build());
    }

    private void onRested(final OrderRestedDecoder event)
    {
        event.getOrderId(id, 0, 32);
        final String orderId = Hex.toHex(id);
        final OrderView view = orders.get(orderId);
        if (view != null)
        {
            orders.put(orderId, with(view, view.price(), view.qty(), view.cum(), view.notional(), event.remaining(),
                view.clOrdId()));
        }
    }

    private void onTrade(final TradeDecoder event, final int eventIndex)
    {
        final long qty = event.qty();
        final long price = event.price();
        event.getMakerOrderId(id, 0, 32);
        fill(Hex.toHex(id), event.makerRemaining(), qty, price, eventIndex, 1);
        event.getTakerOrderId(id, 0, 32);
        final String taker = Hex.toHex(id);
        long leaves = -1;
        if (taker.equals(takerId))
        {
            takerLeaves -= qty;
            leaves = takerLeaves;
        }
        fill(taker, leaves, qty, price, eventIndex, 0);
    }

    private void fill(final String orderId, final long leavesNow, final long qty, final long price,
        final int eventIndex, final int maker)
    {
        final OrderView view = orders.get(orderId);
        if (view == null)
        {
            return;
        }
        final long leaves = leavesNow >= 0 ? leavesNow : Math.max(0, view.leaves() - qty);
        final OrderView after = with(view, view.price(), view.qty(), view.cum() + qty,
            view.notional().add(BigInteger.valueOf(price).multiply(BigInteger.valueOf(qty))), leaves,
            view.clOrdId());
        orders.put(orderId, after);
        publish(report(after, eventIndex, maker, 'F', after.status(), null).fill(qty, price).build());
    }

    private void onDone(final OrderDoneDecoder event, final int eventIndex)
    {
        event.getOrderId(id, 0, 32);
        final String orderId = Hex.toHex(id);
        final OrderView view = orders.remove(orderId);
        final OrderDoneReason reason = event.reason();
        if (session && commandTemplate == CancelAllDecoder.TEMPLATE_ID)
        {
            commandCancelled++;
        }
        if (view == null || reason == OrderDoneReason.FILLED)
        {
            // a fill's report already said filled
            return;
        }
        final boolean expired = reason == OrderDoneReason.EXPIRED;
        final boolean byCancel = session && commandTemplate == CancelDecoder.TEMPLATE_ID && orderId.equals(
            commandTarget);
        final OrderView after = with(view, view.price(), view.qty(), view.cum(), view.notional(), 0,
            byCancel ? commandClOrdId : view.clOrdId());
        publish(report(after, eventIndex, 0, expired ? 'C' : '4', expired ? 'C' : '4',
            byCancel ? view.clOrdId() : null).text(doneText(reason)).build());
    }

    private void onAmended(final OrderAmendedDecoder event, final int eventIndex)
    {
        event.getOrderId(id, 0, 32);
        final String orderId = Hex.toHex(id);
        final OrderView view = orders.get(orderId);
        if (view == null)
        {
            return;
        }
        final boolean ours = session && commandTemplate == AmendDecoder.TEMPLATE_ID;
        final OrderView after = with(view, event.price(), view.cum() + event.remaining(), view.cum(),
            view.notional(), event.remaining(), ours ? commandClOrdId : view.clOrdId());
        orders.put(orderId, after);
        publish(report(after, eventIndex, 0, '5', after.status(), ours ? view.clOrdId() : null).build());
    }

    private void onRejected(final ActionRejectedDecoder event, final int eventIndex)
    {
        if (!session || event.legIndex() != ActionRejectedDecoder.legIndexNullValue())
        {
            return;
        }
        rejectedCommand = true;
        event.getAccount(address, 0, 20);
        final String account = "0x" + Hex.toHex(address);
        final RejectCode code = event.code();
        final String text = code == null || code == RejectCode.NULL_VAL ? "REJECTED" :
            RejectCodes.wire(code) + ": " + RejectCodes.message(code);
        switch (commandTemplate)
        {
            case PlaceOrderDecoder.TEMPLATE_ID ->
            {
                event.getDigest(id, 0, 32);
                publish(new FixReport.Builder().to(commandCredential, account)
                    .order(Hex.toHex(id), commandClOrdId, null)
                    .exec(execId(eventIndex, 0), '8', '8')
                    .instrument(placed.symbol, placed.side, placed.ordType, placed.price, placed.qty)
                    .quantities(0, 0, 0).time(commandTimeMs, commandSequence).reject(ordRejReason(code)).text(text)
                    .build());
            }
            case CancelDecoder.TEMPLATE_ID, AmendDecoder.TEMPLATE_ID, CancelByClientOrderIdDecoder.TEMPLATE_ID ->
            {
                final OrderView view = commandTarget == null ? null : orders.get(commandTarget);
                publish(new FixReport.Builder().msgType('9').to(commandCredential, account)
                    .order(commandTarget == null ? "NONE" : commandTarget, commandClOrdId,
                        view == null ? null : view.clOrdId())
                    .exec(null, (char)0, view == null ? '8' : view.status())
                    .response(commandTemplate == AmendDecoder.TEMPLATE_ID ? '2' : '1',
                        view == null ? '8' : view.status(), 0)
                    .reject(code == RejectCode.UNKNOWN_ORDER ? 1 : 99).text(text)
                    .time(commandTimeMs, commandSequence).build());
            }
            case CancelAllDecoder.TEMPLATE_ID -> publish(new FixReport.Builder().msgType('r')
                .to(commandCredential, account).order("MASS-" + commandSequence, commandClOrdId, null)
                .response(commandAllMarkets ? '7' : '1', '0', 0).reject(99).text(text)
                .time(commandTimeMs, commandSequence).build());
            default ->
            {
                // not written by the FIX lane
            }
        }
    }

    /** ExecID: the command's sequence times 2^20, plus the event's index times 2, plus 1 for a trade's maker side. */
    private String execId(final int eventIndex, final int maker)
    {
        return Long.toString((commandSequence << 20) + ((long)eventIndex << 1) + maker);
    }

    private FixReport.Builder report(final OrderView view, final int eventIndex, final int maker,
        final char execType, final char status, final String origClOrdId)
    {
        return new FixReport.Builder().to(view.credentialId(), view.account())
            .order(view.orderId(), view.clOrdId(), origClOrdId)
            .exec(execId(eventIndex, maker), execType, status)
            .instrument(view.symbol(), view.side(), view.ordType(), view.price(), view.qty())
            .quantities(view.leaves(), view.cum(), view.avgPx()).time(commandTimeMs, commandSequence);
    }

    private static OrderView with(final OrderView view, final long price, final long qty, final long cum,
        final BigInteger notional, final long leaves, final String clOrdId)
    {
        return new OrderView(view.orderId(), view.account(), view.credentialId(), clOrdId, view.symbol(),
            view.side(), view.ordType(), view.ordType() == '1' ? FixReport.NONE : price, qty, cum, notional, leaves);
    }

    private void publish(final FixReport report)
    {
        derived.incrementAndGet();
        if (clOrdIds != null && report.credentialId != 0 && report.clOrdId != null && report.msgType == '8')
        {
            clOrdIds.status(report.credentialId, report.clOrdId, report.ordStatus, report.cumQty, report.avgPx);
            if (report.origClOrdId != null)
            {
                // a cancel's or replace's report names the NewOrderSingle's ClOrdID as the original
                clOrdIds.status(report.credentialId, report.origClOrdId, report.ordStatus, report.cumQty,
                    report.avgPx);
            }
        }
        final long key = (commandSequence << KEY_SHIFT) + Math.min(reportIndex++, MAX_INDEX);
        deliver.deliver(report, key, commandSequence <= deliverAfter);
    }

    /** Text(58) of a cancel or expiry: why the order left the book (docs/FIX.md). */
    static String doneText(final OrderDoneReason reason)
    {
        return switch (reason)
        {
            case CANCELLED -> "cancelled: client";
            case EXPIRED -> "expired: ExpireTime reached";
            case CANCELLED_DISCONNECT -> "cancelled: cancel_on_disconnect";
            case CANCELLED_DEAD_MAN -> "cancelled: dead_man";
            case CANCELLED_ALL -> "cancelled: cancel_all";
            case CANCELLED_STP -> "cancelled: self_trade_prevention";
            case CANCELLED_IOC -> "cancelled: ioc_remainder";
            case KILLED_FOK -> "cancelled: fok_not_filled";
            case REPLACED -> "cancelled: replaced";
            case BOOK_FULL -> "cancelled: book_full";
            case PRUNED -> "cancelled: pruned";
            default -> "cancelled";
        };
    }

    /** OrdRejReason(103) for an engine reject code; Text(58) always carries the code itself. */
    static int ordRejReason(final RejectCode code)
    {
        if (code == null)
        {
            return 99;
        }
        return switch (code)
        {
            case UNKNOWN_MARKET, BOOK_MISMATCH -> 1;
            case MARKET_HALTED, KILL_SWITCH -> 2;
            case RISK_CREDIT_LIMIT, INSUFFICIENT_BALANCE, OPEN_ORDER_LIMIT, RATE_LIMITED, CAPACITY_LIMIT,
                CROSS_SHARD_CREDIT_ACCOUNT_CAP, CROSS_SHARD_CREDIT_MARKET_CAP, CROSS_SHARD_CREDIT_HAIRCUT,
                CROSS_SHARD_CREDIT_KILL_SWITCH -> 3;
            case UNKNOWN_ORDER -> 5;
            case INVALID_QTY -> 13;
            default -> 99;
        };
    }

    /** A ClientOrderId's bytes as the ClOrdID the FIX lane wrote (printable US-ASCII, NUL-padded). */
    static String clientOrderId(final byte[] bytes)
    {
        int length = 0;
        while (length < bytes.length && bytes[length] != 0)
        {
            length++;
        }
        return new String(bytes, 0, length, StandardCharsets.US_ASCII);
    }
}
