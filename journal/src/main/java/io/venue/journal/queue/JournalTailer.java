package io.venue.journal.queue;

import io.venue.journal.JournalRecords;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Reads a journal's excerpts in order, handing each record in them to a handler straight from the mapped file
 * (no copy).
 * Not thread safe: one tailer per reading thread.
 */
public final class JournalTailer implements AutoCloseable
{
    private final ExcerptTailer tailer;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

    JournalTailer(final ExcerptTailer tailer)
    {
        this.tailer = tailer;
    }

    /**
     * Reads the next excerpt if there is one, handing each of its records to {@code handler} with the excerpt's
     * index. Each frame is checked as it is reached, in the same pass that hands the records over: a separate pass
     * first would wait on memory once per record (each frame's length says where the next is), which cost a
     * tenth of a replay's time.
     * <p>
     * When a frame does not fit, the handler throws, or the handler calls {@link #stopHere}, the tailer stays on the
     * excerpt and the next read of it starts at the record where this one stopped: nothing before it is handed twice,
     * nothing from it on is skipped.
     *
     * @return false when the tailer is at the end of what has been written.
     * @throws JournalDamagedException when a frame does not fit the excerpt (the tailer stays on it).
     */
    public boolean read(final RecordHandler handler)
    {
        try (DocumentContext context = tailer.readingDocument())
        {
            if (!context.isPresent())
            {
                return false;
            }
            final int length = wrapExcerpt(context);
            final long index = context.index();
            final long skip = skipThrough;
            skipThrough = NOTHING_TO_SKIP;
            final int done = index == resumeIndex ? resumeAfterRecords : 0;
            resumeIndex = NO_RESUME;
            stopRequested = false;
            int records = 0;
            try
            {
                requireRecords(length, index);
                int position = 0;
                while (position < length)
                {
                    final int recordLength = frameAt(view, position, length, index);
                    final int record = position + Journal.FRAME_HEADER;
                    position = record + recordLength;
                    if (records >= done && !passedOver(record, recordLength, skip))
                    {
                        handler.onRecord(view, record, recordLength, index);
                        if (stopRequested)
                        {
                            resumeAt(context, index, records);
                            return true;
                        }
                    }
                    records++;
                }
                return true;
            }
            catch (final Throwable ex)
            {
                resumeAt(context, index, records);
                throw ex;
            }
        }
    }

    /**
     * Called by a handler during {@link #read}: hands over no more records, and has the next read start again at the
     * record being handled (a reader that cannot take it now, or one that has read enough).
     */
    public void stopHere()
    {
        stopRequested = true;
    }

    /** The next read of this excerpt starts at its record number {@code records}. */
    private void resumeAt(final DocumentContext context, final long index, final int records)
    {
        context.rollbackOnClose();
        resumeIndex = index;
        resumeAfterRecords = records;
    }

    /** Whether a {@link #moveAfterSequence} through {@code through} passes over the record at {@code record}. */
    private boolean passedOver(final int record, final int recordLength, final long through)
    {
        return through != NOTHING_TO_SKIP && recordLength >= MIN_SEQUENCED &&
            JournalRecords.sequence(view, record) <= through;
    }

    /**
     * Reads the next excerpt whole, frames included, after checking them (from the first record after the
     * sequence of a {@link #moveAfterSequence} that landed inside it): for copying or comparing excerpts.
     *
     * @return false at the end of what has been written.
     */
    public boolean readExcerpt(final RecordHandler handler)
    {
        try (DocumentContext context = tailer.readingDocument())
        {
            if (!context.isPresent())
            {
                return false;
            }
            final int length = wrapExcerpt(context);
            checkFrames(context, length);
            final int from = firstUnskipped(length);
            handler.onRecord(view, from, length - from, context.index());
            return true;
        }
    }

    /**
     * Where the records to hand over start in the excerpt just wrapped: past those at or before the sequence of a
     * {@link #moveAfterSequence} that landed inside this excerpt, else at its start. Clears that sequence.
     */
    private int firstUnskipped(final int length)
    {
        final long through = skipThrough;
        if (through == NOTHING_TO_SKIP)
        {
            return 0;
        }
        skipThrough = NOTHING_TO_SKIP;
        int position = 0;
        while (position < length &&
            passedOver(position + Journal.FRAME_HEADER, view.getInt(position, ByteOrder.LITTLE_ENDIAN), through))
        {
            position += Journal.FRAME_HEADER + view.getInt(position, ByteOrder.LITTLE_ENDIAN);
        }
        return position;
    }

    private int wrapExcerpt(final DocumentContext context)
    {
        final Bytes<?> bytes = context.wire().bytes();
        final int length = (int)bytes.readRemaining();
        view.wrap(bytes.addressForRead(bytes.readPosition()), length);
        return length;
    }

    private void checkFrames(final DocumentContext context, final int length)
    {
        try
        {
            checkFrames(view, length, context.index());
        }
        catch (final JournalDamagedException ex)
        {
            context.rollbackOnClose();
            throw ex;
        }
    }

    /** Every frame's length must be positive and fit the excerpt, ending exactly at its end. */
    static void checkFrames(final DirectBuffer excerpt, final int length, final long index)
    {
        requireRecords(length, index);
        int position = 0;
        while (position < length)
        {
            position += Journal.FRAME_HEADER + frameAt(excerpt, position, length, index);
        }
    }

    private static void requireRecords(final int length, final long index)
    {
        if (length == 0)
        {
            throw new JournalDamagedException(index, "an empty excerpt");
        }
    }

