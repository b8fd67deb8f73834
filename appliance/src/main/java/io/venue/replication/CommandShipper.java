package io.venue.replication;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import io.venue.replication.sbe.HeartbeatDecoder;
import io.venue.replication.sbe.MessageHeaderDecoder;
import io.venue.replication.sbe.ReplicaAckDecoder;
import io.venue.replication.sbe.ResendFromDecoder;
import io.venue.replication.sbe.Role;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The primary's side of replication: ships every command of its command journal to the standby, from where
 * the standby asks ({@code ResendFrom}), and takes the standby's acknowledgements, which release the answers
 * to clients in synchronous mode ({@link AcknowledgementGate}). Heartbeats when it has nothing to ship.
 * <p>
 * Fencing: a heartbeat or request carrying a higher epoch than this primary's means another node was
 * promoted; the shipper then stops for good and {@link #isFenced()} tells the writer to stop too. Only a message that
 * passes its seal ({@link ReplicationSeal}: the pair's key, the current protocol version, not a replay) is read at all:
 * the others are counted and logged ({@link #refusedMessages()}) and change nothing.
 * <p>
 * One standby is followed: the one whose claim (where its journal ends) was last accepted, known by the Aeron session
 * of its messages. Only its acknowledgements and heartbeats count; another process on the reply channel (a diverged
 * standby still running beside its rebuilt replacement) can neither release answers nor, with a claim that is
 * refused, stop the shipping to the followed one. An accepted claim from another session (the standby restarted)
 * is followed instead.
 * <p>
 * Runs on one thread; other threads read its progress through the atomic getters.
 */
public final class CommandShipper implements Agent
{
    /** Command excerpts read per duty cycle (each holds one command or several). */
    private static final int SHIP_LIMIT = 256;

    private final Journal commands;
    private final Subscription replies;
    private final ReplicationSender sender;
    private final ReplicationContext context;
    private final long epoch;
    private final ReplicationSeal seal;
    private final RefusedMessages refusals;
    private final ReplicaAckDecoder ackDecoder = new ReplicaAckDecoder();
    private final HeartbeatDecoder heartbeatDecoder = new HeartbeatDecoder();
    private final ResendFromDecoder resendDecoder = new ResendFromDecoder();
    private final FragmentHandler onReply = this::onReply;
    private final RecordHandler onRecord = this::onRecord;
    private final AtomicLong ackedSequence = new AtomicLong();
    private final AtomicLong shippedSequence = new AtomicLong();
    private final AtomicBoolean fenced = new AtomicBoolean();
    private JournalTailer tailer;
    private boolean blocked;
    private final AtomicBoolean standbyAhead = new AtomicBoolean();
    private final AtomicBoolean standbyDiverged = new AtomicBoolean();
    /** The claim (sequence, record CRC) the standby was last judged on. */
    private long judgedAfter = -1;
    private long judgedCrc = -1;
    /** The Aeron session of the standby being shipped to: meaningful while {@code tailer} is not null. */
    private int followedSession;
    private long lastSentNs;
    private volatile long lastHeardNs;
    private volatile long fencedBy;

    /**
     * @param epoch this primary's epoch: higher than any in its journal's records it did not write itself.
     */
    public CommandShipper(
        final Journal commands, final Publication toStandby, final Subscription replies,
        final ReplicationContext context, final long epoch)
    {
        if (epoch < 1 || epoch > StandbyFollower.MAX_EPOCH)
        {
            throw new IllegalArgumentException("a primary's epoch is 1 to " + StandbyFollower.MAX_EPOCH + ": " + epoch);
        }
        this.commands = commands;
        this.seal = new ReplicationSeal(context.requireKey(), ReplicationSeal.TO_STANDBY);
        this.refusals = new RefusedMessages("primary", context.clock());
        this.sender = new ReplicationSender(toStandby, seal);
        this.replies = replies;
        this.context = context;
        this.epoch = epoch;
        this.lastHeardNs = context.clock().nanoTime();
    }

    @Override
    public int doWork()
    {
        int work = replies.poll(onReply, 16);
        if (fenced.get())
        {
            return work;
        }
        int shipped = 0;
        if (tailer != null)
        {
            blocked = false;
            while (shipped < SHIP_LIMIT && !blocked)
            {
                if (!tailer.read(onRecord))
                {
                    break;
                }
                if (blocked)
                {
                    // the standby's link is busy: the tailer goes on at the record that did not go out, next time
                    break;
                }
                shipped++;
            }
        }
        final long now = context.clock().nanoTime();
        if (shipped > 0)
        {
            lastSentNs = now;
        }
        else if (now - lastSentNs >= context.heartbeatIntervalNs())
        {
            // the journal's end, not what was shipped: after a restart, before the standby names its place, that is 0
            sender.heartbeat(epoch, Role.PRIMARY, commands.lastSequence(), 0);
            lastSentNs = now;
            work++;
        }
        return work + shipped;
    }

    private void onRecord(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        final long sequence = JournalRecords.sequence(buffer, offset);
        if (!sender.ship(epoch, sequence, buffer, offset, length))
        {
            blocked = true;
            tailer.stopHere();
            return;
        }
        shippedSequence.lazySet(sequence);
    }

    private void onReply(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        final int session = aeronHeader.sessionId();
        final ReplicationSeal.Verdict verdict = seal.open(buffer, offset, length);
        if (verdict != ReplicationSeal.Verdict.OPEN)
        {
            // not the standby holding the pair's key, or a replay: changes nothing, not even when it was last heard
            refusals.refuse(RefusedMessages.reason(verdict), session);
            return;
        }
        lastHeardNs = context.clock().nanoTime();
        final MessageHeaderDecoder header = seal.header();
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        switch (header.templateId())
        {
            case ReplicaAckDecoder.TEMPLATE_ID ->
            {
                ackDecoder.wrap(buffer, body, header.blockLength(), header.version());
                final long ackEpoch = ackDecoder.epoch();
                if (inRange(ackEpoch, session) && !fenceIfNewer(ackEpoch) && ackEpoch == epoch)
                {
                    acknowledged(session, ackDecoder.sequence());
                }
            }
            case ResendFromDecoder.TEMPLATE_ID ->
            {
                resendDecoder.wrap(buffer, body, header.blockLength(), header.version());
                if (inRange(resendDecoder.epoch(), session) && !fenceIfNewer(resendDecoder.epoch()))
                {
                    shipAfter(session, resendDecoder.afterSequence(), resendDecoder.lastRecordCrc());
                }
            }
            case HeartbeatDecoder.TEMPLATE_ID ->
            {
                heartbeatDecoder.wrap(buffer, body, header.blockLength(), header.version());
                // the raw role: Role.get throws on an unknown byte, and a handler that throws gets the message again
                if (inRange(heartbeatDecoder.epoch(), session) && !fenceIfNewer(heartbeatDecoder.epoch()) &&
                    heartbeatDecoder.roleRaw() == Role.STANDBY.value())
                {
                    if (null == tailer)
                    {
                        // this primary (re)started and the standby, in sequence, does not ask: start where it is
                        shipAfter(session, heartbeatDecoder.lastSequence(), heartbeatDecoder.lastRecordCrc());
                    }
                    else if (heartbeatDecoder.epoch() == epoch)
                    {
                        // a standby's heartbeat says what it holds, as an acknowledgement does
                        acknowledged(session, heartbeatDecoder.lastSequence());
                    }
                }
            }
            default ->
            {
                // a ShipCommand here is a primary's, sealed for the other direction: the MAC refused it already
            }
        }
    }

    /** False, counted and logged, for an epoch past the highest a promotion can reach. */
    private boolean inRange(final long peerEpoch, final int session)
    {
        if (peerEpoch > StandbyFollower.MAX_EPOCH)
        {
            refusals.refuse(RefusedMessages.Reason.EPOCH_OUT_OF_RANGE, session);
            return false;
        }
        return true;
    }

    /**
     * Ships from the first command after {@code afterSequence}, unless the standby's history is not this journal's: it
     * claims more than this journal holds, or its record at {@code afterSequence} is not this journal's record there
     * (the CRC of the record differs). A refused claim stays refused, however this journal grows; a different claim
     * (the standby rebuilt on an empty folder asks from 0) is judged afresh. While one standby is followed, a refused
     * claim of another session changes nothing. Every standby's claim carries its record's CRC (messages of the
     * versions that had none are refused before they get here).
     */
    private void shipAfter(final int session, final long afterSequence, final long standbyRecordCrc)
    {
        if (isStandbyRefused() && afterSequence == judgedAfter && standbyRecordCrc == judgedCrc)
        {
            return;
        }
        // the standby holds commands this primary does not (it lost its journal's tail, or the standby followed
        // another primary): nothing it says can be trusted as an acknowledgement
        final boolean ahead = afterSequence > commands.lastSequence();
        // or as many, but others: shipping the rest would append this journal's commands after them
        final boolean diverged = !ahead && commands.recordCrc(afterSequence) != standbyRecordCrc;
        if ((ahead || diverged) && null != tailer && session != followedSession)
        {
            return;
        }
        standbyAhead.set(ahead);
        standbyDiverged.set(diverged);
        judgedAfter = afterSequence;
        judgedCrc = standbyRecordCrc;
        if (null != tailer)
        {
            tailer.close();
            tailer = null;
        }
        if (!isStandbyRefused())
        {
            tailer = commands.tailer();
            tailer.moveAfterSequence(afterSequence);
            followedSession = session;
        }
    }

    /**
     * Counts an acknowledgement only of what this primary shipped in this epoch, and only from the followed standby.
     */
    private void acknowledged(final int session, final long sequence)
    {
        if (null != tailer && session == followedSession && sequence > ackedSequence.get() &&
            sequence <= shippedSequence.get())
        {
            ackedSequence.lazySet(sequence);
        }
    }

    /**
     * True when the standby said it holds commands past this primary's journal end: its acknowledgements are ignored
     * (in SYNC mode no answer is released) and nothing is shipped to it, until it makes another claim (rebuilt).
     */
    public boolean isStandbyAhead()
    {
        return standbyAhead.get();
    }

    /**
     * True when the standby's record at the sequence it asked from is not this journal's record there: treated as
     * {@link #isStandbyAhead()} is.
     */
    public boolean isStandbyDiverged()
    {
        return standbyDiverged.get();
    }

    private boolean isStandbyRefused()
    {
        return standbyAhead.get() || standbyDiverged.get();
    }

    private boolean fenceIfNewer(final long peerEpoch)
    {
        if (peerEpoch > epoch)
        {
            fencedBy = peerEpoch;
            fenced.set(true);
            return true;
        }
        return false;
    }

    /** The highest sequence the standby acknowledged holding. */
    public long ackedSequence()
    {
        return ackedSequence.get();
    }

    /** The last sequence offered to the standby. */
    public long shippedSequence()
    {
        return shippedSequence.get();
    }

    /** True once a node with a higher epoch was heard: this primary must not write again. */
    public boolean isFenced()
    {
        return fenced.get();
    }

    /** The epoch that fenced this primary, 0 if none. */
    public long fencedBy()
    {
        return fencedBy;
    }

    /** The standby's messages refused (forged, replayed, of an old version...): counts by reason. */
    public RefusedMessages refusedMessages()
    {
        return refusals;
    }

    /** When the standby was last heard from (a message that passed its seal), on the context's clock. */
    public long lastHeardNs()
    {
        return lastHeardNs;
    }

    public long epoch()
    {
        return epoch;
    }

    @Override
    public String roleName()
    {
        return "command-shipper";
    }
}
