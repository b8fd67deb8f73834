package io.venue.appliance;

import io.venue.engine.EngineAgent;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalPretoucher;
import io.venue.tuning.Doorbell;
import io.venue.tuning.DoorbellIdleStrategy;
import io.venue.tuning.PinnedThreads;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.DynamicCompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The node's threads: how each is pinned ({@code core.*}) and waits when idle ({@code idle.*}), the engine's and the
 * front thread's runners laid out by {@code threads}, the journal pretoucher's, and the agents added to the front
 * thread (the sequencer, replication) once it runs.
 */
final class NodeThreads
{
    /**
     * Polls with a spin-wait hint before an idle thread parks: a few microseconds, enough for a burst's next request.
     */
    private static final int IDLE_SPINS = 20;

    private final ApplianceContext context;
    private final ErrorHandler onError;
    /** Rung by the verifiers, the lanes' refusals and the engine: work for the front thread (sequencer, responder). */
    private final Doorbell frontBell = new Doorbell();
    /** The market feed's: rung by the engine after each batch it journals, and by the feed's requests. */
    private final Doorbell feedBell = new Doorbell();
    /**
     * Rung by whoever appends to the command journal (the sequencer, a standby's follower); null with compact threads,
     * where those run on the engine's own thread and need not wake it.
     */
    private Doorbell engineBell;
    private DynamicCompositeAgent front;
    private AgentRunner frontRunner;
    private AgentRunner engineRunner;
    private JournalPretoucher pretoucher;
    private AgentRunner pretouchRunner;

    NodeThreads(final ApplianceContext context, final ErrorHandler onError)
    {
        this.context = context;
        this.onError = onError;
    }

    /** Unless {@code journal.pretouch=false}: a thread faulting in the journals' next pages ahead of their writers. */
    void startPretoucher(final Journal commands, final Journal events)
    {
        if (context.journalPretouch())
        {
            // its own thread, sleeping between looks (journal.pretouch.period.ms): it keeps 32 MiB ahead of each
            // writer, and a backing-off wait would wake it thousands of times a second for nothing
            pretoucher = new JournalPretoucher(new JournalPretoucher.Context().errorHandler(onError)).follow(commands)
                .follow(events);
            pretouchRunner = new AgentRunner(
                new SleepingIdleStrategy(TimeUnit.MILLISECONDS.toNanos(context.journalPretouchPeriodMs())), onError,
                null, pretoucher);
            AgentRunner.startOnThread(pretouchRunner,
                PinnedThreads.factory("journal-pretouch", context.corePretouch()));
        }
    }

    /** The pretoucher, or null with {@code journal.pretouch=false}. */
    JournalPretoucher pretoucher()
    {
        return pretoucher;
    }

    /**
     * Starts the engine and the front thread: with {@code threads=spread} the engine on a thread of its own, rung by
     * the command journal's writers and ringing the front thread; with {@code compact} both agents on the front thread.
     */
    void start(final EngineAgent engine, final Agent responder)
    {
        // the market feed reads the event journal on a thread of its own in every layout
        engine.wakes(feedBell);
        if (context.compactThreads())
        {
            // one thread for the engine, the sequencer and the responder: fewer hand-offs, for hosts with few cores,
            // and no bell between them (a thread never needs waking by its own agents)
            front = new DynamicCompositeAgent("front", engine, responder);
        }
        else
        {
            front = new DynamicCompositeAgent("front", responder);
            engine.wakes(frontBell);
            engineBell = new Doorbell();
            engineRunner = new AgentRunner(idleStrategy().apply(engineBell), onError, null, engine);
            AgentRunner.startOnThread(engineRunner, PinnedThreads.factory("engine-shard-0", context.coreEngine()));
        }
        frontRunner = new AgentRunner(frontIdleStrategy().apply(frontBell), onError, null, front);
        AgentRunner.startOnThread(frontRunner, PinnedThreads.factory("front", context.coreFront()));
    }

