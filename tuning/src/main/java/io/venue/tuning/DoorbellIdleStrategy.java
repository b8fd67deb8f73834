package io.venue.tuning;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits for work without burning a shared core and without a polling delay: spins briefly, then parks until a
 * producer rings the thread's {@link Doorbell} or the longest park has passed (the bound for producers that do not
 * ring, and the beat of an agent's periodic duties). A spin phase with no yields: on a host with fewer cores than
 * threads, yielding threads pass a core back and forth without doing anything.
 * <p>
 * Threads: used by the one thread that consumes the bell.
 */
public final class DoorbellIdleStrategy implements IdleStrategy
{
    private final Doorbell doorbell;
    private final int maxSpins;
    private final long maxParkNs;
    private final long restNs;
    private int spins;
    /** Rested unannounced since the last work: the next idle announces a park. */
    private boolean rested;
    /** Announced since the last park: the next idle call parks. */
    private boolean announced;
    /** An announcement may still stand (a park that timed out leaves it): work withdraws it. */
    private boolean standing;

    /**
     * @param doorbell  the bell this thread's producers ring.
     * @param maxSpins  polls with a spin-wait hint before the thread announces a park.
     * @param maxParkNs the longest park: how late the work of a producer that does not ring can be seen.
     */
    public DoorbellIdleStrategy(final Doorbell doorbell, final int maxSpins, final long maxParkNs)
    {
        this(doorbell, maxSpins, maxParkNs, 0);
    }

    /**
     * As {@link #DoorbellIdleStrategy(Doorbell, int, long)}, resting {@code restNs} unannounced after the spins, before
     * the announced park: a producer that rings after every small piece of work (the engine after each batch) then
     * wakes this thread at most once a rest while work keeps coming, and at once after a quiet spell. For a consumer
     * that may lag its producers by that much and gains from taking their work in larger pieces: on a virtual host a
     * wake costs tens of microseconds of CPU.
     *
     * @param restNs the unannounced park after the spins; 0: none.
     */
    public DoorbellIdleStrategy(final Doorbell doorbell, final int maxSpins, final long maxParkNs, final long restNs)
    {
        if (maxSpins < 0 || maxParkNs < 1 || restNs < 0)
        {
            throw new IllegalArgumentException(
                "maxSpins and restNs must not be negative and maxParkNs must be positive");
        }
        this.doorbell = doorbell;
        this.maxSpins = maxSpins;
        this.maxParkNs = maxParkNs;
        this.restNs = restNs;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (spins < maxSpins)
        {
            spins++;
            Thread.onSpinWait();
        }
        else if (!rested && restNs > 0)
        {
            // no producer sees this park: it wakes by time alone, however often they ring
            rested = true;
            LockSupport.parkNanos(restNs);
        }
        else if (!announced)
        {
            // the agent polls once more after this: work published before a producer could see the announcement
            // is found
            doorbell.announce(Thread.currentThread());
            announced = true;
            standing = true;
        }
        else
        {
            final Thread thread = Thread.currentThread();
            // a ring that took the announcement since it was made may have spent its unpark on another park of this
            // thread (a lock, say): then look for the work instead of parking
            if (doorbell.announcedBy(thread))
            {
                LockSupport.parkNanos(maxParkNs);
            }
            // a ring takes the announcement: make it again before the next park
            announced = false;
        }
    }

    @Override
    public void reset()
    {
        if (standing)
        {
            doorbell.withdraw();
            standing = false;
        }
        announced = false;
        rested = false;
        spins = 0;
    }

    @Override
    public String alias()
    {
        return "doorbell";
    }
}
