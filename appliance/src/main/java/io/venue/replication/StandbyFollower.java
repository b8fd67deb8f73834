package io.venue.replication;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.replication.sbe.HeartbeatDecoder;
import io.venue.replication.sbe.MessageHeaderDecoder;
import io.venue.replication.sbe.Role;
import io.venue.replication.sbe.ShipCommandDecoder;
import io.venue.tuning.Doorbell;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The standby's side of replication: appends the commands the primary ships to the standby's own command
 * journal, strictly in sequence (an engine agent tails that journal, so the standby's event journal is the
 * primary's, byte for byte), acknowledges what it holds, and asks for what it misses (on start, and after
 * a gap). It adopts the primary's epoch and refuses commands of a lower one.
 * <p>
 * It reports the primary lost after {@link ReplicationContext#primaryTimeoutNs()} of silence (once it has
 * heard it at least once), and then promotes itself if {@link ReplicationContext#promoteOnPrimaryLoss()}.
 * {@link #promote()} (the operator's command, or the timeout) turns it into the fence of a new primary: from then on it
 * refuses every shipped command and its heartbeats, sent on the old primary's channel, carry the new epoch
 * as {@code PRIMARY}, so an old primary that comes back stops instead of writing.
 * <p>
 * Only a message that passes its seal ({@link ReplicationSeal}: the pair's key, the current protocol version, not a
 * replay) is read at all; the others are counted and logged ({@link #refusedMessages()}) and change nothing: no command
 * appended, no epoch adopted, the primary not counted as heard.
 * <p>
 * Runs on one thread; the getters and {@link #promote()} may be called from any.
 */
public final class StandbyFollower implements Agent
{
    /**
     * The highest epoch a node takes: a command record's epoch is a u32, whose highest value is SBE's null value. A
     * message naming a higher one is refused, and a standby at this epoch cannot promote.
     */
    public static final long MAX_EPOCH = 0xFFFF_FFFEL;
    private static final Logger LOG = LoggerFactory.getLogger(StandbyFollower.class);

    private final JournalAppender journal;
    private final Subscription fromPrimary;
    private final ReplicationSender sender;
    private final ReplicationContext context;
    private final ReplicationSeal seal;
    private final RefusedMessages refusals;
    private final ShipCommandDecoder shipDecoder = new ShipCommandDecoder();
    private final HeartbeatDecoder heartbeatDecoder = new HeartbeatDecoder();
    private final FragmentHandler onMessage = this::onMessage;
    private final AtomicLong lastSequence = new AtomicLong();
    /** The last sequence staged for this duty cycle's excerpt; equal to lastSequence when nothing is staged. */
    private long stagedThrough;
    /**
     * The CRC-32C of the record at {@link #crcSequence}, sent with the standby's heartbeats and requests so that the
     * primary can tell a standby whose history is not its own (it lost its journal's tail, or this node followed
     * another primary) from one that is only behind. Read from the journal when one is sent, not per record shipped.
     */
    private long lastRecordCrc;
    private long crcSequence = -1;
    private final Journal commands;
    private final AtomicLong primarySequence = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicBoolean promoteRequested = new AtomicBoolean();
    private volatile boolean promoted;
    private volatile long epoch;
    private volatile long lastHeardNs;
    /** Read by the operator's promotion on another thread; written once. */
    private volatile boolean heardOnce;
    private boolean inSequence;
    private boolean unacknowledged;
    private Doorbell engine;
    private long lastResendNs;
    private long lastSentNs;

    /**
     * @param journal      the standby's own command journal (this follower is its one writer).
     * @param lastSequence the last sequence already in it (0 when empty).
     * @param epoch        the highest epoch in it (the primary's must be at least this).
     */
    public StandbyFollower(
        final Journal journal,
        final long lastSequence,
        final long epoch,
        final Subscription fromPrimary,
        final Publication toPrimary,
        final ReplicationContext context)
    {
        if (epoch < 0 || epoch > MAX_EPOCH)
        {
            throw new IllegalArgumentException("a standby's epoch is 0 to " + MAX_EPOCH + ": " + epoch);
        }
        this.seal = new ReplicationSeal(context.requireKey(), ReplicationSeal.TO_PRIMARY);
        this.refusals = new RefusedMessages("standby", context.clock());
        this.commands = journal;
        this.journal = journal.appender();
        this.fromPrimary = fromPrimary;
        this.sender = new ReplicationSender(toPrimary, seal);
        this.context = context;
        this.epoch = epoch;
        this.lastSequence.set(lastSequence);
        this.stagedThrough = lastSequence;
        this.lastResendNs = context.clock().nanoTime() - context.heartbeatIntervalNs();
    }

    /**
     * Rings {@code engine} (the bell of the thread that tails this node's command journal) after each excerpt of
     * shipped records appended.
     */
    public StandbyFollower wakes(final Doorbell engine)
    {
        this.engine = engine;
        return this;
    }

    @Override
    public int doWork()
    {
        // read what arrived first: after a long pause of this thread the primary's messages may be waiting
        int work = fromPrimary.poll(onMessage, 64);
        commitStaged();
        if (!promoted && context.promoteOnPrimaryLoss() && isPrimaryLost())
        {
            promoteRequested.set(true);
        }
        if (promoteRequested.get() && !promoted)
        {
            if (epoch < MAX_EPOCH)
            {
                epoch = epoch + 1;
                promoted = true;
            }
            else
            {
                // epoch + 1 would not fit the records' u32 (or would be SBE's null value): stays a standby
                promoteRequested.set(false);
                LOG.error("replication: cannot promote, the epoch followed is already the highest ({})", epoch);
            }
        }
        final long now = context.clock().nanoTime();
        if (promoted)
        {
            if (now - lastSentNs >= context.heartbeatIntervalNs())
            {
                sender.heartbeat(epoch, Role.PRIMARY, lastSequence.get(), 0);
                lastSentNs = now;
                work++;
            }
            return work;
        }
        if (unacknowledged && sender.ack(epoch, lastSequence.get()))
        {
            // one that could not be offered stays due: in synchronous mode the primary's answers wait on it
            unacknowledged = false;
            lastSentNs = now;
            work++;
        }
        if (!inSequence && now - lastResendNs >= context.heartbeatIntervalNs())
        {
            // until the primary ships in order from where this journal ends
            sender.resendFrom(epoch, lastSequence.get(), lastRecordCrc());
            lastResendNs = now;
            lastSentNs = now;
            work++;
        }
        if (now - lastSentNs >= context.heartbeatIntervalNs())
        {
            sender.heartbeat(epoch, Role.STANDBY, lastSequence.get(), lastRecordCrc());
            lastSentNs = now;
            work++;
        }
        return work;
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        final ReplicationSeal.Verdict verdict = seal.open(buffer, offset, length);
        if (verdict != ReplicationSeal.Verdict.OPEN)
        {
            // not the primary holding the pair's key, or a replay: changes nothing, not even when it was last heard
            refusals.refuse(RefusedMessages.reason(verdict), aeronHeader.sessionId());
            return;
        }
        final MessageHeaderDecoder header = seal.header();
        final int blockLength = header.blockLength();
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        if (header.templateId() == ShipCommandDecoder.TEMPLATE_ID)
        {
            shipDecoder.wrap(buffer, body, blockLength, header.version());
            if (inRange(shipDecoder.epoch(), aeronHeader.sessionId()))
            {
                onCommand(shipDecoder.epoch(), shipDecoder.sequence(), buffer, body + blockLength,
                    offset + seal.bodyLength() - body - blockLength, aeronHeader.sessionId());
            }
        }
        else if (header.templateId() == HeartbeatDecoder.TEMPLATE_ID)
        {
            heartbeatDecoder.wrap(buffer, body, blockLength, header.version());
            // the raw role: Role.get throws on an unknown byte, and a handler that throws gets the message again
            if (inRange(heartbeatDecoder.epoch(), aeronHeader.sessionId()) && !promoted &&
                heartbeatDecoder.roleRaw() == Role.PRIMARY.value() && heartbeatDecoder.epoch() >= epoch)
            {
                heard(heartbeatDecoder.epoch());
                primarySequence.lazySet(heartbeatDecoder.lastSequence());
            }
        }
    }

    /** False, counted and logged, for an epoch past the highest a promotion can reach. */
    private boolean inRange(final long peerEpoch, final int session)
    {
        if (peerEpoch > MAX_EPOCH)
        {
            refusals.refuse(RefusedMessages.Reason.EPOCH_OUT_OF_RANGE, session);
            return false;
        }
        return true;
    }

    private void onCommand(final long shippedEpoch, final long sequence, final DirectBuffer buffer, final int offset,
        final int length, final int session)
    {
        if (promoted || shippedEpoch < epoch)
        {
            // an old primary's command: fenced out
            refused.incrementAndGet();
            refusals.refuse(RefusedMessages.Reason.OLD_EPOCH, session);
            return;
        }
        heard(shippedEpoch);
        final long last = stagedThrough;
        if (sequence <= last)
        {
            return;
        }
        if (sequence != last + 1 || length < JournalRecords.SEQUENCE_OFFSET + 8 ||
            JournalRecords.sequence(buffer, offset) != sequence)
        {
            // a gap (or a record that does not say what the message says): ask again from where we are
            inSequence = false;
            return;
        }
        journal.add(buffer, offset, length);
        stagedThrough = sequence;
        if (sequence > primarySequence.get())
        {
            primarySequence.lazySet(sequence);
        }
        inSequence = true;
        unacknowledged = true;
        if (journal.stagedLength() >= JournalAppender.BATCH_COMMIT_BYTES)
        {
            commitStaged();
        }
    }

    /**
     * Appends the commands received in this duty cycle as one excerpt; only then does this node hold them (what it
     * acknowledges) and its engine apply them. A write that fails holds none of them: this node asks for them again.
     */
    private void commitStaged()
    {
        if (stagedThrough == lastSequence.get())
        {
            return;
        }
        try
        {
            journal.commit();
        }
        catch (final Throwable ex)
        {
            stagedThrough = lastSequence.get();
            inSequence = false;
            throw ex;
        }
        lastSequence.lazySet(stagedThrough);
        if (engine != null)
        {
            engine.ring();
        }
    }

    /** The CRC of the record at lastSequence, read again only once lastSequence has moved. */
    private long lastRecordCrc()
    {
        final long sequence = lastSequence.get();
        if (sequence != crcSequence)
        {
            lastRecordCrc = commands.recordCrc(sequence);
            crcSequence = sequence;
        }
        return lastRecordCrc;
    }

    private void heard(final long primaryEpoch)
    {
        epoch = Math.max(epoch, primaryEpoch);
        lastHeardNs = context.clock().nanoTime();
        if (!heardOnce)
        {
            heardOnce = true;
        }
    }

    /**
     * True once a primary was heard since this follower started: only then is its epoch the primary's, and the epoch
     * its promotion takes sure to be above it.
     */
    public boolean hasHeardPrimary()
    {
        return heardOnce;
    }

    /** Asks the follower to stop following and fence for a new primary; takes effect on its next duty cycle. */
    public void promote()
    {
        promoteRequested.set(true);
    }

    /** True once promoted: the node may write, with {@link #epoch()}, after {@link #lastSequence()}. */
    public boolean isPromoted()
    {
        return promoted;
    }

    /** True when the primary, heard before, has been silent for longer than the primary timeout. */
    public boolean isPrimaryLost()
    {
        return heardOnce && context.clock().nanoTime() - lastHeardNs > context.primaryTimeoutNs();
    }

    /** The last sequence in this standby's journal. */
    public long lastSequence()
    {
        return lastSequence.get();
    }

    /** The primary's last sequence as last heard: minus {@link #lastSequence()}, the replication lag in commands. */
    public long primarySequence()
    {
        return primarySequence.get();
    }

    /** The epoch followed, or after promotion the new primary's. */
    public long epoch()
    {
        return epoch;
    }

    /** Every message refused (forged, replayed, of an old version, of an older epoch...): counts by reason. */
    public RefusedMessages refusedMessages()
    {
        return refusals;
    }

    /** Commands refused because they came from an older epoch (a fenced primary). */
    public long refusedCommands()
    {
        return refused.get();
    }

    @Override
    public String roleName()
    {
        return "standby-follower";
    }
}
