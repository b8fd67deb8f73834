package io.venue.appliance;

import io.venue.journal.queue.Journal;
import io.venue.replication.AcknowledgementGate;
import io.venue.replication.CommandShipper;
import io.venue.replication.ReplicationContext;
import io.venue.replication.ReplicationMedia;
import io.venue.replication.StandbyFollower;
import io.venue.sequencer.SequencerListener;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The node's role ({@code role} and {@code replication.*}) and the agents it adds to the front thread: a single node
 * serves at once; a primary of a pair first listens for a newer primary (fenced: it refuses to start), then serves with
 * its answers gated on the standby, shipping its journal; a standby follows and serves only once promoted.
 */
final class Roles implements AutoCloseable
{
    /** Starts taking requests (the node's order entry, under the node's lock). */
    @FunctionalInterface
    interface Serve
    {
        void serve(long epoch, long lastSequence, SequencerListener answers, BooleanSupplier pause, boolean setUp);
    }

    private final ApplianceContext context;
    private final PrintStream log;
    private final Path data;
    private final NodeThreads threads;
    private final NodeOrderEntry entry;
    private final EngineShard shard;
    private final Serve serve;
    private final Supplier<String> baseUrl;
    private final ErrorHandler onError;
    private ReplicationMedia media;

    Roles(final ApplianceContext context, final PrintStream log, final Path data, final NodeThreads threads,
        final NodeOrderEntry entry,
        final EngineShard shard, final Serve serve, final Supplier<String> baseUrl, final ErrorHandler onError)
    {
        this.context = context;
        this.log = log;
        this.data = data;
        this.threads = threads;
        this.entry = entry;
        this.shard = shard;
        this.serve = serve;
        this.baseUrl = baseUrl;
        this.onError = onError;
    }

    /** Takes the node's role over a journal holding {@code journaled} commands, written under {@code epoch}. */
    void start(final Journal commands, final long epoch, final long journaled)
    {
        if (!context.replicated())
        {
            serve.serve(epoch, journaled, entry.answers(), () -> false, true);
            return;
        }
        final ReplicationContext replication = replication(context);
        media = ReplicationMedia.launch(data.resolve("aeron"));
        if (context.role() == ApplianceContext.Role.PRIMARY)
        {
            primary(commands, replication, epoch, journaled);
        }
        else
        {
            standby(commands, replication, epoch, journaled);
        }
    }

    private void primary(final Journal commands, final ReplicationContext replication, final long epoch,
        final long journaled)
    {
        final CommandShipper shipper = new CommandShipper(commands,
            media.aeron().addExclusivePublication(replication.commandChannel(), replication.commandStreamId()),
            media.aeron().addSubscription(replication.replyChannel(), replication.replyStreamId()), replication, epoch);
        final AcknowledgementGate gate = new AcknowledgementGate(entry.answers(), shipper::ackedSequence,
            replication.mode(), 10_000);
        threads.add(shipper);
        threads.add(gate);
        // listen before writing: a newer primary's heartbeat fences this node before it journals anything
        if (Waits.until(shipper::isFenced,
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(context.primaryTimeoutMs())))
        {
            throw new IllegalStateException(
                "fenced: a primary of epoch " + shipper.fencedBy() + " is running (this node's " +
                "journal is at epoch " + epoch +
                "); start this node as a standby on an empty folder (docs/OPERATIONS.md)");
        }
        serve.serve(epoch, journaled, gate, () -> gate.isFull() || shipper.isFenced(), true);
        threads.add(ReplicationReport.primary(log, context.replicationReportMs(), shipper, gate, entry.sequencer()));
        log.printf("primary of epoch %d, replicating %s to %s%n", epoch, replication.mode(), context.standbyEndpoint());
    }

    private void standby(final Journal commands, final ReplicationContext replication, final long epoch,
        final long journaled)
    {
        final StandbyFollower follower = new StandbyFollower(commands, journaled, epoch,
            media.aeron().addSubscription(replication.commandChannel(), replication.commandStreamId()),
            media.aeron().addExclusivePublication(replication.replyChannel(), replication.replyStreamId()), replication)
            .wakes(threads.engineBell());
        threads.add(follower);
        threads.add(ReplicationReport.standby(log, context.replicationReportMs(), follower));
        threads.add(new PromotionWatch(follower, entry.pending(), data,
            new Promotion(log, threads, entry, shard, serve, baseUrl, onError)));
        log.printf("standby at sequence %d following %s; promote with: venue-appliance promote --data %s%n",
            journaled, context.primaryEndpoint(), data);
    }

    /** The Aeron stream of the command channel (primary to standby) and of the reply channel (standby to primary). */
    static final int COMMAND_STREAM_ID = 1001;
    static final int REPLY_STREAM_ID = 1002;

    /** The replication settings: UDP between the two endpoints, heartbeats every 20 ms, sealed with the pair's key. */
    static ReplicationContext replication(final ApplianceContext context)
    {
        return new ReplicationContext()
            .key(ReplicationKey.load(context.replicationKeyFile()))
            .mode(context.replicationMode())
            .commandChannel("aeron:udp?endpoint=" + context.standbyEndpoint(), COMMAND_STREAM_ID)
            .replyChannel("aeron:udp?endpoint=" + context.primaryEndpoint(), REPLY_STREAM_ID)
            .heartbeatInterval(20, TimeUnit.MILLISECONDS)
            .primaryTimeout(context.primaryTimeoutMs(), TimeUnit.MILLISECONDS)
            .promoteOnPrimaryLoss(context.autoPromote());
    }

    /** The embedded media driver of a pair, if any. */
    @Override
    public void close()
    {
        CloseHelper.quietClose(media);
    }
}
