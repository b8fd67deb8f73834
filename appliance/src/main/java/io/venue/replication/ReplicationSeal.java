package io.venue.replication;

import io.venue.replication.sbe.HeartbeatDecoder;
import io.venue.replication.sbe.MessageHeaderDecoder;
import io.venue.replication.sbe.ReplicaAckDecoder;
import io.venue.replication.sbe.ResendFromDecoder;
import io.venue.replication.sbe.ShipCommandDecoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The seal every replication message carries from schema version 3 (venue-replication.xml): after the message, the
 * sender's incarnation, its message counter and a MAC ({@link ReplicationMac}) of a direction byte and everything
 * before the MAC. One per replication agent (it owns a MAC and the peers' counters), used on that agent's thread only.
 * <p>
 * Sending, {@link #seal} stamps this agent's incarnation and next counter and signs. Receiving, {@link #open} refuses a
 * message too short or not of this schema, of an older version, whose blocks do not fit, whose MAC does not verify (no
 * key, another key, a byte changed, or a message meant for the other direction: reflected), or that is not newer than
 * what this agent last took from the same sender (a replay): its incarnation is one it has seen and the counter is not
 * past the last, or an incarnation older than one it has forgotten.
 */
final class ReplicationSeal
{
    /** Direction byte of the command channel: primary to standby. */
    static final byte TO_STANDBY = 1;
    /** Direction byte of the reply channel: standby (or a promoted standby) to primary. */
    static final byte TO_PRIMARY = 2;
    /** The schema version that brought the seal; older messages are refused, not read with weaker checks. */
    static final int SINCE_VERSION = 3;
    static final int INCARNATION_OFFSET = 0;
    static final int COUNTER_OFFSET = 8;
    static final int MAC_OFFSET = 16;
    /** Bytes after the message: incarnation, counter, MAC. */
    static final int LENGTH = MAC_OFFSET + ReplicationMac.LENGTH;
    /** Senders remembered at once: a standby, its rebuilt replacement, restarts of either. */
    private static final int PEERS = 4;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** Incarnations handed out in this JVM: each sender started gets a higher one, across restarts too (wall clock). */
    private static final AtomicLong LAST_INCARNATION = new AtomicLong();

    /** Why {@link #open} refused a message; {@link #OPEN} when it did not. */
    enum Verdict
    {
        OPEN,
        MALFORMED,
        OLD_VERSION,
        BAD_MAC,
        REPLAYED
    }

    private final ReplicationMac mac;
    private final byte outbound;
    private final byte inbound;
    private final long incarnation;
    private long counter;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final long[] peerIncarnations = new long[PEERS];
    private final long[] peerCounters = new long[PEERS];
    private final long[] peerUsed = new long[PEERS];
    /** Incarnations up to this one are refused unless remembered: the highest forgotten. */
    private long forgottenThrough;
    private long uses;
    private int bodyLength;

    /**
     * @param outbound the direction byte of what this agent sends ({@link #TO_STANDBY} or {@link #TO_PRIMARY}); what it
     *                 receives must carry the other one.
     */
    ReplicationSeal(final byte[] key, final byte outbound)
    {
        this.mac = new ReplicationMac(key);
        this.outbound = outbound;
        this.inbound = outbound == TO_STANDBY ? TO_PRIMARY : TO_STANDBY;
        this.incarnation = nextIncarnation();
    }

    /** Higher than any handed out before in this JVM, and than the wall clock in microseconds (a restarted process). */
    static long nextIncarnation()
    {
        final long now = System.currentTimeMillis() * 1_000L;
        return LAST_INCARNATION.accumulateAndGet(now, (last, clock) -> Math.max(last + 1, clock));
    }

    /** Seals the {@code length} bytes of the message at 0 in {@code buffer}; returns the sealed length. */
    int seal(final MutableDirectBuffer buffer, final int length)
    {
        buffer.putLong(length + INCARNATION_OFFSET, incarnation, ORDER);
        buffer.putLong(length + COUNTER_OFFSET, ++counter, ORDER);
        mac.sign(outbound, buffer, 0, length + MAC_OFFSET, buffer, length + MAC_OFFSET);
        return length + LENGTH;
    }

    /**
     * Checks a received message; only when it returns {@link Verdict#OPEN} may the caller read it, and then only the
     * first {@link #bodyLength()} bytes (the seal excluded). Taking it counts its counter as used.
     */
    Verdict open(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH + LENGTH)
        {
            return Verdict.MALFORMED;
        }
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            return Verdict.MALFORMED;
        }
        if (header.version() < SINCE_VERSION)
        {
            return Verdict.OLD_VERSION;
        }
        final int body = length - LENGTH;
        final int minBlock = minBlockLength(header.templateId());
        final int blockLength = header.blockLength();
        if (minBlock < 0 || blockLength < minBlock || MessageHeaderDecoder.ENCODED_LENGTH + blockLength > body)
        {
            return Verdict.MALFORMED;
        }
        if (!mac.verify(inbound, buffer, offset, body + MAC_OFFSET, offset + body + MAC_OFFSET))
        {
            return Verdict.BAD_MAC;
        }
        final int seal = offset + body;
        if (!fresh(buffer.getLong(seal + INCARNATION_OFFSET, ORDER), buffer.getLong(seal + COUNTER_OFFSET, ORDER)))
        {
            return Verdict.REPLAYED;
        }
        bodyLength = body;
        return Verdict.OPEN;
    }

    /** The length of the last opened message without its seal. */
    int bodyLength()
    {
        return bodyLength;
    }

    /** The header of the last opened message. */
    MessageHeaderDecoder header()
    {
        return header;
    }

    /** The block every message of version 3 has at least; -1 for a template this schema does not have. */
    private static int minBlockLength(final int templateId)
    {
        return switch (templateId)
        {
            case ShipCommandDecoder.TEMPLATE_ID -> ShipCommandDecoder.BLOCK_LENGTH;
            case ReplicaAckDecoder.TEMPLATE_ID -> ReplicaAckDecoder.BLOCK_LENGTH;
            case HeartbeatDecoder.TEMPLATE_ID -> HeartbeatDecoder.BLOCK_LENGTH;
            case ResendFromDecoder.TEMPLATE_ID -> ResendFromDecoder.BLOCK_LENGTH;
            default -> -1;
        };
    }

    /** Takes (incarnation, counter) if it is past the last seen of that sender, remembering the sender. */
    private boolean fresh(final long senderIncarnation, final long senderCounter)
    {
        uses++;
        int oldest = 0;
        for (int i = 0; i < PEERS; i++)
        {
            if (peerUsed[i] != 0 && peerIncarnations[i] == senderIncarnation)
            {
                if (senderCounter <= peerCounters[i])
                {
                    return false;
                }
                peerCounters[i] = senderCounter;
                peerUsed[i] = uses;
                return true;
            }
            if (peerUsed[i] < peerUsed[oldest])
            {
                oldest = i;
            }
        }
        if (senderIncarnation <= forgottenThrough)
        {
            // a sender forgotten, or older than one forgotten: its messages can only be replays now
            return false;
        }
        if (peerUsed[oldest] != 0)
        {
            forgottenThrough = Math.max(forgottenThrough, peerIncarnations[oldest]);
        }
        peerIncarnations[oldest] = senderIncarnation;
        peerCounters[oldest] = senderCounter;
        peerUsed[oldest] = uses;
        return true;
    }
}
