package io.venue.engine;

import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.state.StateLimits;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.TradeDecoder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import io.venue.engine.state.EngineState;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine with several matching shards: its events and state are a function of the commands alone, however
 * the shard threads and the engine's thread interleave; and it keeps the single-shard engine's invariants.
 * The interleaving is varied by draining the pipeline at random points (each drain lets settlement catch up
 * with admission at a different moment), on top of the threads' own timing.
 */
class ShardPipelineTest
{
    @TempDir
    Path folder;

    /**
     * The records of a {@link RandomStream} (every kind of command) or, with {@code trading}, of a
     * {@link TradingStream}.
     */
    static List<byte[]> stream(final long seed, final int steps, final boolean trading)
    {
        final EngineHarness h = new EngineHarness(trading ? TradingStream.config() : RandomStream.config(), false);
        if (trading)
        {
            new TradingStream(h, seed).setUp().run(steps);
        }
        else
        {
            new RandomStream(h, seed).setUp().run(steps);
        }
        return h.records();
    }

    private static EngineConfig config(final boolean trading, final int shards, final int group)
    {
        return (trading ? TradingStream.config() : RandomStream.config()).shards(shards).groupCommands(group)
            .operator(EngineHarness.OPERATOR);
    }

    /**
     * Runs the records; drains after a record with probability {@code drainOneIn}⁻¹ (0: never). Returns events and
     * state hash.
     */
    static Run run(final EngineConfig config, final List<byte[]> records, final long drainSeed, final int drainOneIn)
    {
        final EventLog log = new EventLog(false);
        final SplittableRandom drains = new SplittableRandom(drainSeed);
        try (Engine engine = new Engine(config, log))
        {
            for (final byte[] record : records)
            {
                assertTrue(engine.onCommand(new UnsafeBuffer(record), 0, record.length));
                if (drainOneIn > 0 && drains.nextInt(drainOneIn) == 0)
                {
                    engine.flushEvents();
                }
            }
            final byte[] hash = engine.stateHash();
            final EngineView view = engine.view();
            for (int asset = 0; asset < view.ledgerAssetCount(); asset++)
            {
                assertEquals(view.supply(asset), view.total(asset), "conservation of ledger asset " + asset);
            }
            EnginePropertyTest.checkBooksAndReservations(view);
            EventFold.of(log.bytes()).check(view);
            assertEquals(records.size(), engine.lastSequence(), "every command settled");
            return new Run(log.bytes(), hash);
        }
    }

    record Run(byte[] events, byte[] hash)
    {
    }

    @Property(tries = 24)
    void eventsAndStateDependOnTheCommandsAlone(@ForAll final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final boolean trading = random.nextBoolean();
        final List<byte[]> records = stream(seed, 1_500, trading);
        final int shards = 2 + random.nextInt(2);
        final int group = new int[]{1, 5, 64}[random.nextInt(3)];
        final EngineConfig config = config(trading, shards, group);
        final boolean credit = random.nextBoolean();
        if (credit)
        {
            // the streams' orders lock a few dollars each: a haircut and caps that bind now and then
            config.crossShardCredit(900_000 + random.nextInt(95_000), (5 + random.nextInt(60)) * TradingStream.UNIT,
                (20 + random.nextInt(300)) * TradingStream.UNIT, false);
        }
        final String what = (trading ? "trading" : "random") + " stream, " + shards + " shards, groups of " + group +
            (credit ? ", cross-shard credit" : "");

        final Run steady = run(config, records, 0, 0);
        final Run often = run(config, records, seed, 3);
        final Run seldom = run(config, records, ~seed, 40);
        if (credit)
        {
            assertTrue(count(steady.events(), ActionRejectedDecoder.TEMPLATE_ID) > 0);
        }
        assertArrayEquals(steady.events(), often.events(), "events with drains at other points: " + what);
        assertArrayEquals(steady.events(), seldom.events(), "events with drains at other points: " + what);
        assertArrayEquals(steady.hash(), often.hash(), "state hash: " + what);
        assertArrayEquals(steady.hash(), seldom.hash(), "state hash: " + what);
        eventsInCommandOrder(steady.events());
    }

