package io.venue.journal.queue;

import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.posix.internal.noop.NoOpPosixAPI;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A pretoucher running on its own thread beside a writer: every record comes back as written (its touches change
 * no byte and add no excerpt), it touches pages ahead of the writer, and it follows the writer into the next
 * cycle's file at a roll.
 */
class JournalPretoucherTest
{
    @TempDir
    Path folder;

    @Test
    void recordsWrittenBesideThePretoucherComeBackExactlyAndPagesAheadAreTouched() throws Exception
    {
        final Random random = new Random(5);
        final List<byte[]> written = new ArrayList<>();
        try (Journal journal = Journal.open(folder))
        {
            final JournalPretoucher pretoucher = new JournalPretoucher(
                new JournalPretoucher.Context().aheadBytes(1 << 20))
                .follow(journal);
            final AgentRunner runner = start(pretoucher);
            try
            {
                final JournalAppender appender = journal.appender();
                final UnsafeBuffer source = new UnsafeBuffer(new byte[512]);
                for (int i = 0; i < 40_000; i++)
                {
                    final byte[] record = new byte[1 + random.nextInt(400)];
                    random.nextBytes(record);
                    source.putBytes(0, record);
                    appender.append(source, 0, record.length);
                    written.add(record);
                    if (i == 0)
                    {
                        awaitTouched(pretoucher, 1);
                    }
                    else if (i % 10_000 == 0)
                    {
                        Thread.sleep(5); // room for the pretoucher to run beside the writer
                    }
                }
                // the 1 MiB ahead of the first record and the 1 MiB ahead of the last, 256 pages each
                awaitTouched(pretoucher, 512);
            }
            finally
            {
                runner.close();
            }
            // the 1 MiB ahead of the first record and the 1 MiB ahead of the last, megabytes apart
            assertTrue(pretoucher.pagesTouched() >= 512,
                "pages ahead of the writer were touched: " + pretoucher.pagesTouched());
            assertEquals(0, pretoucher.failures());
            assertZeroAfter(journal.writeFront().file(), journal.writeFront().position(), 1 << 20);
            final List<byte[]> read = new ArrayList<>();
            try (JournalTailer tailer = journal.tailer())
            {
                while (tailer.read((buffer, offset, length, index) ->
                {
                    final byte[] record = new byte[length];
                    buffer.getBytes(offset, record);
                    read.add(record);
                }))
                {
                    // every excerpt
                }
            }
            assertEquals(written.size(), read.size(), "no excerpt added or lost");
            for (int i = 0; i < written.size(); i++)
            {
                assertArrayEquals(written.get(i), read.get(i), "record " + i);
            }
        }
    }

    @Test
    void itFollowsTheWriterIntoTheNextCyclesFile() throws Exception
    {
        final SetTimeProvider clock = new SetTimeProvider(TimeUnit.SECONDS.toNanos(1_800_000_000L));
        try (Journal journal = Journal.openRollingEveryFiveMinutes(folder, clock))
        {
            final JournalPretoucher pretoucher = new JournalPretoucher(new JournalPretoucher.Context()).follow(journal);
            final AgentRunner runner = start(pretoucher);
            try
            {
                final JournalAppender appender = journal.appender();
                final UnsafeBuffer record = new UnsafeBuffer(new byte[64]);
                appender.append(record, 0, 64);
                final File first = awaitFollowing(pretoucher, null);
                final long touchedInFirst = awaitTouched(pretoucher, 1);
                clock.advanceMillis(5 * 60_000);
                appender.append(record, 0, 64);
                final File second = awaitFollowing(pretoucher, first);
                assertNotEquals(first, second);
                assertTrue(awaitTouched(pretoucher, touchedInFirst + 1) > touchedInFirst,
                    "the new file's pages are touched");
            }
            finally
            {
                runner.close();
            }
            try (JournalTailer tailer = journal.tailer())
            {
                int excerpts = 0;
                while (tailer.read((buffer, offset, length, index) -> { }))
                {
                    excerpts++;
                }
                assertEquals(2, excerpts);
            }
        }
    }

    @Test
    void aFileItCannotOpenIsReportedOnceAndTheNextFileIsTouched() throws Exception
    {
        final List<Throwable> reported = new ArrayList<>();
        final WriteFront front = new WriteFront();
        final JournalPretoucher pretoucher = new JournalPretoucher(
            new JournalPretoucher.Context().errorHandler(reported::add))
            .follow(front);
        front.publish(1, () -> folder.resolve("gone.cq4").toFile(), 4096);
        assertEquals(0, pretoucher.doWork());
        assertEquals(0, pretoucher.doWork(), "no error loop: the file is left alone");
        assertEquals(1, pretoucher.failures());
        assertEquals(1, reported.size());
        assertTrue(reported.get(0).getMessage().contains("gone.cq4"), reported.get(0).getMessage());

        final File next = folder.resolve("next.cq4").toFile();
        try (RandomAccessFile file = new RandomAccessFile(next, "rw"))
        {
            file.setLength(1 << 20);
        }
        front.publish(2, () -> next, 0);
        assertEquals(256, pretoucher.doWork(), "the next file's first 1 MiB, at most 256 pages a duty cycle");
        assertEquals(1, pretoucher.failures());
        pretoucher.onClose();
    }

