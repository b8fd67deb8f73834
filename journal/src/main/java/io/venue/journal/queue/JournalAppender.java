package io.venue.journal.queue;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import io.venue.journal.JournalRecords;
import org.agrona.ExpandableDirectByteBuffer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;

/**
 * Appends records: the single writer of a journal. Not thread safe.
 * <p>
 * Each excerpt holds one or more records, each framed by its length ({@link Journal}). {@link #append} writes
 * one record as its own excerpt; {@link #add} stages records and {@link #commit} writes all of them as one excerpt
 * (the commands a sequencer had ready at once, the events of the commands an engine applied at once): one
 * Chronicle write for many records, which are in the journal all together or not at all.
 */
public final class JournalAppender
{
    /**
     * Writers that stage the records of many commands commit once the staged records reach this size, so that an
     * excerpt stays far below Chronicle's limit however many commands are ready at once.
     */
    public static final int BATCH_COMMIT_BYTES = 256 * 1024;

    private final ExcerptAppender appender;
    /**
     * Off the heap, so that a commit copies it into the mapped file with the JVM's memory-to-memory copy; from a heap
     * array Chronicle copies 16 bytes a loop iteration.
     */
    private final ExpandableDirectByteBuffer staged = new ExpandableDirectByteBuffer(4096);
    private int stagedLength;
    private int stagedRecords;
    /** Where the last record staged starts (its frame), to read its sequence at commit. */
    private int lastRecordFrame;

    private final WriteFront front;
    private final Supplier<File> currentFile;
    private final Path folder;

    /** The sequence of the last record committed (-1 when it has none); the writer's own. */
    private long committedSequence = -1;
    /** The file {@link #force} forces through, opened at the first force of each cycle, and its cycle. */
    private FileChannel forceChannel;
    private int forceCycle = Integer.MIN_VALUE;
    /** Set by a force that failed: the kernel may have dropped the pages it could not write, so none is tried again. */
    private IOException forceFailure;
    /** For metrics and tests on other threads: forces returned, and the last committed sequence they covered. */
    private volatile long forces;
    private volatile long forcedSequence;

    JournalAppender(final ExcerptAppender appender, final WriteFront front, final Path folder)
    {
        this.appender = appender;
        this.front = front;
        this.currentFile = appender::currentFile;
        this.folder = folder;
    }

    /**
     * Writes {@code buffer[offset, offset + length)} as one record in an excerpt of its own, with nothing staged
     * before it; returns its index.
     */
    public long append(final DirectBuffer buffer, final int offset, final int length)
    {
        if (stagedRecords != 0)
        {
            throw new IllegalStateException(stagedRecords + " records are staged: commit or discard them first");
        }
        add(buffer, offset, length);
        return commit();
    }

    /** Stages one record for the next {@link #commit}. */
    public void add(final DirectBuffer buffer, final int offset, final int length)
    {
        lastRecordFrame = stagedLength;
        staged.putInt(stagedLength, length, ByteOrder.LITTLE_ENDIAN);
        staged.putBytes(stagedLength + Journal.FRAME_HEADER, buffer, offset, length);
        stagedLength += Journal.FRAME_HEADER + length;
        stagedRecords++;
    }

    /**
     * Writes the staged records as one excerpt and clears them. A write that fails writes nothing readers see, clears
     * them too, and throws.
     *
     * @return the excerpt's index, or -1 when nothing was staged (no excerpt is written).
     */
    public long commit()
    {
        if (stagedRecords == 0)
        {
            return -1;
        }
        try (DocumentContext context = appender.writingDocument())
        {
            try
            {
                final var bytes = context.wire().bytes();
                if (stagedLength > bytes.writeRemaining())
                {
                    // the raw copy below does not check the excerpt's limit itself
                    throw new IllegalStateException(stagedLength + " bytes staged: more than an excerpt takes (" +
                        bytes.writeRemaining() + ")");
                }
                bytes.unsafeWrite(staged.addressOffset(), stagedLength);
                front.publish(appender.cycle(), currentFile, bytes.writePosition());
                front.publishMapping(bytes.bytesStore());
                committedSequence = JournalRecords.sequenceOrNone(staged, lastRecordFrame + Journal.FRAME_HEADER,
                    stagedLength - lastRecordFrame - Journal.FRAME_HEADER);
                return context.index();
            }
            catch (final Throwable ex)
            {
                // closed as it is, the excerpt would hold what the write left: readers would find it damaged
                context.rollbackOnClose();
                throw ex;
            }
        }
        finally
        {
            discard();
        }
    }

    /**
     * Forces every byte committed so far in the current cycle's file to stable storage ({@code fdatasync} of the file:
     * the excerpts, Chronicle's headers and index entries in it, and the file's length), and the folder's entry for
     * the file the first time a cycle is forced; returns once the disk has them. Excerpts of an earlier cycle were
     * forced by the force after them. The writer's thread only; no allocation but at the first force of a cycle.
     *
     * @throws UncheckedIOException when this or an earlier force failed: what was committed may not be on the disk,
     *                              and a retry cannot tell (a failed {@code fsync} may have dropped the pages).
     */
    public void force()
    {
        if (null != forceFailure)
        {
            throw new UncheckedIOException("an earlier force of the journal failed", forceFailure);
        }
        final long covered = committedSequence;
        try
        {
            final int cycle = appender.cycle();
            if (cycle != forceCycle)
            {
                openForCycle(cycle);
            }
            forceChannel.force(false);
        }
        catch (final IOException ex)
        {
            forceFailure = ex;
            throw new UncheckedIOException("forcing the journal in " + folder + " failed", ex);
        }
        forcedSequence = covered;
        forces = forces + 1;
    }

    private void openForCycle(final int cycle) throws IOException
    {
        final File file = appender.currentFile();
        if (null == file)
        {
            throw new IOException("no journal file to force: nothing was committed");
        }
        final FileChannel channel = FileChannel.open(file.toPath(), StandardOpenOption.WRITE);
        if (null != forceChannel)
        {
            forceChannel.close();
        }
        forceChannel = channel;
        forceCycle = cycle;
        // a new file is only found after a crash if its name in the folder is on the disk too
        try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ))
        {
            directory.force(true);
        }
    }

    /** Forces returned so far (metric {@code venue_journal_forces_total}); any thread. */
    public long forces()
    {
        return forces;
    }

    /** The sequence of the last record the last force covered, 0 before one; any thread. */
    public long forcedSequence()
    {
        return forcedSequence;
    }

    /** Closes the file {@link #force} forced through; by {@link Journal#close}. */
    void closeForcing()
    {
        if (null != forceChannel)
        {
            try
            {
                forceChannel.close();
            }
            catch (final IOException ignored)
            {
                // every force returned or threw already: closing loses nothing
            }
            forceChannel = null;
            forceCycle = Integer.MIN_VALUE;
        }
    }

    /** Drops the staged records without writing them. */
    public void discard()
    {
        stagedLength = 0;
        stagedRecords = 0;
    }

    /** The staged records as they would be written: framed, in {@link #staged()}{@code [0, stagedLength())}. */
    public DirectBuffer staged()
    {
        return staged;
    }

    public int stagedLength()
    {
        return stagedLength;
    }

    public int stagedRecords()
    {
        return stagedRecords;
    }
}
