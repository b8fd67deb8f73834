package io.venue.engine;

import io.venue.action.Action;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.book.OrderBook;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateLimits;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import io.venue.responder.ReadModels;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.venue.engine.EngineTest.ALICE;
import static io.venue.engine.EngineTest.BOB;
import static io.venue.engine.EngineTest.line;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An order's filled quantity over its whole life, across amends: one that keeps its place (less quantity) and ones
 * that take it out and enter it again with the same id (a new price, more quantity, a price the other side reaches).
 * After each step the engine's events, its book, and the order status read model fed those events through a
 * Chronicle journal all count every fill of the id; so do an engine restarted from its stored state, a replay of the
 * commands, and a read model rebuilt from the journal.
 * <p>
 * The same commands as records of journal version 5 (JOURNAL-SCHEMA.md, section 9): each amend that enters the order
 * again starts its size in the events and the book from the new quantity, as the builds of version 4 and 5 did, so a
 * replay of their journals writes the events they wrote; the read model still counts every fill of the id.
 */
class AmendFillsTest
{
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long SPOT = 7;
    private static final long UNIT = 1_000_000;
    private static final Pattern NUMBER = Pattern.compile("\"(qty|remaining|filled)\":(\\d+)");
    private static final Pattern STATUS = Pattern.compile("\"status\":\"([a-z_]+)\"");

    @TempDir
    Path folder;

    private EngineConfig config;
    private EngineState stored;
    private EngineHarness h;
    private Journal events;
    private JournalAppender appender;
    private JournalTailer tailer;
    private final ReadModels models = new ReadModels(10_000);
    /** How far into the current harness's event log the journal holds. */
    private int journaled;
    /** Every command of the run, across the restart. */
    private final List<byte[]> commands = new ArrayList<>();
    /** As {@link EventLog#bytes}: each event after its length. */
    private final ByteArrayOutputStream eventBytes = new ByteArrayOutputStream();

    /** The version of the commands: this build's, or 5, whose amends start an order's size again when it re-enters. */
    private int version;

    @ParameterizedTest(name = "shards={0}, journal version {1}")
    @CsvSource({"1, 6", "2, 6", "1, 5", "2, 5"})
    void filledCountsEveryFillOfTheIdAcrossAmendsRestartsAndReplays(final int shards, final int version)
        throws Exception
    {
        this.version = version;
        config = new EngineConfig().shards(shards).groupCommands(1)
            .stateLimits(StateLimits.forAccounts(1_000, 10_000));
        stored = EngineState.open(stateContext());
        h = new EngineHarness(config, true, stored);
        h.version = version;
        events = Journal.open(folder.resolve("events"));
        appender = events.appender();
        tailer = events.tailer();
        try
        {
            run();
        }
        finally
        {
            h.engine.close();
            stored.close();
            events.close();
        }
    }

