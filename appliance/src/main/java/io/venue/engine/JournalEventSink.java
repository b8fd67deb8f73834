package io.venue.engine;

import io.venue.journal.queue.JournalAppender;
import org.agrona.DirectBuffer;

/** Writes the engine's events to an event journal, all the events of one command as one excerpt. */
public final class JournalEventSink implements EventSink
{
    private final JournalAppender appender;

    public JournalEventSink(final JournalAppender appender)
    {
        this.appender = appender;
    }

    @Override
    public void onEvent(final DirectBuffer buffer, final int offset, final int length)
    {
        appender.add(buffer, offset, length);
    }

    @Override
    public void onCommandEnd()
    {
        appender.commit();
    }
}
