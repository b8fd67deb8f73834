package io.venue.feed;

import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.ActionRejectedEncoder;
import io.venue.journal.sbe.BalanceChangedEncoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BookDeltaEncoder;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.HaltMarketEncoder;
import io.venue.journal.sbe.KillScope;
import io.venue.journal.sbe.KillSwitchChangedEncoder;
import io.venue.journal.sbe.MarketCreatedEncoder;
import io.venue.journal.sbe.MarketKind;
import io.venue.journal.sbe.MarketStatus;
import io.venue.journal.sbe.MarketStatusChangedEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.OrderAcceptedEncoder;
import io.venue.journal.sbe.OrderDoneEncoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.OrderRestedEncoder;
import io.venue.journal.sbe.PositionChangedEncoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a command journal and an event journal as the sequencer and the engine would: each command (a stand-in
 * record carrying its sequence and stamped time) in an excerpt of its own, and events staged until
 * {@link #commit}, so a test chooses how commands' events are grouped into excerpts.
 */
final class EventScript implements AutoCloseable
{
    final Journal events;
    final Journal commands;
    private final JournalAppender eventAppender;
    private final JournalAppender commandAppender;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private long sequence;
    private int eventIndex;
    /** Commands written but not yet appended (a command journal that lags the events, as a follower's may). */
    private final List<byte[]> held = new ArrayList<>();
    private boolean holding;

    EventScript(final Path folder)
    {
        events = Journal.open(folder.resolve("events"));
        commands = Journal.open(folder.resolve("commands"));
        eventAppender = events.appender();
        commandAppender = commands.appender();
    }

    static byte[] account(final int n)
    {
        final byte[] address = new byte[20];
        address[0] = (byte)0xac;
        address[19] = (byte)n;
        address[18] = (byte)(n >> 8);
        return address;
    }

    static String accountHex(final int n)
    {
        final StringBuilder out = new StringBuilder("0x");
        for (final byte b : account(n))
        {
            out.append(String.format("%02x", b & 0xFF));
        }
        return out.toString();
    }

    static byte[] orderId(final long n)
    {
        final byte[] id = new byte[32];
        id[0] = (byte)0x0d;
        for (int i = 0; i < 8; i++)
        {
            id[31 - i] = (byte)(n >> (8 * i));
        }
        return id;
    }

    static String orderIdHex(final long n)
    {
        final StringBuilder out = new StringBuilder("0x");
        for (final byte b : orderId(n))
        {
            out.append(String.format("%02x", b & 0xFF));
        }
        return out.toString();
    }

    long sequence()
    {
        return sequence;
    }

    /** The next command, stamped {@code ts}; the events written after it are its events. */
    EventScript command(final long ts)
    {
        sequence++;
        eventIndex = 0;
        final HaltMarketEncoder command = new HaltMarketEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).timestampMs(ts).epoch(1).market(0);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + command.encodedLength();
        if (holding)
        {
            final byte[] record = new byte[length];
            buffer.getBytes(0, record);
            held.add(record);
        }
        else
        {
            commandAppender.append(buffer, 0, length);
        }
        return this;
    }

    /** From now on commands are held back until {@link #releaseCommands}. */
    EventScript holdCommands()
    {
        holding = true;
        return this;
    }

    /** Appends the held commands and writes the next ones at once again. */
    EventScript releaseCommands()
    {
        holding = false;
        for (final byte[] record : held)
        {
            commandAppender.append(new UnsafeBuffer(record), 0, record.length);
        }
        held.clear();
        return this;
    }

    /** A command the sequencer journaled that gave no events (an audit record's sequence). */
    EventScript silentCommand(final long ts)
    {
        return command(ts);
    }

    /** Writes the events staged since the last commit as one excerpt. */
    EventScript commit()
    {
        eventAppender.commit();
        return this;
    }

    private void add(final int length)
    {
        eventAppender.add(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + length);
        eventIndex++;
    }

    EventScript market(final long market, final boolean outcome)
    {
        final MarketCreatedEncoder e = new MarketCreatedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).market(market)
            .kind(outcome ? MarketKind.OUTCOME : MarketKind.SPOT).baseAsset(outcome ? 0 : 1)
            .quoteAsset(outcome ? 0 : 2).collateralAsset(outcome ? 2 : 0).tickSize(10_000).lotSize(1_000)
            .minQty(1_000);
        add(e.encodedLength());
        return this;
    }

    EventScript delta(final long market, final int book, final int side, final long price, final long qty)
    {
        final BookDeltaEncoder e = new BookDeltaEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).market(market).book(Book.get((short)book))
            .side(side == 0 ? Side.BID : Side.ASK).price(price).levelQty(qty).orderCount(qty == 0 ? 0 : 1);
        add(e.encodedLength());
        return this;
    }

    EventScript trade(final long market, final int book, final long makerOrder, final int maker,
        final long takerOrder, final int taker, final long price, final long qty, final int takerSide,
        final long makerRemaining)
    {
        final TradeEncoder e = new TradeEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).market(market).book(Book.get((short)book))
            .putMakerOrderId(orderId(makerOrder), 0, 32).putMakerAccount(account(maker), 0, 20)
            .putTakerOrderId(orderId(takerOrder), 0, 32).putTakerAccount(account(taker), 0, 20)
            .price(price).qty(qty).takerSide(takerSide == 0 ? Side.BID : Side.ASK).makerRemaining(makerRemaining);
        add(e.encodedLength());
        return this;
    }

    EventScript accepted(final long order, final int account, final long market, final int book, final int side,
        final long price, final long qty, final long remaining)
    {
        final OrderAcceptedEncoder e = new OrderAcceptedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).putOrderId(orderId(order), 0, 32)
            .putAccount(account(account), 0, 20).market(market).book(Book.get((short)book))
            .side(side == 0 ? Side.BID : Side.ASK).price(price).qty(qty).remaining(remaining);
        add(e.encodedLength());
        return this;
    }

    EventScript rested(final long order, final int account, final long market, final int book, final int side,
        final long price, final long qty, final long remaining)
    {
        final OrderRestedEncoder e = new OrderRestedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).putOrderId(orderId(order), 0, 32)
            .putAccount(account(account), 0, 20).market(market).book(Book.get((short)book))
            .side(side == 0 ? Side.BID : Side.ASK).price(price).qty(qty).remaining(remaining);
        add(e.encodedLength());
        return this;
    }

    EventScript done(final long order, final int account, final long market, final OrderDoneReason reason,
        final long remaining)
    {
        final OrderDoneEncoder e = new OrderDoneEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).putOrderId(orderId(order), 0, 32)
            .putAccount(account(account), 0, 20).market(market).reason(reason).remaining(remaining);
        add(e.encodedLength());
        return this;
    }

    EventScript balance(final int account, final long asset, final long available, final long locked)
    {
        final BalanceChangedEncoder e = new BalanceChangedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).putAccount(account(account), 0, 20).asset(asset)
            .available(available).locked(locked);
        add(e.encodedLength());
        return this;
    }

    EventScript position(final int account, final long market, final long yes, final long no)
    {
        final PositionChangedEncoder e = new PositionChangedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).putAccount(account(account), 0, 20).market(market)
            .yes(yes).yesLocked(0).no(no).noLocked(0);
        add(e.encodedLength());
        return this;
    }

    EventScript rejected(final int account, final long nonce, final RejectCode code)
    {
        final ActionRejectedEncoder e = new ActionRejectedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).putAccount(account(account), 0, 20).nonce(nonce)
            .putDigest(orderId(nonce), 0, 32).code(code).nonceFloor(0).nonceWindow(256).nextUsableNonce(nonce + 1)
            .legIndex(ActionRejectedEncoder.legIndexNullValue()).rateRemaining(10).rateResetMs(0);
        add(e.encodedLength());
        return this;
    }

    EventScript halted(final long market, final boolean halted)
    {
        final MarketStatusChangedEncoder e = new MarketStatusChangedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).market(market)
            .status(halted ? MarketStatus.HALTED : MarketStatus.ACTIVE);
        add(e.encodedLength());
        return this;
    }

    EventScript kill(final KillScope scope, final int account, final long market, final boolean active)
    {
        final KillSwitchChangedEncoder e = new KillSwitchChangedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(sequence).eventIndex(eventIndex).scope(scope)
            .putAccount(scope == KillScope.ACCOUNT ? account(account) : new byte[20], 0, 20)
            .market(scope == KillScope.MARKET ? market : 0).active(active ? BooleanType.TRUE : BooleanType.FALSE);
        add(e.encodedLength());
        return this;
    }

    @Override
    public void close()
    {
        events.close();
        commands.close();
    }
}