    private void run() throws Exception
    {
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 1_000, 1_000, 1_000));
        h.admin(new Deposit(ALICE, USD, 10_000 * UNIT));
        h.admin(new Deposit(BOB, BTC, 100 * UNIT));

        act(ALICE, bid(100, 10));
        final OrderId id = new OrderId(h.lastDigest);
        final String hex = id.toString();
        act(BOB, ask(100, 2));
        expect(id, 10, 10, 8, "resting");

        // less quantity at the same price keeps its place: the size drops with it, the 2 filled stay filled
        line(act(ALICE, new Amend(id, 100 * UNIT, 5 * UNIT)), "OrderAmended", "\"priorityKept\":true",
            "\"qty\":7000000", "\"remaining\":5000000");
        expect(id, 7, 7, 5, "resting");
        act(BOB, ask(100, 1));
        expect(id, 7, 7, 4, "resting");

        // a new price nothing reaches: moved in its slot, entering again with the 3 it filled (version 5: none)
        List<String> lines = act(ALICE, new Amend(id, 99 * UNIT, 6 * UNIT));
        line(lines, "OrderAccepted", hex, qty(9, 6), "\"remaining\":6000000");
        line(lines, "OrderRested", hex, qty(9, 6), "\"remaining\":6000000");
        expect(id, 9, size(9, 6), 6, "resting");
        act(BOB, ask(99, 2));
        expect(id, 9, size(9, 6), 4, "resting");

        // more quantity at the same price loses the place too
        lines = act(ALICE, new Amend(id, 99 * UNIT, 8 * UNIT));
        line(lines, "OrderAccepted", hex, qty(13, 8), "\"remaining\":8000000");
        expect(id, 13, size(13, 8), 8, "resting");

        // a price the other side reaches: out of the book and placed again, trading as a taker
        act(BOB, ask(101, 3));
        lines = act(ALICE, new Amend(id, 101 * UNIT, 6 * UNIT));
        line(lines, "OrderAccepted", hex, qty(11, 6), "\"remaining\":6000000");
        line(lines, "Trade", "\"qty\":3000000");
        line(lines, "OrderRested", hex, qty(11, 6), "\"remaining\":3000000");
        expect(id, 11, size(11, 6), 3, "resting");

        restart();
        expect(id, 11, size(11, 6), 3, "resting");
        // a place kept: the size drops with the quantity, from what the book holds (version 5: the 3 filled since
        // it re-entered)
        line(act(ALICE, new Amend(id, 101 * UNIT, 2 * UNIT)), "OrderAmended", qty(10, 5), "\"remaining\":2000000");
        expect(id, 10, size(10, 5), 2, "resting");
        line(act(BOB, ask(101, 2)), "OrderDone", hex, "\"reason\":\"FILLED\"");
        expect(id, 10, size(10, 5), 0, "filled");
        EventFold.of(eventBytes.toByteArray()).check(h.engine.view());
        commands.addAll(h.records());

        // a replay of the commands writes the same events, and a read model rebuilt from the journal says the same
        final EventLog replayLog = new EventLog(false);
        final Engine replayed = new Engine(config.operator(EngineHarness.OPERATOR), replayLog);
        try
        {
            for (final byte[] command : commands)
            {
                replayed.onCommand(new UnsafeBuffer(command), 0, command.length);
                replayed.drain();
            }
            assertArrayEquals(eventBytes.toByteArray(), replayLog.bytes(), "a replay writes the run's events");
            assertArrayEquals(h.engine.stateHash(), replayed.stateHash());
        }
        finally
        {
            replayed.close();
        }
        final ReadModels rebuilt = new ReadModels(10_000);
        rebuilt.scan(events.tailer());
        assertEquals(models.orders().json(hex), rebuilt.orders().json(hex));
    }

    /** The order's size in an event, in BTC: as this build's commands make it, or as version 5 commands do. */
    private String qty(final long keepingFills, final long version5)
    {
        return "\"qty\":" + size(keepingFills, version5) * UNIT;
    }

    private long size(final long keepingFills, final long version5)
    {
        return version >= 6 ? keepingFills : version5;
    }

    /**
     * Checks the order's size, remaining and filled quantity (the size less the remaining) and status, in BTC: in the
     * read model (which counts every fill of the id), and while it is open in the engine's book ({@code bookSize}).
     */
    private void expect(final OrderId id, final long size, final long bookSize, final long remaining,
        final String status)
    {
        models.scan(tailer);
        final String json = models.orders().json(id.toString());
        assertEquals(List.of(size * UNIT, remaining * UNIT, (size - remaining) * UNIT), numbers(json), json);
        final Matcher matcher = STATUS.matcher(json);
        assertTrue(matcher.find(), json);
        assertEquals(status, matcher.group(1), json);

        final OrderBook book = h.engine.view().book(SPOT, 0);
        final int slot = slotOf(book, id.toBytes());
        if (remaining == 0)
        {
            assertEquals(OrderBook.NULL_SLOT, slot, "a filled order has left the book");
            return;
        }
        assertNotEquals(OrderBook.NULL_SLOT, slot);
        assertEquals(bookSize * UNIT, book.originalQtyOf(slot), "the book's size");
        assertEquals(remaining * UNIT, book.remainingOf(slot));
        assertEquals((bookSize - remaining) * UNIT, book.filledOf(slot), "the book's filled");
    }

    /** qty, remaining and filled, in the order the JSON gives them. */
    private static List<Long> numbers(final String json)
    {
        final List<Long> numbers = new ArrayList<>();
        final Matcher matcher = NUMBER.matcher(json);
        while (matcher.find())
        {
            numbers.add(Long.parseLong(matcher.group(2)));
        }
        return numbers;
    }

    private static int slotOf(final OrderBook book, final byte[] id)
    {
        final byte[] slotId = new byte[32];
        for (final Side side : Side.values())
        {
            for (int depth = 0; depth < book.levelCount(side); depth++)
            {
                for (int slot = book.levelHead(side, depth); slot != OrderBook.NULL_SLOT; slot = book.nextInLevel(slot))
                {
                    book.orderIdInto(slot, slotId, 0);
                    if (Arrays.equals(id, slotId))
                    {
                        return slot;
                    }
                }
            }
        }
        return OrderBook.NULL_SLOT;
    }

    /** Sends the action and journals its events. */
    private List<String> act(final Address account, final Action action)
    {
        final List<String> lines = h.act(account, action);
        journalEvents();
        return lines;
    }

    private void journalEvents()
    {
        final byte[] log = h.log.bytes();
        final UnsafeBuffer buffer = new UnsafeBuffer(log);
        while (journaled < log.length)
        {
            final int length = buffer.getInt(journaled, ByteOrder.LITTLE_ENDIAN);
            appender.append(buffer, journaled + 4, length);
            eventBytes.write(log, journaled, 4 + length);
            journaled += 4 + length;
        }
    }

    /**
     * Stops the engine, its state written and closed, and starts another on the stored state, nonces and clock kept.
     */
    private void restart() throws Exception
    {
        commands.addAll(h.records());
        h.engine.flushState();
        h.engine.close();
        stored.close();
        stored = EngineState.open(stateContext());
        final EngineHarness restarted = new EngineHarness(config, true, stored);
        for (final Address account : new Address[]{ALICE, BOB, EngineHarness.OPERATOR})
        {
            while (restarted.nonce(account) < h.nonce(account))
            {
                restarted.takeNonce(account);
            }
        }
        restarted.now = h.now;
        restarted.version = version;
        h = restarted;
        journaled = 0;
    }

    private EngineState.Context stateContext()
    {
        return new EngineState.Context().directory(folder.resolve("state")).sizeFor(1_000, 10_000);
    }

    private static SpotPlaceOrder bid(final long price, final long btc)
    {
        return order(Side.BID, price, btc);
    }

    private static SpotPlaceOrder ask(final long price, final long btc)
    {
        return order(Side.ASK, price, btc);
    }

    private static SpotPlaceOrder order(final Side side, final long price, final long btc)
    {
        return new SpotPlaceOrder(SPOT, null, side, price * UNIT, btc * UNIT, null, TimeInForce.GTC, false, false,
            SpotPlaceOrder.NO_EXPIRY);
    }
}