    /**
     * With groups of one command (no lag) and no expiries (a book expires at its own shard's commands), several
     * shards decide exactly as one: the same events, byte for byte, for places, amends, cancels and cancels by client
     * order id on the shards and every barrier between them.
     */
    @Test
    void inGroupsOfOneSeveralShardsDecideAsOne()
    {
        final EngineHarness h = new EngineHarness(TradingStream.config(), false);
        new TradingStream(h, 21).withoutExpiries().setUp().run(4_000);
        final List<byte[]> records = h.records();
        final Run single = run(config(true, 1, 1), records, 0, 0);
        final Run sharded = run(config(true, 3, 1), records, 3, 5);
        assertTrue(count(single.events(), TradeDecoder.TEMPLATE_ID) > 500);
        final int kept = count(single.events(), OrderAmendedDecoder.TEMPLATE_ID);
        assertTrue(kept > 5, "amends that kept their priority: " + kept);
        assertArrayEquals(single.events(), sharded.events());
    }

    @Test
    void shardsMatchAndSettle()
    {
        final List<byte[]> records = stream(7, 3_000, true);
        final Run sharded = run(config(true, 3, 64), records, 1, 10);
        final int trades = count(sharded.events(), TradeDecoder.TEMPLATE_ID);
        assertTrue(trades > 500, "the stream trades on every shard: " + trades);
    }

    @Test
    void aShardedEngineRestartsFromItsStateAsIfItHadNeverStopped() throws Exception
    {
        final List<byte[]> records = stream(11, 2_500, true);
        final EngineConfig config = persistedConfig();
        final Run reference = run(config, records, 0, 0);
        final EngineState.Context context = stateContext("state", 37);

        // the first life stops at a command in the middle of a group: its state is the one of the last group start
        final int stop = 16 * (records.size() / 40) + 7;
        final EventLog first = new EventLog(false);
        try (PersistedEngine persisted = PersistedEngine.open(config, first, context))
        {
            apply(persisted.engine(), records, 0, stop);
        }
        final EventLog second = new EventLog(false);
        final long restart;
        final byte[] hash;
        try (PersistedEngine persisted = PersistedEngine.open(config, second, context))
        {
            restart = persisted.engine().lastSequence();
            assertTrue(restart < stop,
                "the state was written where a group begins (a group end or a barrier): " + restart);
            apply(persisted.engine(), records, (int)restart, records.size());
            hash = persisted.engine().stateHash();
        }
        final byte[] firstLife = first.bytes();
        final byte[] joined = concat(upTo(firstLife, restart), second.bytes());
        assertArrayEquals(reference.events(), joined, "the events of both lives, the replayed commands once");
        assertArrayEquals(reference.hash(), hash);
        assertArrayEquals(firstLife, Arrays.copyOf(joined, firstLife.length),
            "the replayed commands gave the events they gave before");
    }

    /**
     * The group rule, and why a state is written only where a group begins: Bob sells his bitcoin to Alice, then
     * bids with the dollars he got in the same group. One shard takes the bid; several refuse it (the proceeds count
     * from the next group on) and take it after a barrier. A restart between the fill and the bid must refuse it too.
     */
    @Test
    void proceedsCountFromTheNextGroupAndARestartKeepsTheRule() throws Exception
    {
        final EngineHarness h = new EngineHarness(new EngineConfig(), false);
        h.admin(new CreateAsset(1, "USD"));
        h.admin(new CreateAsset(2, "BTC"));
        h.admin(new CreateSpotMarket(7, 2, 1, 1_000, 1_000, 1_000));
        h.admin(new Deposit(EngineTest.ALICE, 1, 1_000_000_000));
        h.admin(new Deposit(EngineTest.BOB, 2, 1_000_000));
        h.act(EngineTest.BOB, spot(Side.ASK, 1_000_000));
        h.act(EngineTest.ALICE, spot(Side.BID, 1_000_000));
        final int fill = h.records().size();
        h.act(EngineTest.BOB, spot(Side.BID, 500_000));
        final byte[] bobsBid = h.lastDigest;
        h.admin(new Deposit(EngineTest.STRANGER, 1, 1));
        h.act(EngineTest.BOB, spot(Side.BID, 500_000));
        final byte[] bobsSecondBid = h.lastDigest;
        final List<byte[]> records = h.records();
        assertTrue(h.engine.view().isOpen(bobsBid), "one shard: the proceeds are there at once");

        final EngineConfig config = new EngineConfig().shards(2).groupCommands(1_000_000)
            .operator(EngineHarness.OPERATOR) .stateLimits(StateLimits.forAccounts(1_000, 10_000));
        try (Engine sharded = new Engine(config, (buffer, offset, length) -> { }))
        {
            apply(sharded, records, 0, records.size());
            assertTrue(!sharded.view().isOpen(bobsBid), "several shards: not in the group of the fill");
            assertTrue(sharded.view().isOpen(bobsSecondBid), "after a barrier");
        }

        final EngineState.Context context = stateContext("rule", 1);
        try (PersistedEngine persisted = PersistedEngine.open(config, (buffer, offset, length) -> { }, context))
        {
            apply(persisted.engine(), records, 0, fill);
        }
        try (PersistedEngine persisted = PersistedEngine.open(config, (buffer, offset, length) -> { }, context))
        {
            final long restart = persisted.engine().lastSequence();
            assertEquals(fill - 2, restart, "the state of the last barrier, not of the fill in the group's middle");
            apply(persisted.engine(), records, (int)restart, records.size());
            assertTrue(!persisted.engine().view().isOpen(bobsBid), "after the restart as before it");
            assertTrue(persisted.engine().view().isOpen(bobsSecondBid));
        }
    }

