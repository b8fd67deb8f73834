package io.venue.engine;

import io.venue.engine.state.EngineState;
import io.venue.engine.state.StoreFile;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recovery of a shard from its state folder and journals, in the states a crash can leave them in: events
 * written past what the state recorded (some of a command's events only), a missing state, an event journal that
 * disagrees with the replay, a state ahead of journals that lost their tails, and a map whose header is damaged.
 */
class ShardRecoveryTest
{
    private static final int COMMANDS = 3_000;
    private static final int STATE_AT = 1_000;
    private static final int CRASHED_AT = 1_400;

    @TempDir
    Path folder;

    private final List<String> log = new ArrayList<>();
    private final long[] replay = new long[4];
    private final ShardRecovery.Report report = new ShardRecovery.Report()
    {
        public void onStateRebuilt(final String reason)
        {
            log.add(reason);
        }

        public void onUnreadable(final long index, final long sequence)
        {
            log.add("unreadable " + index + " " + sequence);
        }

        public void onReplayed(final long commands, final long eventsMatched, final long eventsAppended,
            final long lastSequence)
        {
            replay[0] = commands;
            replay[1] = eventsMatched;
            replay[2] = eventsAppended;
            replay[3] = lastSequence;
        }
    };

    private EngineState.Context context()
    {
        return new EngineState.Context().directory(folder.resolve("state")).sizeFor(1_000, 10_000);
    }

    private static EngineConfig config()
    {
        return RandomStream.config().operator(EngineHarness.OPERATOR);
    }

    @Test
    void eventsWrittenBeforeACrashAreMatchedNotDuplicated() throws Exception
    {
        final EngineHarness reference = reference();
        final List<byte[]> records = reference.records();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender commandOut = commands.appender();
            records.forEach(r -> commandOut.append(new UnsafeBuffer(r), 0, r.length));

            // a clean run up to STATE_AT, the state on disk
            final JournalAppender eventOut = events.appender();
            try (PersistedEngine persisted = PersistedEngine.open(config(), new JournalEventSink(eventOut), context()))
            {
                for (int i = 0; i < STATE_AT; i++)
                {
                    apply(persisted.engine(), records.get(i));
                }
            }
            // then the process writes the events of more commands and dies before its state records them, and
            // before the events of the command it was applying reached the journal (they go as one excerpt)
            final Engine crashed = new Engine(config(), new EventSink()
            {
                public void onEvent(final DirectBuffer buffer, final int offset, final int length)
                {
                    final long sequence = JournalRecords.sequence(buffer, offset);
                    if (sequence > STATE_AT && sequence < CRASHED_AT)
                    {
                        eventOut.add(buffer, offset, length);
                    }
                }

                public void onCommandEnd()
                {
                    eventOut.commit();
                }
            });
            for (int i = 0; i < CRASHED_AT; i++)
            {
                apply(crashed, records.get(i));
            }

            final ShardRecovery recovery = ShardRecovery.recover(config(), context(), commands, events, report);
            assertTrue(log.isEmpty(), log.toString());
            assertEquals(records.size() - STATE_AT, replay[0], "only the commands after the state are replayed");
            assertTrue(replay[1] > 0, "events already journaled are matched");
            assertEquals(reference.engine.commandCount() > 0, replay[2] > 0);
            assertArrayEquals(reference.engine.stateHash(), recovery.engine().stateHash());
            recovery.state().close();
        }
        assertArrayEquals(reference.log.bytes(), journal(folder.resolve("events")), "no event lost, none twice");
    }

    @Test
    void aMissingStateIsRebuiltByAFullReplay() throws Exception
    {
        final EngineHarness reference = reference();
        final List<byte[]> records = reference.records();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender commandOut = commands.appender();
            records.forEach(r -> commandOut.append(new UnsafeBuffer(r), 0, r.length));
            final JournalAppender eventOut = events.appender();
            final Engine lost = new Engine(config(), new JournalEventSink(eventOut));
            for (final byte[] record : records)
            {
                apply(lost, record);
            }
            final ShardRecovery recovery = ShardRecovery.recover(config(), context(), commands, events, report);
            assertEquals(records.size(), replay[0]);
            assertEquals(0, replay[2], "every event was already in the journal");
            assertArrayEquals(reference.engine.stateHash(), recovery.engine().stateHash());
            recovery.state().close();
        }
        assertArrayEquals(reference.log.bytes(), journal(folder.resolve("events")));
    }

    @Test
    void aCommandTheEngineCannotReadIsReportedWithItsIndexAndSequence() throws Exception
    {
        final List<byte[]> records = reference().records();
        // the tenth command as a record of another schema version, which the engine refuses to read
        final byte[] foreign = records.get(9).clone();
        new UnsafeBuffer(foreign).putShort(6, (short)(MessageHeaderDecoder.SCHEMA_VERSION + 1),
            ByteOrder.LITTLE_ENDIAN);
        records.set(9, foreign);
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender commandOut = commands.appender();
            records.forEach(r -> commandOut.append(new UnsafeBuffer(r), 0, r.length));
            final long[] tenth = {-1};
            final JournalTailer tailer = commands.tailer();
            for (int i = 0; i < 10; i++)
            {
                tailer.read((buffer, offset, length, index) -> tenth[0] = index);
            }
            final ShardRecovery recovery = ShardRecovery.recover(config(), context(), commands, events, report);
            recovery.state().close();
            assertEquals(
                List.of("unreadable " + tenth[0] + " " + JournalRecords.sequence(new UnsafeBuffer(foreign), 0)),
                log.stream().filter(line -> line.startsWith("unreadable")).toList());
        }
    }

    @Test
    void anEventJournalThatDisagreesWithTheReplayStopsRecovery() throws Exception
    {
        final EngineHarness reference = reference();
        final List<byte[]> records = reference.records();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender commandOut = commands.appender();
            records.forEach(r -> commandOut.append(new UnsafeBuffer(r), 0, r.length));
            final JournalAppender eventOut = events.appender();
            // a run under another operator key wrote different events for the same commands
            final Engine other = new Engine(RandomStream.config().operator(EngineTest.BOB),
                new JournalEventSink(eventOut));
            for (int i = 0; i < 50; i++)
            {
                apply(other, records.get(i));
            }
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ShardRecovery.recover(config(), context(), commands, events, report));
            assertTrue(refused.getMessage().startsWith("the event journal disagrees with the replay at index"),
                refused.getMessage());
        }
    }

    @Test
    void eventsOfCommandsTheCommandJournalLostStopRecovery() throws Exception
    {
        final EngineHarness reference = reference();
        final List<byte[]> records = reference.records();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            // the host kept the events of every command but lost the command journal's last 100 records
            final JournalAppender commandOut = commands.appender();
            records.subList(0, records.size() - 100).forEach(r -> commandOut.append(new UnsafeBuffer(r), 0, r.length));
            final JournalAppender eventOut = events.appender();
            final Engine all = new Engine(config(), new JournalEventSink(eventOut));
            for (final byte[] record : records)
            {
                apply(all, record);
            }
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ShardRecovery.recover(config(), context(), commands, events, report));
            assertTrue(refused.getMessage().startsWith("the event journal holds events past the command journal's " +
                "end, from index"), refused.getMessage());
        }
    }

    private static EngineHarness reference()
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 99).setUp().run(COMMANDS - 16);
        assertTrue(h.engine.commandCount() >= COMMANDS - 16);
        return h;
    }

    /**
     * A state closed cleanly (maps forced to disk), then a power loss takes the journals' tails, which were not forced.
     */
    @Test
    void aStateAheadOfTheJournalsIsRebuiltFromThem() throws Exception
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 99).setUp().run(1_500);
        final List<byte[]> records = h.records();
        final int kept = records.size() - 100;
        // the clean run: every command applied, state closed cleanly at the last sequence
        try (PersistedEngine persisted = PersistedEngine.open(config(), (b, o, l) -> { }, context()))
        {
            records.forEach(r -> persisted.engine().onCommand(new UnsafeBuffer(r), 0, r.length));
        }
        // what survived on disk of the journals: the first `kept` commands and their events
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = commands.appender();
            final Engine eventsOf = new Engine(config(), new JournalEventSink(events.appender()));
            for (final byte[] r : records.subList(0, kept))
            {
                out.append(new UnsafeBuffer(r), 0, r.length);
                eventsOf.onCommand(new UnsafeBuffer(r), 0, r.length);
            }
            final long journalEnd = commands.lastSequence();
            final ShardRecovery recovery = ShardRecovery.recover(config(), context(), commands, events, report);
            assertEquals(journalEnd, recovery.engine().lastSequence());
            assertArrayEquals(eventsOf.stateHash(), recovery.engine().stateHash(),
                "the state of the journaled commands only");
            assertTrue(
                log.stream().anyMatch(l -> l.startsWith("the state holds the commands up to " + records.size()) &&
                l.endsWith("(their tails were lost): not used")), log.toString());
            recovery.state().close();
        }
    }

    /**
     * The other side of {@link #aStateAheadOfTheJournalsIsRebuiltFromThem}: after a clean stop whose last commands
     * wrote no events (refusals, a record of another schema version the engine does not read), the state is used as
     * it is.
     */
    @ParameterizedTest
    @CsvSource({"1,false", "2,false", "1,true"})
    void aCleanStopEndingInCommandsWithoutEventsKeepsItsState(final int shards, final boolean unreadable)
        throws Exception
    {
        final EngineConfig config = RandomStream.config().operator(EngineHarness.OPERATOR).shards(shards);
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 7).setUp().run(400);
        final List<byte[]> records = new ArrayList<>(h.records());
        long next = records.size() + 1;
        if (unreadable)
        {
            final UnsafeBuffer other = new UnsafeBuffer(records.get(records.size() - 1).clone());
            other.putLong(MessageHeaderEncoder.ENCODED_LENGTH, next++, ByteOrder.LITTLE_ENDIAN);
            other.putShort(6, (short)99, ByteOrder.LITTLE_ENDIAN); // the header's schema version
            records.add(other.byteArray());
        }
        records.add(refusal(next++));
        records.add(refusal(next));
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = commands.appender();
            try (PersistedEngine persisted = PersistedEngine.open(config,
                new JournalEventSink(events.appender()), context()))
            {
                for (final byte[] r : records)
                {
                    out.append(new UnsafeBuffer(r), 0, r.length);
                    persisted.engine().onCommand(new UnsafeBuffer(r), 0, r.length);
                }
                persisted.engine().drain();
                persisted.engine().flushEvents();
            }
            final ShardRecovery recovery = ShardRecovery.recover(config, context(), commands, events, report);
            assertEquals(next, recovery.engine().lastSequence());
            recovery.state().close();
        }
        assertTrue(log.stream().noneMatch(l -> l.contains("not used")), log.toString());
    }

    private static byte[] refusal(final long sequence)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        final RequestRejectedEncoder refusal = new RequestRejectedEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sequence(sequence).timestampMs(1).epoch(1).connectionId(3).correlationId(4)
            .reason(RequestRejectReason.values()[0]);
        refusal.putAccount(new byte[20], 0, 20).putDigest(new byte[32], 0, 32);
        refusal.detail("refused before the engine");
        final byte[] bytes = new byte[MessageHeaderEncoder.ENCODED_LENGTH + refusal.encodedLength()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /**
     * A map file of the right length whose Chronicle header is damaged: rebuilt by replay at once, not after
     * Chronicle's minute.
     */
    @Test
    void aMapFileWithADamagedHeaderIsRebuilt() throws Exception
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 5).setUp().run(600);
        final List<byte[]> records = h.records();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = commands.appender();
            try (PersistedEngine persisted = PersistedEngine.open(config(),
                new JournalEventSink(events.appender()), context()))
            {
                for (final byte[] r : records)
                {
                    out.append(new UnsafeBuffer(r), 0, r.length);
                    persisted.engine().onCommand(new UnsafeBuffer(r), 0, r.length);
                }
            }
            // damage the start of one map file in place, keeping its length (a bad sector, a stray write)
            final Path balances = folder.resolve("state").resolve(StoreFile.BALANCES.fileName());
            try (FileChannel ch = FileChannel.open(balances, StandardOpenOption.WRITE))
            {
                ch.write(ByteBuffer.wrap(new byte[256]), 0);
            }
            final ShardRecovery recovery = ShardRecovery.recover(config(), context(), commands, events, report);
            assertArrayEquals(h.engine.stateHash(), recovery.engine().stateHash());
            assertTrue(log.stream().anyMatch(l -> l.startsWith("MAP_FILE_CORRUPT")), log.toString());
            recovery.state().close();
        }
    }

    private static void apply(final Engine engine, final byte[] record)
    {
        engine.onCommand(new UnsafeBuffer(record), 0, record.length);
    }

    static byte[] journal(final Path eventsFolder)
    {
        final ExpandableArrayBuffer all = new ExpandableArrayBuffer(1 << 20);
        final int[] length = {0};
        try (Journal events = Journal.openReadOnly(eventsFolder))
        {
            final JournalTailer tailer = events.tailer();
            while (tailer.read((buffer, offset, recordLength, index) ->
            {
                all.putInt(length[0], recordLength);
                all.putBytes(length[0] + 4, buffer, offset, recordLength);
                length[0] += 4 + recordLength;
            }))
            {
                // to the end
            }
        }
        return Arrays.copyOf(all.byteArray(), length[0]);
    }
}
