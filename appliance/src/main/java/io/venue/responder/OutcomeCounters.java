package io.venue.responder;

import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.codec.MetricsText;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the responder saw in the journals after the process started (not the recent history it re-reads at start to
 * answer status queries), for the operator's metrics: the engine's
 * decisions (accepted, or refused by code), the refusals journaled before the engine (by reason) and the commands the
 * engine could not read. Written by the responder's thread only, read by the metrics route.
 */
public final class OutcomeCounters
{
    private static final RejectCode[] CODES = RejectCode.values();
    private static final RequestRejectReason[] REASONS = RequestRejectReason.values();

    private final AtomicLongArray engine = new AtomicLongArray(CODES.length + 1);
    private final AtomicLongArray refusals = new AtomicLongArray(REASONS.length);
    private final AtomicLongArray summarized = new AtomicLongArray(REASONS.length);
    private volatile long unapplied;
    private volatile long answeredSequence;

    void accepted()
    {
        engine.incrementAndGet(CODES.length);
    }

    void rejected(final RejectCode code)
    {
        engine.incrementAndGet(code.ordinal());
    }

    void refused(final RequestRejectReason reason)
    {
        refusals.incrementAndGet(reason.ordinal());
    }

    /** A summary record: {@code count} refusals of one source and reason, none journaled on its own. */
    void summarized(final RequestRejectReason reason, final long count)
    {
        summarized.addAndGet(reason.ordinal(), count);
    }

    void unapplied()
    {
        unapplied++;
    }

    void answered(final long sequence)
    {
        answeredSequence = sequence;
    }

    /** The sequence of the last command whose answer was handed to the lane (0 before any). */
    public long answeredSequence()
    {
        return answeredSequence;
    }

    public void appendTo(final MetricsText text)
    {
        text.family("venue_engine_decisions_total", "counter",
            "actions the engine decided since the process started: accepted, or refused by reject code");
        text.sample("venue_engine_decisions_total", "code", "accepted", engine.get(CODES.length));
        for (final RejectCode code : CODES)
        {
            if (code != RejectCode.NULL_VAL)
            {
                text.sample("venue_engine_decisions_total", "code", code.name(), engine.get(code.ordinal()));
            }
        }
        text.family("venue_journaled_refusals_total", "counter",
            "RequestRejected records (refusals before the engine) by " +
            "reason; an EDGE_RATE_LIMITED record stands for a count of refusals");
        for (final RequestRejectReason reason : REASONS)
        {
            if (reason != RequestRejectReason.NULL_VAL)
            {
                text.sample("venue_journaled_refusals_total", "reason", reason.name(), refusals.get(reason.ordinal()));
            }
        }
        text.family("venue_summarized_refusals_total", "counter",
            "refused requests counted in RequestsRejectedSummary records (a flood from one connection) by reason, " +
            "none of them in a RequestRejected record of its own");
        for (final RequestRejectReason reason : REASONS)
        {
            if (reason != RequestRejectReason.NULL_VAL)
            {
                text.sample("venue_summarized_refusals_total", "reason", reason.name(),
                    summarized.get(reason.ordinal()));
            }
        }
        text.family("venue_unapplied_commands_total", "counter",
            "command records the engine could not read (a damaged journal)");
        text.sample("venue_unapplied_commands_total", unapplied);
    }
}