    /**
     * The length of the record framed at {@code position}, which must be positive and fit the excerpt's {@code length}.
     */
    private static int frameAt(final DirectBuffer excerpt, final int position, final int length, final long index)
    {
        if (length - position < Journal.FRAME_HEADER)
        {
            throw new JournalDamagedException(index, "a frame header cut short at byte " + position + " of " + length);
        }
        final int recordLength = excerpt.getInt(position, ByteOrder.LITTLE_ENDIAN);
        if (recordLength <= 0 || recordLength > length - position - Journal.FRAME_HEADER)
        {
            throw new JournalDamagedException(index,
                "a record of " + recordLength + " bytes at byte " + position + " of " + length);
        }
        return recordLength;
    }

    /** Reads up to {@code limit} excerpts; returns how many were read. */
    public int read(final RecordHandler handler, final int limit)
    {
        int count = 0;
        while (count < limit && read(handler))
        {
            count++;
        }
        return count;
    }

    /**
     * Positions the tailer so that the next read hands over the first record whose sequence is after
     * {@code sequence}, and the records after it (or nothing, at the end): for journals whose records are in sequence
     * order, as both are. An excerpt may hold the records of several commands; when the first such record is inside
     * one, the next read hands over only that excerpt's records from it on. A binary search over each day's
     * excerpts, so a restart does not read every event before its state.
     */
    public void moveAfterSequence(final long sequence)
    {
        skipThrough = NOTHING_TO_SKIP;
        resumeIndex = NO_RESUME;
        final ChronicleQueue queue = tailer.queue();
        final RollCycle rollCycle = queue.rollCycle();
        final long lastIndex = queue.lastIndex();
        if (lastIndex < 0)
        {
            tailer.toStart();
            return;
        }
        final int firstCycle = rollCycle.toCycle(queue.firstIndex());
        int cycle = rollCycle.toCycle(lastIndex);
        // the newest day whose first excerpt is not after the sequence
        while (cycle >= firstCycle)
        {
            final long first = firstSequenceAt(rollCycle.toIndex(cycle, 0));
            if (first != NOT_PRESENT && first <= sequence)
            {
                break;
            }
            cycle--;
        }
        if (cycle < firstCycle)
        {
            tailer.toStart();
            return;
        }
        // in it: excerpt lo is not after the sequence; excerpt hi is missing or after it
        long lo = 0;
        long step = 1;
        while (isAtOrBefore(rollCycle.toIndex(cycle, lo + step), sequence))
        {
            lo += step;
            step *= 2;
        }
        long hi = lo + step;
        while (hi - lo > 1)
        {
            final long mid = lo + (hi - lo) / 2;
            if (isAtOrBefore(rollCycle.toIndex(cycle, mid), sequence))
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }
        final long found = rollCycle.toIndex(cycle, lo);
        tailer.moveToIndex(found);
        probed[0] = NOT_PRESENT;
        readExcerpt(lastOfExcerpt);
        if (probed[0] > sequence)
        {
            // excerpt lo also holds records after the sequence: read it again, from the first of them
            tailer.moveToIndex(found);
            skipThrough = sequence;
        }
        // else the read stepped past excerpt lo, to whatever follows it (the next day's first, if it was the
        // day's last)
    }

    private static final long NOT_PRESENT = Long.MIN_VALUE;
    private final long[] probed = new long[1];
    private final RecordHandler probe = (buffer, offset, length, index) ->
        probed[0] = JournalRecords.sequence(buffer, offset + Journal.FRAME_HEADER);
    private final RecordHandler lastOfExcerpt = (buffer, offset, length, index) ->
        Journal.forEachRecord(buffer, offset, length, index,
            (record, at, recordLength, i) -> probed[0] = JournalRecords.sequence(record, at));
    private static final long NOTHING_TO_SKIP = Long.MIN_VALUE;
    private static final long NO_RESUME = Long.MIN_VALUE;
    /** Set when a read stopped inside an excerpt (a damaged frame, a handler that threw): where to go on in it. */
    private long resumeIndex = NO_RESUME;
    private int resumeAfterRecords;
    /** Set by {@link #stopHere} during a read. */
    private boolean stopRequested;
    /** A record shorter than this has no sequence to skip by (every command and event record is longer). */
    private static final int MIN_SEQUENCED = JournalRecords.SEQUENCE_OFFSET + 8;
    /** Set by {@link #moveAfterSequence} when it lands inside an excerpt: the next read skips records up to it. */
    private long skipThrough = NOTHING_TO_SKIP;

    private boolean isAtOrBefore(final long index, final long sequence)
    {
        final long first = firstSequenceAt(index);
        return first != NOT_PRESENT && first <= sequence;
    }

    /** The sequence of the first record of the excerpt at {@code index}, or NOT_PRESENT when there is none. */
    private long firstSequenceAt(final long index)
    {
        if (!tailer.moveToIndex(index))
        {
            return NOT_PRESENT;
        }
        probed[0] = NOT_PRESENT;
        return readExcerpt(probe) ? probed[0] : NOT_PRESENT;
    }

    /** Positions the tailer so that the next read returns the excerpt at {@code index}. */
    public boolean moveToIndex(final long index)
    {
        skipThrough = NOTHING_TO_SKIP;
        resumeIndex = NO_RESUME;
        return tailer.moveToIndex(index);
    }

    /**
     * Lets another thread read with this tailer from now on: Chronicle ties a tailer to the first thread that used
     * it (recovery reads on the starting thread, then the engine's thread carries on).
     */
    public void handOver()
    {
        tailer.singleThreadedCheckReset();
    }

    /** Releases the tailer's hold on the queue's files; it must not be read after. */
    @Override
    public void close()
    {
        tailer.close();
    }

    /** The index of the excerpt the next read returns. */
    public long index()
    {
        return tailer.index();
    }
}
