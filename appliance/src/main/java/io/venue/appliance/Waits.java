package io.venue.appliance;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waiting on another thread's progress, parking (a spin would take the core from the thread waited for on a
 * small host).
 */
final class Waits
{
    /** How long each look waits. */
    static final long STEP_NS = 1_000_000;

    private Waits()
    {
    }

    /**
     * Waits until {@code done} or the deadline ({@link System#nanoTime()}).
     *
     * @return whether {@code done} holds.
     */
    static boolean until(final BooleanSupplier done, final long deadlineNs)
    {
        while (!done.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return false;
            }
            LockSupport.parkNanos(STEP_NS);
        }
        return true;
    }
}
