package io.venue.feed;

import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.BalanceChangedDecoder;
import io.venue.journal.sbe.KillSwitchChangedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.OrderRestedDecoder;
import io.venue.journal.sbe.PositionChangedDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.TradeDecoder;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The private channels' frames: per command and account at most one frame per channel ({@code orders},
 * {@code fills}, {@code balances}), each a list of updates taken from that command's events alone, so that a
 * resend re-derives the very same frames from the journal. The live instance also keeps each account's open orders,
 * balances and positions for the account read.
 */
final class PrivateDeriver
{
    /** Finds the account an event names: the live feed's (made on first sight, if there is room) or a resend's. */
    interface Accounts
    {
        AccountState find(ByteKey address);

        /**
         * Whether the account's frames are written out in the command that just touched it: a live account nobody
         * subscribes to only numbers them (a resend derives them again from the journal), which spares the feed the
         * text of every account's every change at the ceiling.
         */
        default boolean writesFrames(final AccountState account)
        {
            return true;
        }
    }

    static final String[] NAMES = {"orders", "fills", "balances"};
    static final int ORDERS = 0;
    static final int FILLS = 1;
    static final int BALANCES = 2;

    private static final String[] DONE_REASONS = new String[OrderDoneReason.values().length];
    private static final String[] REJECT_CODES = new String[RejectCode.values().length];

    static
    {
        for (final OrderDoneReason reason : OrderDoneReason.values())
        {
            if (reason != OrderDoneReason.NULL_VAL)
            {
                DONE_REASONS[reason.value()] = reason.name().toLowerCase(Locale.ROOT);
            }
        }
        for (final RejectCode code : RejectCode.values())
        {
            if (code != RejectCode.NULL_VAL)
            {
                REJECT_CODES[code.value()] = code.value() <= RejectCode.RATE_LIMITED.value() ?
                    code.name().toLowerCase(Locale.ROOT) : code.name();
            }
        }
    }

    private final Accounts accounts;
    private final boolean keepViews;
    private final long maxOpenOrders;
    private final List<AccountState> touched = new ArrayList<>();
    private final ByteKey address = new ByteKey(20);
    private final ByteKey orderId = new ByteKey(32);
    private final byte[] bytes = new byte[32];
    private final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
    private final OrderRestedDecoder rested = new OrderRestedDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final OrderDoneDecoder done = new OrderDoneDecoder();
    private final OrderAmendedDecoder amended = new OrderAmendedDecoder();
    private final ActionRejectedDecoder rejected = new ActionRejectedDecoder();
    private final BalanceChangedDecoder balance = new BalanceChangedDecoder();
    private final PositionChangedDecoder position = new PositionChangedDecoder();
    private final KillSwitchChangedDecoder kill = new KillSwitchChangedDecoder();
    /** The order being matched in this command (the last accepted): trades take from its remaining. */
    private final ByteKey takerId = new ByteKey(32);
    private long takerRemaining = -1;
    private long openOrders;
    private long engineSeq;
    private long ts;

    /**
     * @param keepViews     whether to keep the accounts' open orders, balances and positions (the live feed).
     * @param maxOpenOrders open orders followed at most, over every account.
     */
    PrivateDeriver(final Accounts accounts, final boolean keepViews, final long maxOpenOrders)
    {
        this.accounts = accounts;
        this.keepViews = keepViews;
        this.maxOpenOrders = maxOpenOrders;
    }

