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
     * engine applies, with or without events): a journal writes them now as one excerpt.
     */
    default void onCommandEnd()
    {
    }
}
