package io.venue.replication;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.venue.codec.Hex;
import io.venue.engine.EngineAgent;
import io.venue.engine.RandomCommands;
import io.venue.engine.ShardRecovery;
import io.venue.engine.state.EngineState;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.sequencer.SequencerListener;
import io.venue.testing.RecordFiles;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One appliance node of the failover test, in its own JVM: recovers its shard from its folder, then runs as
 * the primary (journals the source's commands at a steady pace, ships them, answers each only once the
 * standby holds it: "ACK seq") or as the standby (follows, applies, promotes when the primary falls silent,
 * then journals the rest of the source under its new epoch). A node that starts as primary first listens
 * for a primary timeout; hearing a newer epoch it prints "FENCED epoch" and exits 3 without writing.
 * <p>
 * Arguments: {@code primary|standby folder source.bin commandPort replyPort keyHex} (keyHex: the key both nodes
 * seal with). A standby stops when a file named "stop" appears in its folder.
 */
public final class ReplicaNode
{
    static final long PRIMARY_TIMEOUT_MS = 1_000;
    /** The primary's pace: commands per millisecond, so a run lasts seconds and a kill lands in the middle. */
    private static final int COMMANDS_PER_MS = 5;

    private ReplicaNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final boolean primary = "primary".equals(args[0]);
        final Path folder = Path.of(args[1]);
        final List<byte[]> source = RecordFiles.read(Path.of(args[2]));
        final ReplicationContext context = new ReplicationContext()
            .mode(ReplicationContext.Mode.SYNC)
            .commandChannel("aeron:udp?endpoint=127.0.0.1:" + args[3], 1001)
            .replyChannel("aeron:udp?endpoint=127.0.0.1:" + args[4], 1002)
            .heartbeatInterval(20, TimeUnit.MILLISECONDS)
            .primaryTimeout(PRIMARY_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .key(Hex.fromHex(args[5]));
        try (ReplicationMedia media = ReplicationMedia.launch(folder.resolve("aeron"));
            Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final ShardRecovery recovery = ShardRecovery.recover(RandomCommands.config(),
                new EngineState.Context().directory(folder.resolve("state")).sizeFor(1_000, 10_000), commands, events,
                new ShardRecovery.Report()
                {
                    public void onStateRebuilt(final String reason)
                    {
                    }

                    public void onUnreadable(final long index, final long sequence)
                    {
                        System.out.println("UNREADABLE " + index + " " + sequence);
                    }

                    public void onReplayed(final long replayed, final long matched, final long appended,
                        final long last)
                    {
                        System.out.println("RECOVERED " + last);
                    }
                });
            final long last = recovery.engine().lastSequence();
            final long epoch = commands.lastEpoch();
            if (primary)
            {
                runPrimary(media, context, commands, recovery, source, last, Math.max(1, epoch));
            }
            else
            {
                runStandby(media, context, folder, commands, recovery, source, last, Math.max(1, epoch));
            }
            recovery.state().close();
        }
        System.exit(0);
    }

    private static void runPrimary(
        final ReplicationMedia media, final ReplicationContext context, final Journal commands,
        final ShardRecovery recovery,
        final List<byte[]> source, final long last, final long epoch) throws InterruptedException
    {
        final Publication toStandby = media.aeron()
            .addExclusivePublication(context.commandChannel(), context.commandStreamId());
        final Subscription replies = media.aeron().addSubscription(context.replyChannel(), context.replyStreamId());
        final CommandShipper shipper = new CommandShipper(commands, toStandby, replies, context, epoch);
        // a primary that starts listens first: a newer primary's heartbeat fences it before it writes anything
        final long listenUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PRIMARY_TIMEOUT_MS);
        while (System.nanoTime() < listenUntil && !shipper.isFenced())
        {
            shipper.doWork();
            Thread.sleep(1);
        }
        if (shipper.isFenced())
        {
            System.out.println("FENCED " + shipper.fencedBy());
            System.out.flush();
            System.exit(3);
        }
        final AcknowledgementGate gate = new AcknowledgementGate(new SequencerListener()
        {
            public void onSequenced(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
                System.out.println("ACK " + sequence);
            }

            public void onRejected(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
            }
        }, shipper::ackedSequence, context.mode(), 10_000);
        final JournalAppender out = commands.appender();
        final EngineAgent engine = new EngineAgent(recovery.engine(), recovery.commands(), 256);
        final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        int sent = 0;
        final long start = System.nanoTime();
        for (final byte[] record : source)
        {
            view.wrap(record);
            final long sequence = JournalRecords.sequence(view, 0);
            if (sequence <= last)
            {
                continue;
            }
            view.putInt(JournalRecords.EPOCH_OFFSET, (int)epoch, JournalRecords.BYTE_ORDER);
            final long index = out.append(view, 0, record.length);
            gate.onSequenced(0, sequence, sequence, index);
            sent++;
            while (sent > COMMANDS_PER_MS * TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) ||
                gate.held() > 5_000)
            {
                dutyCycle(shipper, gate, engine);
            }
            dutyCycle(shipper, gate, engine);
        }
        System.out.println("SOURCE DONE");
        System.out.flush();
        while (true)
        {
            dutyCycle(shipper, gate, engine);
            Thread.sleep(1);
        }
    }

    private static void dutyCycle(final CommandShipper shipper, final AcknowledgementGate gate,
        final EngineAgent engine)
    {
        shipper.doWork();
        gate.doWork();
        engine.doWork();
    }

    private static void runStandby(
        final ReplicationMedia media, final ReplicationContext context, final Path folder, final Journal commands,
        final ShardRecovery recovery, final List<byte[]> source, final long last, final long epoch) throws Exception
    {
        final Subscription fromPrimary = media.aeron()
            .addSubscription(context.commandChannel(), context.commandStreamId());
        final Publication toPrimary = media.aeron()
            .addExclusivePublication(context.replyChannel(), context.replyStreamId());
        final JournalAppender out = commands.appender();
        final StandbyFollower follower = new StandbyFollower(commands, last, epoch, fromPrimary, toPrimary, context);
        final EngineAgent engine = new EngineAgent(recovery.engine(), recovery.commands(), 256);
        System.out.println("FOLLOWING " + last);
        System.out.flush();
        while (!follower.isPromoted())
        {
            if (follower.doWork() + engine.doWork() == 0)
            {
                Thread.sleep(1);
            }
        }
        final long promotedAt = follower.lastSequence();
        final long newEpoch = follower.epoch();
        System.out.println("PROMOTED " + newEpoch + " " + promotedAt);
        System.out.flush();
        // now the primary: the rest of the source, under the new epoch (the follower keeps heartbeating it)
        final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        for (final byte[] record : source)
        {
            view.wrap(record);
            if (JournalRecords.sequence(view, 0) <= promotedAt)
            {
                continue;
            }
            view.putInt(JournalRecords.EPOCH_OFFSET, (int)newEpoch, JournalRecords.BYTE_ORDER);
            out.append(view, 0, record.length);
            follower.doWork();
            engine.doWork();
        }
        while (engine.appliedSequence() < JournalRecords.sequence(new UnsafeBuffer(source.get(source.size() - 1)), 0))
        {
            engine.doWork();
        }
        recovery.engine().flushState();
        System.out.println("DONE " + Hex.to0x(recovery.engine().stateHash()) + " " + engine.appliedSequence());
        System.out.flush();
        while (!Files.exists(folder.resolve("stop")))
        {
            follower.doWork();
            engine.doWork();
            Thread.sleep(1);
        }
    }
}