    private static SpotPlaceOrder spot(final Side side, final long qty)
    {
        return new SpotPlaceOrder(7, null, side, 1_000_000, qty, null, TimeInForce.GTC, false, false,
            SpotPlaceOrder.NO_EXPIRY);
    }

    @Test
    void recoveryAfterACrashMatchesTheJournaledEventsAndGoesOn() throws Exception
    {
        final List<byte[]> records = stream(5, 2_500, true);
        final EngineConfig config = persistedConfig();
        final Run reference = run(config, records, 0, 0);
        final EngineState.Context context = stateContext("state", 50);
        final int stateAt = 1_000;
        final int crashedAt = 1_400;
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender commandOut = commands.appender();
            records.forEach(r -> commandOut.append(new UnsafeBuffer(r), 0, r.length));
            final JournalAppender eventOut = events.appender();
            final long stored;
            try (PersistedEngine persisted = PersistedEngine.open(config,
                JournalEventSink.heldUntilFlush(eventOut), context))
            {
                apply(persisted.engine(), records, 0, stateAt);
                persisted.engine().flushState();
                stored = persisted.state().meta().appliedSequence();
                assertTrue(stored < stateAt, "written where a group begins (a group end or a barrier): " + stored);
            }
            // then the process journals the events of more commands and dies without writing its state again
            try (Engine crashed = new Engine(config, new EventSink()
            {
                public void onEvent(final DirectBuffer buffer, final int offset, final int length)
                {
                    final long sequence = JournalRecords.sequence(buffer, offset);
                    if (sequence > stateAt && sequence < crashedAt)
                    {
                        eventOut.add(buffer, offset, length);
                    }
                }

                public void onCommandEnd()
                {
                    eventOut.commit();
                }
            }))
            {
                apply(crashed, records, 0, crashedAt);
                crashed.drain();
            }
            final ShardRecovery recovery = ShardRecovery.recover(config, context, commands, events,
                new ShardRecovery.Report()
            {
                public void onStateRebuilt(final String reason)
                {
                    throw new AssertionError("the state was usable: " + reason);
                }

                public void onUnreadable(final long index, final long sequence)
                {
                    throw new AssertionError("unreadable command at index " + index);
                }

                public void onReplayed(final long replayed, final long matched, final long appended,
                    final long lastSequence)
                {
                    assertEquals(records.size() - stored, replayed, "only the commands after the state");
                    assertTrue(matched > 0 && appended > 0);
                }
            });
            assertArrayEquals(reference.hash(), recovery.engine().stateHash());
            recovery.engine().close();
            recovery.state().close();
        }
        assertArrayEquals(reference.events(), ShardRecoveryTest.journal(folder.resolve("events")),
            "no event lost, none twice");
    }

    /**
     * A book expires its orders at its own shard's commands: another shard's command leaves them, its own removes them.
     */
    @Test
    void aShardExpiresItsBooksOrdersAtItsOwnCommands()
    {
        final EngineHarness h = new EngineHarness(new EngineConfig().shards(2), true);
        h.admin(new CreateAsset(1, "USD"));
        h.admin(new CreateAsset(2, "BTC"));
        h.admin(new CreateSpotMarket(7, 2, 1, 1_000, 1_000, 1_000));
        h.admin(new CreateSpotMarket(8, 2, 1, 1_000, 1_000, 1_000));
        h.admin(new Deposit(EngineTest.ALICE, 1, 1_000_000_000));
        h.admin(new Deposit(EngineTest.BOB, 1, 1_000_000_000));
        h.act(EngineTest.ALICE, new SpotPlaceOrder(7, null, Side.BID, 1_000_000, 1_000_000, null,
            TimeInForce.GTC, false, false, h.now + 100));
        h.now += 200;
        final List<String> otherShard = h.act(EngineTest.BOB, spotIn(8));
        assertTrue(otherShard.stream().noneMatch(l -> l.contains("\"reason\":\"EXPIRED\"")),
            String.join("\n", otherShard));
        final List<String> ownShard = h.act(EngineTest.BOB, spotIn(7));
        EngineTest.line(ownShard, "OrderDone", "\"reason\":\"EXPIRED\"", "\"account\":\"" + EngineTest.ALICE + "\"");
        h.engine.close();
    }

    private static SpotPlaceOrder spotIn(final long market)
    {
        return new SpotPlaceOrder(market, null, Side.BID, 900_000, 1_000_000, null,
            TimeInForce.GTC, false, false, SpotPlaceOrder.NO_EXPIRY);
    }

    /**
     * A defect while matching (here: a ticket for a book that does not exist) marks that command and stops the shard.
     */
    @Test
    void aShardThatFailsMarksItsCommandAndStops()
    {
        final ShardState state = new ShardState(new EngineConfig().shards(2), (buffer, offset, length) -> { });
        final OneToOneRingBuffer inbound = ring();
        final OneToOneRingBuffer outbound = ring();
        final MatchingShard shard = new MatchingShard(0, state, inbound, outbound, new BusySpinIdleStrategy());
        final UnsafeBuffer ticket = new UnsafeBuffer(new byte[ShardTicket.LENGTH]);
        ticket.putInt(ShardTicket.BOOK, 0, ByteOrder.LITTLE_ENDIAN);
        assertTrue(inbound.write(ShardTicket.PLACE, ticket, 0, ShardTicket.LENGTH));
        Assertions.assertThrows(AgentTerminationException.class, shard::doWork);
        assertTrue(shard.failure() instanceof NullPointerException, String.valueOf(shard.failure()));
        final int[] type = {0};
        assertEquals(1, outbound.read((msgType, buffer, index, length) -> type[0] = msgType));
        assertEquals(ShardTicket.TAPE_FAILED, type[0], "the engine learns which command failed");
    }

    private static OneToOneRingBuffer ring()
    {
        return new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect((1 << 16) + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** Applies records {@code from} (inclusive) to {@code to} (exclusive). */
    private static void apply(final Engine engine, final List<byte[]> records, final int from, final int to)
    {
        for (final byte[] record : records.subList(from, to))
        {
            engine.onCommand(new UnsafeBuffer(record), 0, record.length);
        }
    }

    /** The trading stream's configuration with three shards in groups of 16, and a state sized for it. */
    private static EngineConfig persistedConfig()
    {
        return config(true, 3, 16).stateLimits(StateLimits.forAccounts(1_000, 10_000));
    }

    private EngineState.Context stateContext(final String name, final int commandsPerFlush)
    {
        return new EngineState.Context().directory(folder.resolve(name)).sizeFor(1_000, 10_000)
            .commandsPerFlush(commandsPerFlush);
    }

    /** The events of commands up to {@code sequence}. */
    private static byte[] upTo(final byte[] events, final long sequence)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(events);
        int at = 0;
        while (at < events.length &&
            buffer.getLong(at + 4 + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN) <= sequence)
        {
            at += 4 + buffer.getInt(at, ByteOrder.nativeOrder());
        }
        return Arrays.copyOf(events, at);
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        final byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    /** Every event carries its command's sequence right after the header: they never go backwards. */
    private static void eventsInCommandOrder(final byte[] events)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(events);
        long last = 0;
        for (int at = 0; at < events.length; )
        {
            final int length = buffer.getInt(at, ByteOrder.nativeOrder());
            final long sequence = buffer.getLong(at + 4 + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
            assertTrue(sequence >= last, "event of sequence " + sequence + " after one of " + last);
            last = sequence;
            at += 4 + length;
        }
    }

    static int count(final byte[] events, final int templateId)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(events);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        int count = 0;
        for (int at = 0; at < events.length; )
        {
            final int length = buffer.getInt(at, ByteOrder.nativeOrder());
            if (header.wrap(buffer, at + 4).templateId() == templateId)
            {
                count++;
            }
            at += 4 + length;
        }
        return count;
    }
}
