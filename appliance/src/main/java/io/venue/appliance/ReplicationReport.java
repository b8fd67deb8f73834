package io.venue.appliance;

import io.venue.replication.AcknowledgementGate;
import io.venue.replication.CommandShipper;
import io.venue.replication.RefusedMessages;
import io.venue.replication.StandbyFollower;
import io.venue.sequencer.Sequencer;
import org.agrona.concurrent.Agent;

import java.io.PrintStream;

/**
 * Makes the replication lag observable in the operator's log: every {@code intervalMs} a line with where the
 * primary and the standby stand, and once, at once, the line saying this primary was fenced. Runs on the front
 * thread, beside the shipper or the follower it reads.
 */
final class ReplicationReport implements Agent
{
    private final PrintStream log;
    private final long intervalNs;
    private final CommandShipper shipper;
    private final AcknowledgementGate gate;
    private final Sequencer sequencer;
    private final StandbyFollower follower;
    private long nextNs;
    private boolean fencedReported;

    private ReplicationReport(final PrintStream log, final long intervalMs, final CommandShipper shipper,
        final AcknowledgementGate gate, final Sequencer sequencer, final StandbyFollower follower)
    {
        this.log = log;
        this.intervalNs = intervalMs * 1_000_000L;
        this.shipper = shipper;
        this.gate = gate;
        this.sequencer = sequencer;
        this.follower = follower;
        this.nextNs = System.nanoTime() + intervalNs;
    }

    static ReplicationReport primary(final PrintStream log, final long intervalMs, final CommandShipper shipper,
        final AcknowledgementGate gate, final Sequencer sequencer)
    {
        return new ReplicationReport(log, intervalMs, shipper, gate, sequencer, null);
    }

    static ReplicationReport standby(final PrintStream log, final long intervalMs, final StandbyFollower follower)
    {
        return new ReplicationReport(log, intervalMs, null, null, null, follower);
    }

    @Override
    public int doWork()
    {
        if (shipper != null && shipper.isFenced() && !fencedReported)
        {
            fencedReported = true;
            log.println(
                "fenced: a primary of epoch " + shipper.fencedBy() + " took over; this node journals nothing more. " +
                "Stop it and restart it as a standby on an empty folder (docs/OPERATIONS.md)");
            return 1;
        }
        final long now = System.nanoTime();
        if (now - nextNs < 0)
        {
            return 0;
        }
        nextNs = now + intervalNs;
        log.println(line());
        return 1;
    }

    String line()
    {
        if (shipper != null)
        {
            final long journaled = sequencer.sequence();
            return "replication: primary epoch " + shipper.epoch() + ", journaled " + journaled + ", shipped " +
                shipper.shippedSequence() + ", standby holds " + shipper.ackedSequence() + " (lag " +
                (journaled - shipper.ackedSequence()) + " commands), answers held " + gate.held() +
                (shipper.isStandbyAhead() ?
                    "; THE STANDBY HOLDS COMMANDS THIS JOURNAL DOES NOT: rebuild it (docs/OPERATIONS.md)" : "") +
                (shipper.isStandbyDiverged() ?
                    "; THE STANDBY'S HISTORY IS NOT THIS JOURNAL'S: rebuild it (docs/OPERATIONS.md)" : "") +
                refused(shipper.refusedMessages());
        }
        return "replication: standby epoch " + follower.epoch() + ", holds " + follower.lastSequence() +
            " of the primary's " + follower.primarySequence() + " (lag " +
            Math.max(0, follower.primarySequence() - follower.lastSequence()) + " commands)" +
            (follower.isPromoted() ? ", promoted" : "") + refused(follower.refusedMessages());
    }

    /** The messages refused so far, when there are any: forged, replayed or of an old version. */
    private static String refused(final RefusedMessages refusals)
    {
        return refusals.total() == 0 ? "" : "; refused messages: " + refusals;
    }

    @Override
    public String roleName()
    {
        return "replication-report";
    }
}
