package io.venue.journal.queue;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytesStore;

import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * Where a journal's writer is: the queue file of its current cycle, the byte position after its last excerpt, and
 * the writer's own mapping of the part of the file it writes in. The writer publishes it after every excerpt (a
 * release store, no fence on the write path; the mapping only when Chronicle moved the writer to another one); a
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
    private volatile WriterMapping mapping;
    /** The writer's side: the Chronicle store the published mapping was made from. */
    private BytesStore<?, ?> mappedStore;
    private int cycle = Integer.MIN_VALUE;
    @SuppressWarnings("unused")
    private long position;

    /** By the writer, after each excerpt: {@code currentFile} is asked only when the cycle changed (a roll). */
    void publish(final int writerCycle, final Supplier<File> currentFile, final long writePosition)
    {
        if (writerCycle != cycle)
        {
            cycle = writerCycle;
            // a reader that sees the new file with the old file's last position must not skip the new file's start
            POSITION.setRelease(this, 0L);
            // nor fault in the old file's mapping for it: a reader that sees the new file sees no mapping or the
            // new one
            mapping = null;
            file = currentFile.get();
        }
        POSITION.setRelease(this, writePosition);
    }

    /**
     * By the writer, after {@link #publish}: the Chronicle store its last excerpt went into. A new mapping is published
     * only when the store is another one (Chronicle maps a file chunk by chunk as its writer moves on).
     */
    void publishMapping(final BytesStore<?, ?> store)
    {
        if (store != mappedStore)
        {
            mappedStore = store;
            mapping = store instanceof MappedBytesStore mapped ?
                new WriterMapping(mapped, mapped.addressForWrite(mapped.start()), mapped.start(),
                    mapped.safeLimit()) : null;
        }
    }

    /** The writer's mapping of the file it writes, or null when none is known (before its first excerpt, at a roll). */
    WriterMapping mapping()
    {
        return mapping;
    }

    /**
     * The writer's mapping of file bytes {@code [from, to)} at {@code address}, made by {@code store}. The writer's
     * queue unmaps it when the last reference to the store goes: a reader must hold one ({@code tryReserve}) while it
     * uses the address.
     */
    record WriterMapping(MappedBytesStore store, long address, long from, long to)
    {
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
