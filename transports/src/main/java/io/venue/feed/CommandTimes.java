package io.venue.feed;

import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import org.agrona.DirectBuffer;

/**
 * The time the sequencer stamped on each command, read from the command journal with a tailer of its own that only
 * moves forward: a frame's {@code ts} is its command's stamped time, so frames depend on the journals alone.
 */
final class CommandTimes implements AutoCloseable
{
    /** The command is not in the command journal yet. */
    static final long NOT_YET = -1;

    private final Journal commands;
    private JournalTailer tailer;
    private long sequence;
    private long timestampMs;
    private long target;
    private boolean passed;
    private final RecordHandler onRecord = this::onRecord;

    CommandTimes(final Journal commands)
    {
        this.commands = commands;
    }

    /**
     * The stamped time of command {@code command}, which must not be before the last asked; {@link #NOT_YET} when the
     * command journal does not reach it yet; 0 when the command journal skips it (a journal that does not hold the
     * events' commands).
     */
    long timestampOf(final long command)
    {
        if (null == tailer)
        {
            tailer = commands.tailer();
        }
        if (command == sequence)
        {
            return timestampMs;
        }
        target = command;
        passed = false;
        while (sequence < command && !passed)
        {
            if (!tailer.read(onRecord))
            {
                return NOT_YET;
            }
        }
        if (sequence == command)
        {
            return timestampMs;
        }
        sequence = command;
        timestampMs = 0;
        return 0;
    }

    /** Goes back or forward so that the next command asked may be {@code command} or any after it. */
    void moveTo(final long command)
    {
        if (null == tailer)
        {
            tailer = commands.tailer();
        }
        tailer.moveAfterSequence(command - 1);
        sequence = -1;
        timestampMs = 0;
    }

    private void onRecord(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        final long recordSequence = JournalRecords.sequence(buffer, offset);
        if (recordSequence > target)
        {
            passed = true;
            tailer.stopHere();
            return;
        }
        sequence = recordSequence;
        timestampMs = JournalRecords.timestampMs(buffer, offset);
    }

    @Override
    public void close()
    {
        if (null != tailer)
        {
            tailer.close();
            tailer = null;
        }
    }
}
