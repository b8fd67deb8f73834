package io.venue.journal.queue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal on real Chronicle Queue files in a temporary folder.
 */
class JournalTest
{
    @TempDir
    Path folder;

    /**
     * A writer killed between making a day's file and writing its header leaves a file no excerpt can be in, on which
     * Chronicle waits for its header on every touch, and refuses to write that day. The next writer sets it aside.
     */
    @Test
    void aDayFileLeftWithoutItsHeaderIsSetAsideAndTheJournalGoesOn() throws Exception
    {
        final byte[] record = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        try (Journal journal = Journal.open(folder))
        {
            assertTrue(journal.setAside().isEmpty());
        }
        final String today = DateTimeFormatter.ofPattern("yyyyMMdd").withZone(ZoneOffset.UTC)
            .format(Instant.now()) + "F.cq4";
        Files.write(folder.resolve(today), new byte[64 * 1024]);
        assertTimeoutPreemptively(Duration.ofSeconds(8), () ->
        {
            try (Journal journal = Journal.open(folder))
            {
                assertEquals(List.of(folder.resolve(today + ".headerless")), journal.setAside());
                assertEquals(-1, journal.lastIndex());
                journal.appender().append(new UnsafeBuffer(record), 0, record.length);
            }
            try (Journal journal = Journal.openReadOnly(folder); JournalTailer tailer = journal.tailer())
            {
                final List<byte[]> read = new ArrayList<>();
                while (tailer.read((buffer, offset, length, index) ->
                {
                    final byte[] copy = new byte[length];
                    buffer.getBytes(offset, copy);
                    read.add(copy);
                }))
                {
                    // to the end
                }
                assertEquals(1, read.size());
                assertArrayEquals(record, read.get(0));
            }
        });
        assertTrue(Files.exists(folder.resolve(today + ".headerless")), "kept for whoever looks into it");
    }

    @Test
    void oneProcessWritesAJournal() throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the surefire JVM's own flags: the Chronicle exports and opens the child needs too
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle"))
            {
                command.add(argument);
            }
        }
        command.addAll(
            List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
            Writer.class.getName(), folder.toString()));
        final Process writer = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(),
                StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals("OPEN"))
            {
                // the child's start-up lines
            }
            assertEquals("OPEN", line);
            final IllegalStateException refused = Assertions.assertThrows(IllegalStateException.class,
                () -> Journal.open(folder));
            assertTrue(refused.getMessage().contains("another process writes the journal"), refused.getMessage());
            try (Journal reader = Journal.openReadOnly(folder))
            {
                assertEquals(-1, reader.lastIndex(), "a reader is never refused");
            }
        }
        finally
        {
            writer.destroyForcibly();
            writer.waitFor();
        }
        // the lock dies with its process; in one process, a folder may be open twice
        try (Journal first = Journal.open(folder); Journal second = Journal.open(folder))
        {
            assertTrue(first.setAside().isEmpty() && second.setAside().isEmpty());
        }
    }

    /** The other process of {@link #oneProcessWritesAJournal}: holds the journal open for writing until killed. */
    static final class Writer
    {
        public static void main(final String[] args) throws Exception
        {
            final Journal journal = Journal.open(Path.of(args[0]));
            System.out.println("OPEN");
            System.out.flush();
            Thread.sleep(60_000);
            journal.close();
        }
    }

    @Test
    void recordsComeBackByteForByteInOrderAndAfterReopening()
    {
        final Random random = new Random(7);
        final List<byte[]> written = new ArrayList<>();
        final List<Long> indexes = new ArrayList<>();
        try (Journal journal = Journal.open(folder))
        {
            assertEquals(-1, journal.lastIndex());
            final JournalAppender appender = journal.appender();
            for (int i = 0; i < 1_000; i++)
            {
                final byte[] record = new byte[1 + random.nextInt(600)];
                random.nextBytes(record);
                written.add(record);
                // heap and off-heap sources, at an offset
                final UnsafeBuffer source = i % 2 == 0 ?
                    new UnsafeBuffer(new byte[record.length + 5]) : new UnsafeBuffer(
                        ByteBuffer.allocateDirect(record.length + 5));
                source.putBytes(5, record);
                indexes.add(appender.append(source, 5, record.length));
            }
            assertEquals(indexes.get(indexes.size() - 1), journal.lastIndex());
        }
        for (int i = 1; i < indexes.size(); i++)
        {
            assertTrue(indexes.get(i) > indexes.get(i - 1), "indexes grow");
        }

        try (Journal journal = Journal.openReadOnly(folder))
        {
            final JournalTailer tailer = journal.tailer();
            final List<byte[]> read = new ArrayList<>();
            final List<Long> readIndexes = new ArrayList<>();
            while (tailer.read((buffer, offset, length, index) ->
            {
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                read.add(copy);
                readIndexes.add(index);
            }))
            {
                // reads until the end
            }
            assertEquals(written.size(), read.size());
            for (int i = 0; i < written.size(); i++)
            {
                assertArrayEquals(written.get(i), read.get(i));
            }
            assertEquals(indexes, readIndexes);

            assertTrue(tailer.moveToIndex(indexes.get(500)));
            final byte[][] again = new byte[1][];
            assertTrue(tailer.read((buffer, offset, length, index) ->
            {
                again[0] = new byte[length];
                buffer.getBytes(offset, again[0]);
            }));
            assertArrayEquals(written.get(500), again[0]);
            assertEquals(999, tailer.read((buffer, offset, length, index) -> { }, 10_000) + 500);
            assertFalse(tailer.read((buffer, offset, length, index) -> { }));
        }
    }
}