    /** What {@code threads} chose, in one line for the start-up log. */
    String layout()
    {
        return "threads=" + context.threadLayout().value() + ": " + (context.verifierOnFront() ?
            "the verifier, engine, sequencer and responder on one thread" : context.compactThreads() ?
            "the engine, sequencer and responder on one thread" : "the engine on a thread of its own") + " (" +
            context.processors() + " processors; verifier threads: " +
            (context.verifierOnFront() ? "none, on the front thread" : context.verifierThreads()) + ")";
    }

    /** Whether the front thread was started. */
    boolean started()
    {
        return frontRunner != null;
    }

    /** Whether the front thread has been closed (the node is stopping). */
    boolean frontClosed()
    {
        return frontRunner.isClosed();
    }

    /** Rung for work of the front thread. */
    Doorbell frontBell()
    {
        return frontBell;
    }

    /** The market feed's bell. */
    Doorbell feedBell()
    {
        return feedBell;
    }

    /** Rung by the command journal's writers; null with compact threads. */
    Doorbell engineBell()
    {
        return engineBell;
    }

    /** Adds an agent to the front thread and waits until it runs there. */
    void add(final Agent agent)
    {
        // the front thread may not have started the composite yet (it refuses additions until then)
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        if (!Waits.until(() -> front.status() != DynamicCompositeAgent.Status.INIT, deadline) ||
            !Waits.until(() -> front.tryAdd(agent), deadline) || !Waits.until(front::hasAddAgentCompleted, deadline))
        {
            throw new IllegalStateException("the front thread did not take " + agent.roleName());
        }
    }

    /** Stops the front thread, then the engine's (which applies nothing more). */
    void closeAgents()
    {
        CloseHelper.quietClose(frontRunner);
        CloseHelper.quietClose(engineRunner);
    }

    void closePretoucher()
    {
        CloseHelper.quietClose(pretouchRunner);
    }

    /**
     * How an idle appliance thread waits, given the bell its producers ring: park (the default: a short spin, then
     * parked until a producer rings or for at most {@code idle.max.park.us}; gentle on a shared machine and woken at
     * once), backoff (Agrona's: spin, yield, then park for a doubling time up to {@code idle.max.park.us}, deaf to the
     * bell) or busy-spin (a dedicated core each).
     */
    Function<Doorbell, IdleStrategy> idleStrategy()
    {
        final Function<Doorbell, IdleStrategy> override = context.idleStrategyOverride();
        return override != null ? override : idleStrategy(context.idleMaxParkUs());
    }

    /**
     * As {@link #idleStrategy()} for the front thread (sequencer, responder, replication): the context's front park.
     */
    Function<Doorbell, IdleStrategy> frontIdleStrategy()
    {
        return idleStrategy(context.frontMaxParkUs());
    }

    private Function<Doorbell, IdleStrategy> idleStrategy(final long maxParkUs)
    {
        final long maxParkNs = maxParkUs * 1_000;
        return switch (context.idleStrategy())
        {
            case "busy-spin" -> doorbell -> new BusySpinIdleStrategy();
            case "backoff" -> doorbell -> new BackoffIdleStrategy(100, 10, 1_000, maxParkNs);
            default -> doorbell -> new DoorbellIdleStrategy(doorbell, IDLE_SPINS, maxParkNs);
        };
    }

    /**
     * A thread factory for verifier i: pinned to the i-th core of {@code core.verifiers} (round robin), unpinned
     * when none.
     */
    ThreadFactory verifierThreadFactory()
    {
        final int[] cores = context.coreVerifiers();
        final AtomicInteger next = new AtomicInteger();
        return runnable ->
        {
            final int i = next.getAndIncrement();
            return PinnedThreads.factory("verifier-" + i, cores.length == 0 ? -1 : cores[i % cores.length])
                .newThread(runnable);
        };
    }

    /**
     * The thread of matching shard s: pinned to the s-th core of {@code core.shards} (round robin), unpinned when none.
     */
    IntFunction<ThreadFactory> shardThreads()
    {
        final int[] cores = context.coreShards();
        return shard -> PinnedThreads.factory("matching-shard-" + shard,
            cores.length == 0 ? -1 : cores[shard % cores.length]);
    }
}