    /**
     * Page tables are the process's: pages the pretoucher populated in the writer's own mapping cost the writer no
     * fault, where pages it touched through its own mapping still cost one each on this kernel and file system. Counted
     * with the writing thread's minor faults (Linux), over 2,048 pages written one excerpt a page, after the
     * pretoucher has done the 16 MiB ahead of the writer; the two ways compared in one run.
     */
    @Test
    void theWriterTakesFarFewerFaultsWhenThePretoucherPopulatesItsOwnMapping() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "per-thread fault counts are Linux's");
        final JournalPretoucher populating = new JournalPretoucher(
            new JournalPretoucher.Context().aheadBytes(16 << 20));
        assumeTrue(populating.populatesWriterMappings(),
            "this kernel cannot populate another thread's mapping (Linux 5.14+)");
        final long touchedElsewhere = writerFaultsOverPages(folder.resolve("own-mapping"),
            new JournalPretoucher(new JournalPretoucher.Context().aheadBytes(16 << 20).populateWriterMappings(false)),
            2_048);
        assumeTrue(touchedElsewhere > 256,
            "this file system maps written pages without a fault each (" + touchedElsewhere +
            " faults over 2,048 pages): nothing to compare");
        final long populated = writerFaultsOverPages(folder.resolve("populated"), populating, 2_048);
        assertTrue(populated * 8 < touchedElsewhere,
            "the writer faulted " + populated + " times over 2,048 populated pages, " + touchedElsewhere +
            " over pages touched elsewhere");
    }

    /**
     * Which native access counts as able to populate: the library's no-op stand-in, whose every call succeeds,
     * does not.
     */
    @Test
    void aLibraryThatOnlyPretendsToCallTheKernelIsNotTakenForOne()
    {
        assertFalse(WriterPages.supports(new NoOpPosixAPI("a test")));
        assertFalse(WriterPages.supports(null));
    }

    /**
     * Writes one excerpt, waits until the pretoucher has done the 16 MiB ahead, then counts this thread's minor faults
     * over {@code pages} more.
     */
    private static long writerFaultsOverPages(final Path folder, final JournalPretoucher pretoucher, final int pages)
        throws Exception
    {
        try (Journal journal = Journal.open(folder))
        {
            pretoucher.follow(journal);
            final AgentRunner runner = start(pretoucher);
            try
            {
                final JournalAppender appender = journal.appender();
                // an excerpt a page: the record, its frame and Chronicle's header fill 4,096 bytes
                final UnsafeBuffer record = new UnsafeBuffer(new byte[4096 - Journal.FRAME_HEADER - 4]);
                appender.append(record, 0, record.capacity());
                awaitTouched(pretoucher, (16 << 20) / 4096);
                final long before = minorFaultsOfThisThread();
                for (int i = 0; i < pages; i++)
                {
                    appender.append(record, 0, record.capacity());
                }
                return minorFaultsOfThisThread() - before;
            }
            finally
            {
                runner.close();
            }
        }
    }

    /** Field 10 of /proc/thread-self/stat, counted after the command name's closing parenthesis. */
    private static long minorFaultsOfThisThread() throws IOException
    {
        final String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    }

    @Test
    void contextRefusesSizesItCannotServe()
    {
        assertThrows(IllegalArgumentException.class, () -> new JournalPretoucher.Context().aheadBytes(100));
        assertThrows(IllegalArgumentException.class, () -> new JournalPretoucher.Context().aheadBytes(1L << 30));
        assertThrows(IllegalArgumentException.class, () -> new JournalPretoucher.Context().pagesPerDutyCycle(0));
        assertThrows(NullPointerException.class, () -> new JournalPretoucher.Context().errorHandler(null));
    }

    private static AgentRunner start(final JournalPretoucher pretoucher)
    {
        final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace,
            null, pretoucher);
        AgentRunner.startOnThread(runner);
        return runner;
    }

    /** The bytes the writer has not reached, which the pretoucher touched, are still all zero. */
    private static void assertZeroAfter(final File file, final long position, final int length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file.toPath()))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(length);
            channel.read(bytes, position);
            bytes.flip();
            assertTrue(bytes.remaining() > 4096, "the file reaches past the writer: " + bytes.remaining());
            while (bytes.hasRemaining())
            {
                final int at = bytes.position();
                assertEquals(0, bytes.get(), "byte " + (position + at) + " after the writer");
            }
        }
    }

    private static long awaitTouched(final JournalPretoucher pretoucher, final long atLeast) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pretoucher.pagesTouched() < atLeast && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertTrue(pretoucher.pagesTouched() >= atLeast,
            "touched " + pretoucher.pagesTouched() + ", expected " + atLeast);
        return pretoucher.pagesTouched();
    }

    private static File awaitFollowing(final JournalPretoucher pretoucher, final File other) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((pretoucher.following(0) == null || pretoucher.following(0).equals(other)) &&
            System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        final File file = pretoucher.following(0);
        assertTrue(file != null && !file.equals(other), "following " + file);
        return file;
    }
}
