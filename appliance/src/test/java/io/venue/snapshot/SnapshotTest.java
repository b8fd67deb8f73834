package io.venue.snapshot;

import io.venue.engine.Engine;
import io.venue.engine.EngineAgent;
import io.venue.engine.JournalEventSink;
import io.venue.engine.PersistedEngine;
import io.venue.engine.RandomCommands;
import io.venue.engine.ShardRecovery;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateUnusableException;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots on real files: a shard writes them as it runs; a shard whose state folder is lost comes back from
 * the newest one plus the journal's tail, with the state and events of an uninterrupted run; a damaged one is
 * reported and an older one used; and no single damaged byte of a snapshot file goes unnoticed.
 */
class SnapshotTest
{
    private static final int EVERY = 500;

    @TempDir
    Path folder;

    private final List<String> reports = new ArrayList<>();

    @Test
    void aShardWhoseStateIsLostComesBackFromItsNewestSnapshotAndTheJournalsTail() throws Exception
    {
        final List<byte[]> records = RandomCommands.generate(23, 2_400);
        final byte[] reference = run(records);
        final List<Path> snapshots = SnapshotFiles.newestFirst(folder.resolve("snapshots"));
        assertEquals(2, snapshots.size(), "the newest two are kept: " + snapshots);
        final long newest = SnapshotFiles.sequenceOf(snapshots.get(0));
        assertTrue(newest > records.size() - EVERY - 20 && newest <= records.size(), "newest at " + newest);

        deleteState();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final ShardRecovery recovery = recover(commands, events);
            assertArrayEquals(reference, recovery.engine().stateHash());
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("loaded " + snapshots.get(0).getFileName())),
                reports.toString());
            assertEquals("replayed " + (records.size() - newest) + " appended 0", reports.get(reports.size() - 1),
                "only the tail is replayed, every event of it already journaled");
            recovery.state().close();
        }
    }

    @Test
    void aDamagedSnapshotIsReportedAndTheOneBeforeItUsed() throws Exception
    {
        final List<byte[]> records = RandomCommands.generate(29, 1_800);
        final byte[] reference = run(records);
        final List<Path> snapshots = SnapshotFiles.newestFirst(folder.resolve("snapshots"));
        final byte[] bytes = Files.readAllBytes(snapshots.get(0));
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(snapshots.get(0), bytes);

        deleteState();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final ShardRecovery recovery = recover(commands, events);
            assertArrayEquals(reference, recovery.engine().stateHash());
            assertTrue(reports.stream().anyMatch(r -> r.contains(snapshots.get(0).getFileName() + " is damaged")),
                reports.toString());
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("loaded " + snapshots.get(1).getFileName())),
                reports.toString());
            recovery.state().close();
        }
    }

    @Test
    void aSnapshotPastTheEventJournalsEndIsPassedOverAndTheLostEventsAreWrittenAgain() throws Exception
    {
        final List<byte[]> records = RandomCommands.generate(41, 2_400);
        final byte[] reference = run(records);
        final List<Path> snapshots = SnapshotFiles.newestFirst(folder.resolve("snapshots"));
        final long newest = SnapshotFiles.sequenceOf(snapshots.get(0));
        final long older = SnapshotFiles.sequenceOf(snapshots.get(1));
        // a host crash kept the newest snapshot (forced to disk) but not the event journal's tail after it
        final long keptThrough = (older + newest) / 2;
        try (Journal events = Journal.open(folder.resolve("events"));
            Journal cut = Journal.open(folder.resolve("events-cut")))
        {
            final JournalAppender out = cut.appender();
            final JournalTailer tailer = events.tailer();
            final boolean[] past = {false};
            while (!past[0] && tailer.read((buffer, offset, length, index) ->
            {
                if (JournalRecords.sequence(buffer, offset) > keptThrough)
                {
                    past[0] = true;
                    return;
                }
                out.add(buffer, offset, length);
            }))
            {
                if (past[0])
                {
                    out.discard();
                }
                else
                {
                    out.commit();
                }
            }
        }
        deleteState();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events-cut")))
        {
            final ShardRecovery recovery = recover(commands, events);
            assertArrayEquals(reference, recovery.engine().stateHash());
            assertTrue(reports.stream().anyMatch(r -> r.startsWith(snapshots.get(0).getFileName() + " is past the " +
                "journals' end")), reports.toString());
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("loaded " + snapshots.get(1).getFileName())),
                reports.toString());
            recovery.state().close();
        }
        assertArrayEquals(eventBytes(folder.resolve("events")), eventBytes(folder.resolve("events-cut")),
            "the events the crash took are written again, the same bytes");
    }

    private static byte[] eventBytes(final Path journal)
    {
        final ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (Journal events = Journal.openReadOnly(journal))
        {
            final JournalTailer tailer = events.tailer();
            while (tailer.read((buffer, offset, length, index) ->
            {
                final byte[] record = new byte[length];
                buffer.getBytes(offset, record);
                all.writeBytes(record);
            }))
            {
                // to the end
            }
        }
        return all.toByteArray();
    }

    @Test
    void aSnapshotNamedAfterRefusedRequestsThatWroteNoEventsIsUsed() throws Exception
    {
        // random commands, then ten requests refused before the engine, which write no events; a snapshot after them is
        // past the event journal's last sequence, yet every event up to it is there (with several shards a snapshot
        // can be taken just after such a request settles)
        final List<byte[]> records = new ArrayList<>(RandomCommands.generate(43, 600));
        long sequence = JournalRecords.sequence(new UnsafeBuffer(records.get(records.size() - 1)), 0);
        for (int i = 0; i < 10; i++)
        {
            final RequestRejectedEncoder e = new RequestRejectedEncoder()
                .wrapAndApplyHeader(new UnsafeBuffer(new byte[256]), 0, new MessageHeaderEncoder())
                .sequence(++sequence).timestampMs(1_763_000_000_000L).epoch(1).connectionId(3).correlationId(4)
                .reason(RequestRejectReason.values()[0]);
            e.putAccount(new byte[20], 0, 20).putDigest(new byte[32], 0, 32);
            e.detail("bad signature");
            final byte[] record = new byte[MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength()];
            e.buffer().getBytes(0, record);
            records.add(record);
        }
        final Path snapshot;
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events"));
            PersistedEngine persisted = PersistedEngine.open(RandomCommands.config(),
                new JournalEventSink(events.appender()), context(folder.resolve("state"))))
        {
            final JournalAppender out = commands.appender();
            for (final byte[] record : records)
            {
                out.append(new UnsafeBuffer(record), 0, record.length);
                persisted.engine().onCommand(new UnsafeBuffer(record), 0, record.length);
            }
            persisted.engine().flushEvents();
            persisted.engine().flushState();
            snapshot = SnapshotWriter.write(persisted.state(), folder.resolve("snapshots"));
        }
        assertEquals(sequence, SnapshotFiles.sequenceOf(snapshot));

        deleteState();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final ShardRecovery recovery = recover(commands, events);
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("loaded " + snapshot.getFileName())),
                reports.toString());
            assertEquals("replayed 0 appended 0", reports.get(reports.size() - 1), reports.toString());
            recovery.state().close();
        }
    }

    @Test
    void everyDamagedByteAndEveryCutIsNoticed() throws Exception
    {
        final List<byte[]> records = RandomCommands.generate(37, 600);
        final Path state = folder.resolve("state");
        final Path written;
        final byte[] hash;
        try (PersistedEngine persisted = PersistedEngine.open(RandomCommands.config(), (b, o, l) -> { },
            context(state)))
        {
            records.forEach(r -> persisted.engine().onCommand(new UnsafeBuffer(r), 0, r.length));
            persisted.engine().flushState();
            written = SnapshotWriter.write(persisted.state(), folder.resolve("snapshots"));
            hash = persisted.engine().stateHash();
        }
        final byte[] good = Files.readAllBytes(written);
        final Path load = folder.resolve("load");

        // whole: the loaded state opens as the engine that wrote it
        try (EngineState empty = EngineState.openEmpty(context(load)))
        {
            assertEquals(records.size(), SnapshotReader.load(written, empty));
        }
        try (PersistedEngine loaded = PersistedEngine.open(RandomCommands.config(), (b, o, l) -> { }, context(load)))
        {
            assertArrayEquals(hash, loaded.engine().stateHash());
        }

        final SplittableRandom random = new SplittableRandom(3);
        final Path damaged = folder.resolve("damaged").resolve(written.getFileName());
        Files.createDirectories(damaged.getParent());
        for (int trial = 0; trial < 60; trial++)
        {
            final byte[] bytes;
            if (trial % 3 == 0)
            {
                bytes = Arrays.copyOf(good, random.nextInt(good.length));
            }
            else
            {
                bytes = good.clone();
                bytes[random.nextInt(bytes.length)] ^= (byte)(1 << random.nextInt(8));
            }
            Files.write(damaged, bytes);
            try (EngineState empty = EngineState.openEmpty(context(load)))
            {
                assertThrows(SnapshotDamagedException.class, () -> SnapshotReader.load(damaged, empty),
                    "trial " + trial);
            }
        }
    }

    /** Journals and applies the records with snapshots every EVERY commands; returns the final state hash. */
    private byte[] run(final List<byte[]> records) throws StateUnusableException
    {
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final ShardRecovery recovery = recover(commands, events);
            final EngineAgent agent = new EngineAgent(recovery.engine(), recovery.commands(), 256)
                .snapshots(recovery.state(), folder.resolve("snapshots"), EVERY, 2);
            final JournalAppender out = commands.appender();
            for (final byte[] record : records)
            {
                out.append(new UnsafeBuffer(record), 0, record.length);
                agent.doWork();
            }
            while (agent.doWork() > 0)
            {
                // to the end
            }
            assertNull(agent.lastSnapshotFailure());
            assertTrue(agent.snapshotsWritten() >= records.size() / EVERY - 1);
            final byte[] hash = recovery.engine().stateHash();
            final Engine reference = new Engine(RandomCommands.config(), (b, o, l) -> { });
            records.forEach(r -> reference.onCommand(new UnsafeBuffer(r), 0, r.length));
            assertArrayEquals(reference.stateHash(), hash);
            recovery.engine().flushState();
            recovery.state().close();
            reports.clear();
            return hash;
        }
    }

    private ShardRecovery recover(final Journal commands, final Journal events) throws StateUnusableException
    {
        return ShardRecovery.recover(RandomCommands.config(), context(folder.resolve("state")),
            folder.resolve("snapshots"), commands, events, new ShardRecovery.Report()
            {
                public void onStateRebuilt(final String reason)
                {
                    reports.add(reason);
                }

                public void onUnreadable(final long index, final long sequence)
                {
                    reports.add("unreadable command at index " + index);
                }

                public void onReplayed(final long commands, final long matched, final long appended, final long last)
                {
                    reports.add("replayed " + commands + " appended " + appended);
                }
            });
    }

    private static EngineState.Context context(final Path state)
    {
        return new EngineState.Context().directory(state).sizeFor(1_000, 10_000);
    }

    private void deleteState() throws Exception
    {
        try (Stream<Path> files = Files.walk(folder.resolve("state")))
        {
            for (final Path file : files.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(file);
            }
        }
    }
}
