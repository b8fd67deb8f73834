package io.venue.appliance;

import io.venue.crypto.RecoveryCpu;
import io.venue.engine.EngineAgent;
import io.venue.journal.queue.JournalPretoucher;
import io.venue.responder.Responder;
import io.venue.codec.MetricsText;

import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The operator's metrics (GET /api/v1/admin/metrics, Prometheus text): each lane's and the responder's counters, how
 * far each stage of the pipeline is, the requests waiting, whether the engine stopped, and the pretoucher's counts.
 * Rendered on the thread that asks; nothing on the hot path waits for it.
 */
final class NodeMetrics
{
    private final Responder responder;
    private final LongSupplier journaled;
    private final EngineAgent engine;
    private final IntSupplier waiting;
    private final JournalPretoucher pretoucher;
    private final LongSupplier forces;
    private final LongSupplier forcedSequence;
    private LongSupplier protectionDrops = () -> 0;
    private RecoveryCpu recoveryCpu;

    /**
     * @param journaled  the last sequence the sequencer journaled.
     * @param waiting    the requests waiting on the engine's decision.
     * @param pretoucher the journal pretoucher, or null when there is none.
     * @param forces     the command journal's forces returned ({@code journal.force=group}).
     * @param forcedSequence the sequence of the last command the last force covered.
     */
    /** One recovery in this many is timed for {@code venue_verifier_recovery_cpu_nanoseconds_total}. */
    static final int RECOVERY_SAMPLING = 32;

    NodeMetrics(final Responder responder, final LongSupplier journaled, final EngineAgent engine,
        final IntSupplier waiting,
        final JournalPretoucher pretoucher, final LongSupplier forces, final LongSupplier forcedSequence)
    {
        this.forces = forces;
        this.forcedSequence = forcedSequence;
        this.responder = responder;
        this.journaled = journaled;
        this.engine = engine;
        this.waiting = waiting;
        this.pretoucher = pretoucher;
    }

    /** The verifiers' sampled signature recoveries. */
    NodeMetrics recoveryCpu(final RecoveryCpu recoveryCpu)
    {
        this.recoveryCpu = recoveryCpu;
        return this;
    }

    /** The protection commands the lanes could not queue (the ring to the sequencer was full). */
    NodeMetrics protectionDrops(final LongSupplier dropped)
    {
        this.protectionDrops = dropped;
        return this;
    }

    String text(final Lanes lanes)
    {
        final MetricsText text = new MetricsText();
        lanes.appendMetrics(text);
        responder.counters().appendTo(text);
        text.family("venue_sequence", "gauge",
            "the last command sequence each stage reached: journaled by the sequencer, " +
            "applied by the engine, answered by the responder")
            .sample("venue_sequence", "stage", "journaled", journaled.getAsLong())
            .sample("venue_sequence", "stage", "forced", forcedSequence.getAsLong())
            .sample("venue_sequence", "stage", "applied", engine.appliedSequence())
            .sample("venue_sequence", "stage", "answered", responder.counters().answeredSequence());
        text.family("venue_journal_forces_total", "counter", "forces of the command journal to stable storage " +
            "(journal.force=group: one per group of commands); 0 with journal.force=none")
            .sample("venue_journal_forces_total", forces.getAsLong());
        text.family("venue_pending_requests", "gauge", "requests the lane waits on the engine's decision for")
            .sample("venue_pending_requests", waiting.getAsInt());
        text.family("venue_engine_stopped", "gauge",
            "1 once the engine shard stopped on a defect or an event journal it " +
            "could not write (the log says why): it applies nothing more until a restart")
            .sample("venue_engine_stopped", engine.failure() == null ? 0 : 1);
        text.family("venue_protection_requests_dropped_total", "counter",
            "protection commands (sessions opened and closed, dead-man and cancel-on-disconnect arms) the lanes " +
            "could not queue for the sequencer: a login so refused was refused THROTTLED, a request answered " +
            "QUEUE_LIMIT, a session's close lost (its sweep then comes at the next start)")
            .sample("venue_protection_requests_dropped_total", protectionDrops.getAsLong());
        if (recoveryCpu != null)
        {
            text.family("venue_verifier_recovery_samples_total", "counter",
                "signature recoveries timed in their thread's CPU time (one in " + RECOVERY_SAMPLING + ")")
                .sample("venue_verifier_recovery_samples_total", recoveryCpu.samples());
            text.family("venue_verifier_recovery_cpu_nanoseconds_total", "counter",
                "the CPU time of the timed recoveries, summed: divided by their count, what one costs in this process")
                .sample("venue_verifier_recovery_cpu_nanoseconds_total", recoveryCpu.cpuNs());
        }
        if (pretoucher != null)
        {
            text.family("venue_journal_pretouched_pages_total", "counter",
                "journal pages faulted in ahead of their writers")
                .sample("venue_journal_pretouched_pages_total", pretoucher.pagesTouched());
            text.family("venue_journal_pretouch_failures_total", "counter",
                "journal files the pretoucher gave up on (the log " +
                "says why); their writers take their own page faults")
                .sample("venue_journal_pretouch_failures_total", pretoucher.failures());
        }
        return text.toString();
    }
}
