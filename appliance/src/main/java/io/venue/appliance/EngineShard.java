package io.venue.appliance;

import io.venue.engine.Engine;
import io.venue.engine.EngineAgent;
import io.venue.engine.EngineConfig;
import io.venue.engine.ShardRecovery;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateUnusableException;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The node's engine shard: recovered from the state folder, the snapshots and the journals (what recovery did is said
 * in the log), its agent (command journal in, event journal out, snapshots every {@code snapshot.every} commands), and
 * at close its state written, unless the engine stopped on a defect.
 */
final class EngineShard implements AutoCloseable
{
    private static final int BATCH = 64;

    private final EngineState state;
    private final Engine engine;
    private final EngineAgent agent;

    private EngineShard(final EngineState state, final Engine engine, final EngineAgent agent)
    {
        this.state = state;
        this.engine = engine;
        this.agent = agent;
    }

    /** Recovers the shard under {@code config} (its shard threads set by the caller) and makes its agent. */
    static EngineShard recover(final ApplianceContext context, final EngineConfig config, final Path data,
        final NodeJournals journals, final PrintStream log) throws StateUnusableException
    {
        final EngineState.Context stateContext = new EngineState.Context().directory(data.resolve("state"))
            .sizeFor(config.stateLimits());
        final Path snapshots = data.resolve("snapshots");
        final ShardRecovery recovery = ShardRecovery.recover(config, stateContext, snapshots, journals.commands(),
            journals.events(), new RecoveryLog(log));
        try
        {
            recovery.commands().handOver();
            final EngineAgent agent = new EngineAgent(recovery.engine(), recovery.commands(), BATCH)
                .snapshots(recovery.state(), snapshots, context.snapshotEvery(), context.snapshotsKept());
            return new EngineShard(recovery.state(), recovery.engine(), agent);
        }
        catch (final RuntimeException ex)
        {
            try
            {
                recovery.state().close();
            }
            finally
            {
                recovery.engine().close();
            }
            throw ex;
        }
    }

    EngineAgent agent()
    {
        return agent;
    }

    /** What stopped the shard (a defect, an event journal it could not write), or null while it runs. */
    Throwable failure()
    {
        return agent.failure();
    }

    /** Waits until the engine has applied {@code sequence} or stopped, or the deadline passed. */
    void awaitApplied(final long sequence, final long deadlineNs)
    {
        Waits.until(() -> agent.appliedSequence() >= sequence || agent.failure() != null, deadlineNs);
    }

    /**
     * Writes the state (a shard stopped by a defect keeps it as it last wrote it: the restart replays from there)
     * and closes.
     */
    @Override
    public void close()
    {
        try
        {
            if (agent.failure() == null)
            {
                engine.flushState();
            }
        }
        finally
        {
            state.close();
            // the matching shards' threads, if any
            engine.close();
        }
    }

    /** What recovery did, in the log. */
    private record RecoveryLog(PrintStream log) implements ShardRecovery.Report
    {
        @Override
        public void onStateRebuilt(final String reason)
        {
            log.println("state rebuilt by replay: " + reason);
        }

        @Override
        public void onReplayed(final long replayed, final long matched, final long appended, final long last)
        {
            log.printf("recovered: %,d commands replayed (%,d events matched, %,d appended), last sequence %d%n",
                replayed, matched, appended, last);
        }

        @Override
        public void onUnreadable(final long index, final long sequence)
        {
            log.printf("recovery: the command at journal index %d (sequence %d) is not a record the engine reads: " +
                "skipped, as the live engine skips it; check the journal (venue journal dump)%n", index, sequence);
        }
    }
}
