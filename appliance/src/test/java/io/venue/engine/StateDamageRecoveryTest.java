package io.venue.engine;

import io.venue.engine.state.EngineState;
import io.venue.engine.state.StoreFile;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recovery from a state that cannot be trusted as it stands: a map file whose header is damaged, and a state ahead of
 * journals that lost their tails. Both are rebuilt by replay, with a line saying why.
 */
class StateDamageRecoveryTest
{
    @TempDir
    Path folder;

    private final List<String> log = new ArrayList<>();
    private final ShardRecovery.Report report = new ShardRecovery.Report()
    {
        public void onStateRebuilt(final String reason)
        {
            log.add(reason);
        }

        public void onUnreadable(final long index, final long sequence)
        {
            log.add("unreadable " + index);
        }

        public void onReplayed(final long commands, final long matched, final long appended, final long last)
        {
            log.add("replayed " + commands + " last " + last);
        }
    };

    private EngineState.Context context(final String name)
    {
        return new EngineState.Context().directory(folder.resolve(name)).sizeFor(1_000, 10_000);
    }

    private static EngineConfig config()
    {
        return RandomStream.config().operator(EngineHarness.OPERATOR);
    }

    /** A state closed cleanly (maps forced to disk), then a power loss takes the journals' tails, which were not forced. */
    @Test
    void aStateAheadOfTheJournalsIsRebuiltFromThem() throws Exception
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 99).setUp().run(1_500);
        final List<byte[]> records = h.records();
        final int kept = records.size() - 100;
        // the clean run: every command applied, state closed cleanly at the last sequence
        try (PersistedEngine persisted = PersistedEngine.open(config(), (b, o, l) -> { }, context("state")))
        {
            records.forEach(r -> persisted.engine().onCommand(new UnsafeBuffer(r), 0, r.length));
        }
        // what survived on disk of the journals: the first `kept` commands and their events
        try (Journal commands = Journal.open(folder.resolve("commands")); Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = commands.appender();
            final Engine eventsOf = new Engine(config(), new JournalEventSink(events.appender()));
            for (final byte[] r : records.subList(0, kept))
            {
                out.append(new UnsafeBuffer(r), 0, r.length);
                eventsOf.onCommand(new UnsafeBuffer(r), 0, r.length);
            }
            final long journalEnd = commands.lastSequence();
            final ShardRecovery recovery = ShardRecovery.recover(config(), context("state"), commands, events, report);
            assertEquals(journalEnd, recovery.engine().lastSequence());
            assertArrayEquals(eventsOf.stateHash(), recovery.engine().stateHash(), "the state of the journaled commands only");
            assertTrue(log.stream().anyMatch(l -> l.startsWith("the state holds the commands up to " + records.size()) &&
                l.endsWith("(their tails were lost): not used")), log.toString());
            recovery.state().close();
        }
    }

    /**
     * The other side of {@link #aStateAheadOfTheJournalsIsRebuiltFromThem}: after a clean stop whose last commands wrote no
     * events (refusals, a record of another schema version the engine does not read), the state is used as it is.
     */
    @ParameterizedTest
    @CsvSource({"1,false", "2,false", "1,true"})
    void aCleanStopEndingInCommandsWithoutEventsKeepsItsState(final int shards, final boolean unreadable) throws Exception
    {
        final EngineConfig config = RandomStream.config().operator(EngineHarness.OPERATOR).shards(shards);
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 7).setUp().run(400);
        final List<byte[]> records = new ArrayList<>(h.records());
        long next = records.size() + 1;
        if (unreadable)
        {
            final UnsafeBuffer other = new UnsafeBuffer(records.get(records.size() - 1).clone());
            other.putLong(MessageHeaderEncoder.ENCODED_LENGTH, next++, java.nio.ByteOrder.LITTLE_ENDIAN);
            other.putShort(6, (short)99, java.nio.ByteOrder.LITTLE_ENDIAN); // the header's schema version
            records.add(other.byteArray());
        }
        records.add(refusal(next++));
        records.add(refusal(next));
        try (Journal commands = Journal.open(folder.resolve("commands")); Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = commands.appender();
            try (PersistedEngine persisted = PersistedEngine.open(config, new JournalEventSink(events.appender()), context("state")))
            {
                for (final byte[] r : records)
                {
                    out.append(new UnsafeBuffer(r), 0, r.length);
                    persisted.engine().onCommand(new UnsafeBuffer(r), 0, r.length);
                }
                persisted.engine().drain();
                persisted.engine().flushEvents();
            }
            final ShardRecovery recovery = ShardRecovery.recover(config, context("state"), commands, events, report);
            assertEquals(next, recovery.engine().lastSequence());
            recovery.state().close();
        }
        assertTrue(log.stream().noneMatch(l -> l.contains("not used")), log.toString());
    }

    private static byte[] refusal(final long sequence)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        final RequestRejectedEncoder refusal = new RequestRejectedEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sequence(sequence).timestampMs(1).epoch(1).connectionId(3).correlationId(4).reason(RequestRejectReason.values()[0]);
        refusal.putAccount(new byte[20], 0, 20).putDigest(new byte[32], 0, 32);
        refusal.detail("refused before the engine");
        final byte[] bytes = new byte[MessageHeaderEncoder.ENCODED_LENGTH + refusal.encodedLength()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** A map file of the right length whose Chronicle header is damaged: rebuilt by replay at once, not after Chronicle's minute. */
    @Test
    void aMapFileWithADamagedHeaderIsRebuilt() throws Exception
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 5).setUp().run(600);
        final List<byte[]> records = h.records();
        try (Journal commands = Journal.open(folder.resolve("commands")); Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = commands.appender();
            try (PersistedEngine persisted = PersistedEngine.open(config(), new JournalEventSink(events.appender()), context("state")))
            {
                for (final byte[] r : records)
                {
                    out.append(new UnsafeBuffer(r), 0, r.length);
                    persisted.engine().onCommand(new UnsafeBuffer(r), 0, r.length);
                }
            }
            // damage the start of one map file in place, keeping its length (a bad sector, a stray write)
            final Path balances = folder.resolve("state").resolve(StoreFile.BALANCES.fileName());
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(balances, java.nio.file.StandardOpenOption.WRITE))
            {
                ch.write(java.nio.ByteBuffer.wrap(new byte[256]), 0);
            }
            final ShardRecovery recovery = ShardRecovery.recover(config(), context("state"), commands, events, report);
            assertArrayEquals(h.engine.stateHash(), recovery.engine().stateHash());
            assertTrue(log.stream().anyMatch(l -> l.startsWith("MAP_FILE_CORRUPT")), log.toString());
            recovery.state().close();
        }
    }
}
