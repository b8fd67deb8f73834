package io.venue.journal.queue;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;

/**
 * Appends records: the single writer of a journal. Not thread safe.
 */
public final class JournalAppender
{
    private final ExcerptAppender appender;
    private byte[] scratch = new byte[4096];

    JournalAppender(final ExcerptAppender appender)
    {
        this.appender = appender;
    }

    /** Writes {@code buffer[offset, offset + length)} as one record; returns its index. */
    public long append(final DirectBuffer buffer, final int offset, final int length)
    {
        try (DocumentContext context = appender.writingDocument())
        {
            final Bytes<?> bytes = context.wire().bytes();
            final byte[] array = buffer.byteArray();
            if (array != null)
            {
                bytes.write(array, (int)buffer.wrapAdjustment() + offset, length);
            }
            else
            {
                // off-heap source: one copy through a reused array
                if (scratch.length < length)
                {
                    scratch = new byte[Math.max(length, scratch.length * 2)];
                }
                buffer.getBytes(offset, scratch, 0, length);
                bytes.write(scratch, 0, length);
            }
            return context.index();
        }
    }
}
