package io.venue.engine;

import org.agrona.DirectBuffer;

/**
 * Where the engine's events go, one SBE record (message header and body) per call, in order. The buffer
 * is reused after the call returns: copy what must be kept.
 */
@FunctionalInterface
public interface EventSink
{
    void onEvent(DirectBuffer buffer, int offset, int length);

    /**
     * The command whose events came since the last call is fully applied (called after every command the
     * engine applies, with or without events): a journal may write them now, or hold them until {@link #flush}
     * to write the events of several commands as one excerpt, never splitting a command's events.
     */
    default void onCommandEnd()
    {
    }

    /**
     * Write every event held. The engine calls it before it writes its state, so the state never reflects a
     * command whose events are not written; its duty cycle calls it after each batch of commands.
     */
    default void flush()
    {
    }
}
