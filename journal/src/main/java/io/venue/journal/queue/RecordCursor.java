package io.venue.journal.queue;

import io.venue.journal.JournalRecords;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteOrder;

/**
 * Reads a journal one record at a time, whatever the excerpts hold: for walking two journals side by side
 * (a replay against the recorded events, a diff, the responder's commands against their events). Copies each
 * excerpt once into its own buffer, so a record stays readable after the tailer moved on.
 */
public final class RecordCursor
{
    private final JournalTailer tailer;
    private final ExpandableArrayBuffer excerpt = new ExpandableArrayBuffer(4096);
    private final RecordHandler copy = this::copy;
    private int excerptLength;
    private int position;
    private long index = -1;

    public RecordCursor(final JournalTailer tailer)
    {
        this.tailer = tailer;
    }

    /**
     * Hands the next record to {@code handler}, with the index of the excerpt it is in.
     *
     * @return false at the end of what has been written.
     */
    public boolean next(final RecordHandler handler)
    {
        if (position == excerptLength && !tailer.readExcerpt(copy))
        {
            return false;
        }
        final int length = excerpt.getInt(position, ByteOrder.LITTLE_ENDIAN);
        final int record = position + Journal.FRAME_HEADER;
        position = record + length;
        handler.onRecord(excerpt, record, length, index);
        return true;
    }

    /**
     * Whether the next record is in the excerpt already read and carries {@code sequence}: with {@link #next}, reads
     * the records of one command, which are always in one excerpt, without waiting for the excerpt after it.
     */
    public boolean nextInExcerptHasSequence(final long sequence)
    {
        return position < excerptLength &&
            JournalRecords.sequence(excerpt, position + Journal.FRAME_HEADER) == sequence;
    }

    private void copy(final DirectBuffer buffer, final int offset, final int length, final long excerptIndex)
    {
        excerpt.putBytes(0, buffer, offset, length);
        excerptLength = length;
        position = 0;
        index = excerptIndex;
    }
}
