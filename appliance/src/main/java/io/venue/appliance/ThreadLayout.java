package io.venue.appliance;

import java.util.Locale;

/**
 * Where the engine, the sequencer, the responder and the verifiers run ({@code threads}). Spread gives the engine a
 * thread of its own, which pays a hand-off (a ring and a wake) each way per excerpt and earns it back only when the two
 * threads run at the same time on cores of their own; compact runs all three on one thread and pays none; single adds
 * the verifier to that thread, so a signed request's only hand-offs are from the lane's I/O thread and back.
 */
public enum ThreadLayout
{
    /** Spread when the host has a core for every busy thread of that layout, compact otherwise. */
    AUTO,
    /** The engine on a thread of its own; the sequencer and the responder on another (the front thread). */
    SPREAD,
    /** The engine, the sequencer and the responder on one thread. */
    COMPACT,
    /** The verifier, the engine, the sequencer and the responder on one thread (one verifier). */
    SINGLE;

    /**
     * The busy threads of the spread layout besides the verifiers: the HTTP lane's I/O thread, the front thread and the
     * engine's.
     */
    static final int SPREAD_THREADS_BESIDES_VERIFIERS = 3;

    /**
     * The busy threads of the compact layout besides the verifiers: the HTTP lane's I/O thread and the front thread.
     */
    static final int COMPACT_THREADS_BESIDES_VERIFIERS = 2;

    /** Whether this layout, on a host of {@code processors} with {@code verifierThreads}, shares one thread. */
    boolean compact(final int processors, final int verifierThreads)
    {
        return switch (this)
        {
            case COMPACT, SINGLE -> true;
            case SPREAD -> false;
            // a thread without a core of its own waits for one at every hand-off instead of overlapping it
            case AUTO -> processors < SPREAD_THREADS_BESIDES_VERIFIERS + verifierThreads;
        };
    }

    /**
     * Whether this layout, on a host of {@code processors} with {@code verifierThreads}, runs the verifier on the front
     * thread: auto does with one verifier when even the compact layout has a busy thread without a core (2 processors).
     */
    boolean verifierOnFront(final int processors, final int verifierThreads)
    {
        return switch (this)
        {
            case SINGLE -> true;
            case SPREAD, COMPACT -> false;
            case AUTO -> verifierThreads == 1 && processors < COMPACT_THREADS_BESIDES_VERIFIERS + verifierThreads;
        };
    }

    /** The setting's value: {@code auto}, {@code spread} or {@code compact}. */
    static ThreadLayout of(final String value)
    {
        return switch (value)
        {
            case "auto" -> AUTO;
            case "spread" -> SPREAD;
            case "compact" -> COMPACT;
            case "single" -> SINGLE;
            default -> throw new IllegalArgumentException("auto, spread, compact or single");
        };
    }

    String value()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
