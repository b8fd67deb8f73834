package io.venue.engine;

import java.util.List;

/** Random command records of every kind, for tests outside this package (replication, failover). */
public final class RandomCommands
{
    private RandomCommands()
    {
    }

    /** The configuration the records must be applied under. */
    public static EngineConfig config()
    {
        return RandomStream.config().operator(EngineHarness.OPERATOR);
    }

    /** The set-up (assets, markets, deposits) and then {@code steps} random actions, as SBE command records. */
    public static List<byte[]> generate(final long seed, final int steps)
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, seed).setUp().run(steps);
        return h.records();
    }
}
