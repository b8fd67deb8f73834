package io.venue.engine.state;

/**
 * Thrown by {@link EngineState#open} when the state folder must not be used. The engine answers by calling
 * {@link EngineState#openEmpty} and replaying the command journal from the start.
 */
public final class StateUnusableException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final transient StateCheck check;

    StateUnusableException(final StateCheck check)
    {
        super(check.toString());
        this.check = check;
    }

    StateUnusableException(final StateCheck check, final Throwable cause)
    {
        super(check.toString(), cause);
        this.check = check;
    }

    /**
     * For a reader that found the stored entries contradicting each other (a gap in a numbering, a reference to
     * nothing): reported as {@link StateStatus#MAP_FILE_CORRUPT}, so the caller rebuilds by replay.
     */
    public static StateUnusableException inconsistent(final String detail)
    {
        return new StateUnusableException(StateCheck.unusable(StateStatus.MAP_FILE_CORRUPT, detail));
    }

    public StateCheck check()
    {
        return check;
    }

    public StateStatus status()
    {
        return check.status();
    }
}
