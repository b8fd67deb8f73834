package io.venue.engine;

import io.venue.journal.queue.JournalAppender;
import org.agrona.DirectBuffer;

/**
 * Writes the engine's events to an event journal: by default the events of each command as one excerpt; made with
 * {@link #heldUntilFlush}, the events of every command applied since the last {@link #flush} as one excerpt, as
 * the appliance's engine writes them (one Chronicle write per batch of commands, a command's events never split).
 */
public final class JournalEventSink implements EventSink
{
    private final JournalAppender appender;
    private final boolean held;

    public JournalEventSink(final JournalAppender appender)
    {
        this(appender, false);
    }

    private JournalEventSink(final JournalAppender appender, final boolean held)
    {
        this.appender = appender;
        this.held = held;
    }

    /** A sink that writes the events of all the commands applied between two {@link #flush} calls as one excerpt. */
    public static JournalEventSink heldUntilFlush(final JournalAppender appender)
    {
        return new JournalEventSink(appender, true);
    }

    @Override
    public void onEvent(final DirectBuffer buffer, final int offset, final int length)
    {
        appender.add(buffer, offset, length);
    }

    @Override
    public void onCommandEnd()
    {
        if (!held || appender.stagedLength() >= JournalAppender.BATCH_COMMIT_BYTES)
        {
            appender.commit();
        }
    }

    @Override
    public void flush()
    {
        appender.commit();
    }
}
