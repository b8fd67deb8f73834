package io.venue.journal.queue;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads records in order, handing each to a handler straight from the mapped file (no copy).
 * Not thread safe: one tailer per reading thread.
 */
public final class JournalTailer
{
    private final ExcerptTailer tailer;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

    JournalTailer(final ExcerptTailer tailer)
    {
        this.tailer = tailer;
    }

    /**
     * Reads the next record if there is one.
     *
     * @return false when the tailer is at the end of what has been written.
     */
    public boolean read(final RecordHandler handler)
    {
        try (DocumentContext context = tailer.readingDocument())
        {
            if (!context.isPresent())
            {
                return false;
            }
            final Bytes<?> bytes = context.wire().bytes();
            final long length = bytes.readRemaining();
            view.wrap(bytes.addressForRead(bytes.readPosition()), (int)length);
            handler.onRecord(view, 0, (int)length, context.index());
            return true;
        }
    }

    /** Reads up to {@code limit} records; returns how many were read. */
    public int read(final RecordHandler handler, final int limit)
    {
        int count = 0;
        while (count < limit && read(handler))
        {
            count++;
        }
        return count;
    }

    /** Positions the tailer so that the next read returns the record at {@code index}. */
    public boolean moveToIndex(final long index)
    {
        return tailer.moveToIndex(index);
    }

    /** The index of the record the next read returns. */
    public long index()
    {
        return tailer.index();
    }
}