    void begin(final long engineSeq, final long ts)
    {
        this.engineSeq = engineSeq;
        this.ts = ts;
        takerRemaining = -1;
    }

    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        final int body = offset + JournalRecords.HEADER_LENGTH;
        final int block = header.blockLength();
        final int version = header.version();
        switch (header.templateId())
        {
            case OrderAcceptedDecoder.TEMPLATE_ID:
                accepted.wrap(buffer, body, block, version);
                onAccepted(JournalRecords.eventIndex(buffer, offset));
                break;
            case OrderRestedDecoder.TEMPLATE_ID:
                rested.wrap(buffer, body, block, version);
                onRested();
                break;
            case TradeDecoder.TEMPLATE_ID:
                trade.wrap(buffer, body, block, version);
                onTrade();
                break;
            case OrderDoneDecoder.TEMPLATE_ID:
                done.wrap(buffer, body, block, version);
                onDone();
                break;
            case OrderAmendedDecoder.TEMPLATE_ID:
                amended.wrap(buffer, body, block, version);
                onAmended();
                break;
            case ActionRejectedDecoder.TEMPLATE_ID:
                rejected.wrap(buffer, body, block, version);
                onRejected();
                break;
            case BalanceChangedDecoder.TEMPLATE_ID:
                balance.wrap(buffer, body, block, version);
                onBalance();
                break;
            case PositionChangedDecoder.TEMPLATE_ID:
                position.wrap(buffer, body, block, version);
                onPosition();
                break;
            case KillSwitchChangedDecoder.TEMPLATE_ID:
                kill.wrap(buffer, body, block, version);
                onKill();
                break;
            default:
                break;
        }
    }

    private AccountState account()
    {
        final AccountState account = accounts.find(address.rehash());
        if (null != account && !account.touched)
        {
            account.touched = true;
            account.writing = accounts.writesFrames(account);
            touched.add(account);
        }
        return account;
    }

    /** The builder of the account's next update on the channel, or null when its frames are only numbered. */
    private static JsonBytes update(final AccountState account, final int kind)
    {
        account.updated[kind] = true;
        return account.writing ? account.pending[kind].comma().ch('{') : null;
    }

    private static JsonBytes side(final JsonBytes out, final int side)
    {
        return out.key("side").ascii(side == 0 ? "\"buy\"" : "\"sell\"");
    }

    private static JsonBytes book(final JsonBytes out, final int book)
    {
        if (book != ChannelName.SPOT)
        {
            out.key("book").ascii(book == ChannelName.YES ? "\"YES\"" : "\"NO\"");
        }
        return out;
    }

    private void onAccepted(final long eventIndex)
    {
        accepted.getOrderId(orderId.bytes(), 0, 32);
        orderId.rehash();
        accepted.getOrderId(takerId.bytes(), 0, 32);
        takerId.rehash();
        takerRemaining = accepted.remaining();
        accepted.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, ORDERS);
        if (null != out)
        {
            out.key("event").ascii("\"accepted\"");
            order(out, accepted.market(), accepted.bookRaw(), accepted.sideRaw(), accepted.price(), accepted.qty(),
                accepted.remaining());
        }
        if (keepViews)
        {
            final OpenOrder previous = account.openById.remove(orderId);
            if (null != previous)
            {
                account.openByAge.remove(previous.age);
                openOrders--;
            }
            if (openOrders >= maxOpenOrders)
            {
                account.ordersIncomplete = true;
                return;
            }
            final OpenOrder order = new OpenOrder(orderId.copy(), (engineSeq << 24) + eventIndex, accepted.market(),
                accepted.bookRaw(), accepted.sideRaw());
            order.price = accepted.price();
            order.qty = accepted.qty();
            order.remaining = accepted.remaining();
            account.openById.put(order.id, order);
            account.openByAge.put(order.age, order);
            openOrders++;
        }
    }

    private void order(final JsonBytes out, final long market, final int book, final int side, final long price,
        final long qty, final long remaining)
    {
        out.key("orderId").hex0x(orderId.bytes(), 0, 32);
        out.key("market").num(market);
        book(out, book);
        side(out, side);
        out.key("price").num(price);
        out.key("qty").num(qty);
        out.key("remaining").num(remaining);
        out.ch('}');
    }

    private void onRested()
    {
        rested.getOrderId(orderId.bytes(), 0, 32);
        orderId.rehash();
        rested.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, ORDERS);
        if (null != out)
        {
            out.key("event").ascii("\"rested\"");
            order(out, rested.market(), rested.bookRaw(), rested.sideRaw(), rested.price(), rested.qty(),
                rested.remaining());
        }
        if (keepViews)
        {
            final OpenOrder order = account.openById.get(orderId);
            if (null != order)
            {
                order.price = rested.price();
                order.qty = rested.qty();
                order.remaining = rested.remaining();
            }
        }
    }

    private void onTrade()
    {
        final long market = trade.market();
        final int book = trade.bookRaw();
        final int takerSide = trade.takerSideRaw();
        final long price = trade.price();
        final long qty = trade.qty();

        trade.getMakerOrderId(orderId.bytes(), 0, 32);
        orderId.rehash();
        trade.getMakerAccount(address.bytes(), 0, 20);
        fill(market, book, 1 - takerSide, price, qty, trade.makerRemaining(), true);

        trade.getTakerOrderId(orderId.bytes(), 0, 32);
        orderId.rehash();
        long remaining = -1;
        if (takerRemaining >= 0 && takerId.equals(orderId))
        {
            takerRemaining -= qty;
            remaining = takerRemaining;
        }
        trade.getTakerAccount(address.bytes(), 0, 20);
        fill(market, book, takerSide, price, qty, remaining, false);
    }

    /** One side of a trade: its order's change and its fill; {@code remaining} -1 when the events do not say. */
    private void fill(final long market, final int book, final int side, final long price, final long qty,
        final long remaining, final boolean maker)
    {
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, ORDERS);
        if (null != out)
        {
            out.key("event").ascii(remaining < 0 ? "\"fill\"" : remaining > 0 ? "\"partially_filled\"" : "\"filled\"");
            out.key("orderId").hex0x(orderId.bytes(), 0, 32);
            out.key("market").num(market);
            book(out, book);
            side(out, side);
            out.key("fillPrice").num(price);
            out.key("fillQty").num(qty);
            if (remaining >= 0)
            {
                out.key("remaining").num(remaining);
            }
            out.ch('}');
        }

        final JsonBytes fill = update(account, FILLS);
        if (null != fill)
        {
            fill.key("orderId").hex0x(orderId.bytes(), 0, 32);
            fill.key("market").num(market);
            book(fill, book);
            side(fill, side);
            fill.key("price").num(price);
            fill.key("qty").num(qty);
            fill.key("liquidity").ascii(maker ? "\"maker\"" : "\"taker\"");
            fill.ch('}');
        }

        if (keepViews)
        {
            final OpenOrder order = account.openById.get(orderId);
            if (null != order)
            {
                order.remaining = maker ? remaining : Math.max(0, order.remaining - qty);
            }
        }
    }

    private void onDone()
    {
        done.getOrderId(orderId.bytes(), 0, 32);
        orderId.rehash();
        done.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, ORDERS);
        if (null != out)
        {
            out.key("event").ascii("\"done\"");
            out.key("orderId").hex0x(orderId.bytes(), 0, 32);
            out.key("market").num(done.market());
            final int reason = done.reasonRaw();
            out.key("reason").ch('"').ascii(reason < DONE_REASONS.length && null != DONE_REASONS[reason] ?
                DONE_REASONS[reason] : "unknown").ch('"');
            out.key("remaining").num(done.remaining());
            out.ch('}');
        }
        if (keepViews)
        {
            final OpenOrder order = account.openById.remove(orderId);
            if (null != order)
            {
                account.openByAge.remove(order.age);
                openOrders--;
            }
        }
    }

    private void onAmended()
    {
        amended.getOrderId(orderId.bytes(), 0, 32);
        orderId.rehash();
        amended.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, ORDERS);
        if (null != out)
        {
            out.key("event").ascii("\"amended\"");
            out.key("orderId").hex0x(orderId.bytes(), 0, 32);
            out.key("market").num(amended.market());
            out.key("price").num(amended.price());
            out.key("qty").num(amended.qty());
            out.key("remaining").num(amended.remaining());
            out.key("priorityKept").ascii(amended.priorityKeptRaw() == 1 ? "true" : "false");
            out.ch('}');
        }
        if (keepViews)
        {
            final OpenOrder order = account.openById.get(orderId);
            if (null != order)
            {
                order.price = amended.price();
                order.qty = amended.qty();
                order.remaining = amended.remaining();
            }
        }
    }

    private void onRejected()
    {
        rejected.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, ORDERS);
        if (null != out)
        {
            out.key("event").ascii("\"rejected\"");
            rejected.getDigest(bytes, 0, 32);
            out.key("digest").hex0x(bytes, 0, 32);
            out.key("nonce").num(rejected.nonce());
            final int code = rejected.codeRaw();
            out.key("code").ch('"').ascii(code < REJECT_CODES.length && null != REJECT_CODES[code] ?
                REJECT_CODES[code] : "UNKNOWN").ch('"');
            if (rejected.legIndex() != ActionRejectedDecoder.legIndexNullValue())
            {
                out.key("legIndex").num(rejected.legIndex());
            }
            out.ch('}');
        }
    }

    private void onBalance()
    {
        balance.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, BALANCES);
        if (null != out)
        {
            out.key("kind").ascii("\"balance\"");
            out.key("asset").num(balance.asset());
            out.key("available").num(balance.available());
            out.key("locked").num(balance.locked());
            out.ch('}');
        }
        if (keepViews)
        {
            final long[] held = account.balances.computeIfAbsent(balance.asset(), k -> new long[2]);
            held[0] = balance.available();
            held[1] = balance.locked();
        }
    }

    private void onPosition()
    {
        position.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, BALANCES);
        if (null != out)
        {
            out.key("kind").ascii("\"position\"");
            out.key("market").num(position.market());
            out.key("yes").num(position.yes());
            out.key("yesLocked").num(position.yesLocked());
            out.key("no").num(position.no());
            out.key("noLocked").num(position.noLocked());
            out.ch('}');
        }
        if (keepViews)
        {
            final long[] held = account.positions.computeIfAbsent(position.market(), k -> new long[4]);
            held[0] = position.yes();
            held[1] = position.yesLocked();
            held[2] = position.no();
            held[3] = position.noLocked();
        }
    }

    /** An account's own kill switch is its business alone: its {@code orders} channel. */
    private void onKill()
    {
        if (kill.scopeRaw() != 0)
        {
            return;
        }
        kill.getAccount(address.bytes(), 0, 20);
        final AccountState account = account();
        if (null == account)
        {
            return;
        }
        final JsonBytes out = update(account, ORDERS);
        if (null != out)
        {
            out.key("event").ascii("\"kill_switch\"");
            out.key("active").ascii(kill.activeRaw() == 1 ? "true" : "false");
            out.ch('}');
        }
    }

    /** Writes the command's frames: per account touched (in the order touched) orders, fills, balances. */
    void end(final FrameWriter writer, final FrameSink sink, final boolean resent)
    {
        for (int i = 0, n = touched.size(); i < n; i++)
        {
            final AccountState account = touched.get(i);
            for (int kind = 0; kind < AccountState.KINDS; kind++)
            {
                if (!account.updated[kind])
                {
                    continue;
                }
                account.updated[kind] = false;
                final long seq = ++account.seqs[kind];
                if (!account.writing)
                {
                    sink.onPrivateNumbered(account, kind, seq, engineSeq);
                    continue;
                }
                final JsonBytes pending = account.pending[kind];
                final JsonBytes out = writer.begin(NAMES[kind], FrameWriter.EVENT, seq, engineSeq, ts, resent);
                out.key("updates").ch('[').append(pending).ch(']');
                sink.onPrivate(account, kind, new FeedFrame(NAMES[kind], seq, false, writer.finish()), engineSeq);
                pending.reset();
            }
            account.touched = false;
        }
        touched.clear();
    }
}
