package io.venue.replication;

import io.venue.codec.Hex;
import io.venue.engine.Engine;
import io.venue.engine.JournalEventSink;
import io.venue.engine.RandomCommands;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordCursor;
import io.venue.testing.ChildJvm;
import io.venue.testing.RecordFiles;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A primary and a standby appliance node in two JVMs over Aeron UDP on loopback, synchronous replication. The
 * primary is killed with SIGKILL in the middle of its load; the standby promotes itself and journals the rest
 * of the load under epoch 2. Then: every command the primary answered is in the standby's journal; the
 * standby's events are the primary's, byte for byte, for every command both applied, and a fresh replay of
 * the standby's own journal; its final state is that of the whole load applied once; and the old primary,
 * restarted, hears the new epoch and refuses to write.
 */
class FailoverTest
{
    private static final int STEPS = 20_000;

    @TempDir
    Path folder;

    @AfterEach
    void stopNodes() throws InterruptedException
    {
        ChildJvm.stopAll();
    }

    @Test
    void theStandbyTakesOverWithoutLosingAnAnsweredCommandAndTheOldPrimaryIsFenced() throws Exception
    {
        final List<byte[]> records = RandomCommands.generate(31, STEPS);
        final Path source = folder.resolve("source.bin");
        RecordFiles.write(records, source);
        final long lastOfSource = records.size();
        final String commandPort = String.valueOf(RecordFiles.freeUdpPort());
        final String replyPort = String.valueOf(RecordFiles.freeUdpPort());
        final Path primaryFolder = folder.resolve("primary");
        final Path standbyFolder = folder.resolve("standby");

        final ChildJvm standby = node("standby", standbyFolder, source, commandPort, replyPort);
        standby.awaitLine("FOLLOWING", 60);
        final ChildJvm primary = node("primary", primaryFolder, source, commandPort, replyPort);
        primary.awaitLine("ACK", 60);
        Thread.sleep(ThreadLocalRandom.current().nextInt(200, 1_500));
        assertTrue(primary.process.isAlive(), "the primary was still loading when killed: " + primary.lines);
        primary.process.destroyForcibly();
        assertTrue(primary.process.waitFor(30, TimeUnit.SECONDS));
        final long answered = primary.lastAcknowledged();
        assertTrue(answered > 0);

        final String promoted = standby.awaitLine("PROMOTED", 60);
        final String[] parts = promoted.split(" ");
        assertEquals("2", parts[1], "the new epoch");
        final long promotedAt = Long.parseLong(parts[2]);
        System.out.println("failover: answered through " + answered + ", standby held " + promotedAt + " at promotion");
        assertTrue(promotedAt >= answered,
            "answered through " + answered + " but the standby holds only " + promotedAt);
        assertTrue(promotedAt < lastOfSource, "the primary was killed before the end of its load");

        final String done = standby.awaitLine("DONE", 120);
        final byte[] reference = replay(records);
        assertEquals("DONE " + Hex.to0x(reference) + " " + lastOfSource, done, "the whole load, applied once");

        // the old primary comes back while the new one runs: fenced, it writes nothing
        final long primaryJournalEnd = lastSequence(primaryFolder.resolve("commands"));
        final ChildJvm restarted = node("primary", primaryFolder, source, commandPort, replyPort);
        final String fenced = restarted.awaitLine("FENCED", 60);
        assertEquals("FENCED 2", fenced);
        assertTrue(restarted.process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(3, restarted.process.exitValue(), restarted.lines.toString());
        assertEquals(primaryJournalEnd, lastSequence(primaryFolder.resolve("commands")),
            "the fenced primary appended nothing");

        Files.createFile(standbyFolder.resolve("stop"));
        assertTrue(standby.process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, standby.process.exitValue(), standby.lines.toString());

        // the standby's event journal is exactly a fresh replay of its own command journal
        final Path replayed = folder.resolve("replayed-events");
        try (Journal commands = Journal.openReadOnly(standbyFolder.resolve("commands"));
            Journal events = Journal.open(replayed))
        {
            final Engine engine = new Engine(RandomCommands.config(), new JournalEventSink(events.appender()));
            final JournalTailer tailer = commands.tailer();
            while (tailer.read((buffer, offset, length, index) -> engine.onCommand(buffer, offset, length)))
            {
                // to the end
            }
            assertArrayEquals(reference, engine.stateHash());
        }
        assertEquals(-1, firstDifference(standbyFolder.resolve("events"), replayed, Long.MAX_VALUE));
        // and the primary's events, for every command it applied before it died, are the standby's
        assertEquals(-1, firstDifference(primaryFolder.resolve("events"), standbyFolder.resolve("events"), promotedAt));
    }

    /** The state hash of the load applied by one engine without interruption. */
    private static byte[] replay(final List<byte[]> records)
    {
        final Engine engine = new Engine(RandomCommands.config(), (buffer, offset, length) -> { });
        for (final byte[] record : records)
        {
            engine.onCommand(new UnsafeBuffer(record), 0, record.length);
        }
        return engine.stateHash();
    }

    /**
     * Walks the first journal's events of commands up to {@code throughSequence} against the second's.
     *
     * @return -1 when they match (the first may end earlier), else the position of the first difference.
     */
    private static long firstDifference(final Path first, final Path second, final long throughSequence)
    {
        try (Journal a = Journal.openReadOnly(first); Journal b = Journal.openReadOnly(second))
        {
            final RecordCursor left = new RecordCursor(a.tailer());
            final RecordCursor right = new RecordCursor(b.tailer());
            final byte[][] current = new byte[1][];
            long position = 0;
            while (left.next((buffer, offset, length, index) ->
            {
                current[0] = JournalRecords.sequence(buffer, offset) > throughSequence ? null :
                    copy(buffer, offset, length);
            }))
            {
                if (current[0] == null)
                {
                    break;
                }
                final boolean[] same = {false};
                final boolean present = right.next((buffer, offset, length, index) ->
                    same[0] = Arrays.equals(current[0], copy(buffer, offset, length)));
                if (!present || !same[0])
                {
                    return position;
                }
                position++;
            }
            assertTrue(position > 0, "events compared");
            return -1;
        }
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static long lastSequence(final Path commandsFolder)
    {
        try (Journal commands = Journal.openReadOnly(commandsFolder))
        {
            assertTrue(commands.lastIndex() >= 0, "the journal holds commands");
            return commands.lastSequence();
        }
    }

    private static ChildJvm node(final String role, final Path nodeFolder, final Path source, final String commandPort,
        final String replyPort)
        throws IOException
    {
        return ChildJvm.start(ReplicaNode.class, role, nodeFolder.toString(), source.toString(), commandPort, replyPort,
            Hex.to0x(ReplicationRig.KEY));
    }
}
