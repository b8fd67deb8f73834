package io.venue.journal;

/**
 * Which journal a record belongs to.
 */
public enum RecordKind
{
    /** Input of the engine, written by the sequencer to {@code journal/commands}; template ids 1 to 99. */
    COMMAND,
    /** Output of the engine, written to {@code journal/events}; template ids 100 to 199. */
    EVENT
}
