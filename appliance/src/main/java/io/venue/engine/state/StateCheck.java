package io.venue.engine.state;

/**
 * The verdict on a state folder: a status, a sentence for the operator, and the journal index the state
 * reflects ({@link StateMeta#NO_SEQUENCE} unless the status is {@link StateStatus#CONSISTENT}).
 */
public final class StateCheck
{
    private final StateStatus status;
    private final String detail;
    private final long appliedSequence;

    StateCheck(final StateStatus status, final String detail, final long appliedSequence)
    {
        this.status = status;
        this.detail = detail;
        this.appliedSequence = appliedSequence;
    }

    static StateCheck unusable(final StateStatus status, final String detail)
    {
        return new StateCheck(status, detail, StateMeta.NO_SEQUENCE);
    }

    public StateStatus status()
    {
        return status;
    }

    public String detail()
    {
        return detail;
    }

    public long appliedSequence()
    {
        return appliedSequence;
    }

    @Override
    public String toString()
    {
        return status + ": " + detail;
    }
}
