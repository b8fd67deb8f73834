package io.venue.tuning;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets the producers of a thread's work wake it at once instead of leaving it parked until its idle strategy looks
 * again. The consumer's {@link DoorbellIdleStrategy} announces that it is about to park, polls once more and parks;
 * a producer that has published work {@link #ring rings}, which unparks the consumer only if it announced a park.
 * <p>
 * No wake-up is lost: the consumer stores its announcement before its last poll, the producer publishes before it
 * reads the announcement, and both put a full fence between the store and the load, so at least one of them sees
 * the other's store. Should a producer not ring at all, its work waits at most the strategy's longest park.
 * <p>
 * Threads: any number of producers; one consumer thread per bell.
 */
public final class Doorbell
{
    private static final VarHandle SLEEPER;

    static
    {
        try
        {
            SLEEPER = MethodHandles.lookup().findVarHandle(Doorbell.class, "sleeper", Thread.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** The consumer thread while it has announced a park; null while it works. */
    @SuppressWarnings("unused")
    private volatile Thread sleeper;

    /**
     * Called by a producer after it published work for the consumer: wakes the consumer if it is parked or about to
     * park. Costs a fence and a read while the consumer is busy; a system call only when it sleeps.
     */
    public void ring()
    {
        VarHandle.fullFence();
        final Object sleeper = SLEEPER.getVolatile(this);
        // the consumer's own thread (agents sharing one thread) is awake: ringing would only cut its next park short
        if (sleeper != null && sleeper != Thread.currentThread())
        {
            // one producer takes the announcement and pays for the unpark; the consumer announces again before it
            // next parks
            final Thread thread = (Thread)SLEEPER.getAndSet(this, null);
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
        }
    }

    /** The consumer is about to park: from now on a producer's {@link #ring} unparks {@code thread}. */
    void announce(final Thread thread)
    {
        SLEEPER.setVolatile(this, thread);
        VarHandle.fullFence();
    }

    /** Whether {@code thread}'s announcement still stands: no ring has taken it. */
    boolean announcedBy(final Thread thread)
    {
        return SLEEPER.getVolatile(this) == thread;
    }

    /** The consumer found work: rings need not unpark it. */
    void withdraw()
    {
        SLEEPER.setRelease(this, null);
    }
}
