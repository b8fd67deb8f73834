package io.venue.journal.queue;

import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Where a journal's writer is: the queue file of its current cycle and the byte position after its last excerpt.
 * The writer publishes it after every excerpt (a release store, no fence on the write path); a
 * {@link JournalPretoucher} on another thread reads it to fault in the pages ahead.
 */
final class WriteFront
{
    private static final VarHandle POSITION;

    static
    {
        try
        {
            POSITION = MethodHandles.lookup().findVarHandle(WriteFront.class, "position", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private volatile File file;
    private int cycle = Integer.MIN_VALUE;
    @SuppressWarnings("unused")
    private long position;

    /** By the writer, after each excerpt: {@code currentFile} is asked only when the cycle changed (a roll). */
    void publish(final int writerCycle, final java.util.function.Supplier<File> currentFile, final long writePosition)
    {
        if (writerCycle != cycle)
        {
            cycle = writerCycle;
            // a reader that sees the new file with the old file's last position must not skip the new file's start
            POSITION.setRelease(this, 0L);
            file = currentFile.get();
        }
        POSITION.setRelease(this, writePosition);
    }

    /** The file being written, or null before the first excerpt. */
    File file()
    {
        return file;
    }

    long position()
    {
        return (long)POSITION.getAcquire(this);
    }
}
