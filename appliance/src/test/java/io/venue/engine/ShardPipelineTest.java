package io.venue.engine;

import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.TradeDecoder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
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
    /** The records of a {@link RandomStream} (every kind of command) or, with {@code trading}, of a {@link TradingStream}. */
    private static List<byte[]> stream(final long seed, final int steps, final boolean trading)
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

    /** Runs the records; drains after a record with probability {@code drainOneIn}⁻¹ (0: never). Returns events and state hash. */
    private static Run run(final EngineConfig config, final List<byte[]> records, final long drainSeed, final int drainOneIn)
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
            assertEquals(records.size(), engine.lastSequence(), "every command settled");
            return new Run(log.bytes(), hash);
        }
    }

    private record Run(byte[] events, byte[] hash)
    {
    }

    @Property(tries = 16)
    void eventsAndStateDependOnTheCommandsAlone(@ForAll final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final boolean trading = random.nextBoolean();
        final List<byte[]> records = stream(seed, 1_500, trading);
        final int shards = 2 + random.nextInt(2);
        final int group = new int[]{1, 5, 64}[random.nextInt(3)];
        final EngineConfig config = config(trading, shards, group);
        final String what = (trading ? "trading" : "random") + " stream, " + shards + " shards, groups of " + group;

        final Run steady = run(config, records, 0, 0);
        final Run often = run(config, records, seed, 3);
        final Run seldom = run(config, records, ~seed, 40);
        assertArrayEquals(steady.events(), often.events(), "events with drains at other points: " + what);
        assertArrayEquals(steady.events(), seldom.events(), "events with drains at other points: " + what);
        assertArrayEquals(steady.hash(), often.hash(), "state hash: " + what);
        assertArrayEquals(steady.hash(), seldom.hash(), "state hash: " + what);
        eventsInCommandOrder(steady.events());
    }

    @Test
    void shardsMatchAndSettle()
    {
        final List<byte[]> records = stream(7, 3_000, true);
        final Run sharded = run(config(true, 3, 64), records, 1, 10);
        final int trades = count(sharded.events(), TradeDecoder.TEMPLATE_ID);
        assertTrue(trades > 500, "the stream trades on every shard: " + trades);
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

    private static int count(final byte[] events, final int templateId)
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
