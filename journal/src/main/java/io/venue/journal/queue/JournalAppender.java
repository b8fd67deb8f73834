package io.venue.journal.queue;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

import java.io.File;
import java.nio.ByteOrder;
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

    private final WriteFront front;
    private final Supplier<File> currentFile;

    JournalAppender(final ExcerptAppender appender, final WriteFront front)
    {
        this.appender = appender;
        this.front = front;
        this.currentFile = appender::currentFile;
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
