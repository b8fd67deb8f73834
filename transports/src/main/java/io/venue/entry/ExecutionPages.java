package io.venue.entry;

/**
 * The bounds of one page of an account's private executions, whichever lane serves it: the reader (the responder's
 * execution history) stops at them, and each lane names them in its metadata, so one request never reads the whole
 * event journal.
 */
public final class ExecutionPages
{
    /** A page stops after this many executions... */
    public static final int EXECUTIONS = 100;
    /** ...or after this many commands read. */
    public static final int COMMANDS_SCANNED = 100_000;

    private ExecutionPages()
    {
    }
}
