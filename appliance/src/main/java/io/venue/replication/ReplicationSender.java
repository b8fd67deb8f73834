package io.venue.replication;

import io.aeron.Publication;
import io.venue.replication.sbe.HeartbeatEncoder;
import io.venue.replication.sbe.MessageHeaderEncoder;
import io.venue.replication.sbe.ReplicaAckEncoder;
import io.venue.replication.sbe.ResendFromEncoder;
import io.venue.replication.sbe.Role;
import io.venue.replication.sbe.ShipCommandEncoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * Encodes the replication messages into one reused buffer and offers them on one publication. Heartbeats and
 * resend requests that find the publication busy or unconnected are dropped: each is sent again on its own
 * schedule. A command or an acknowledgement is reported back so its sender retries it. Every message goes out sealed
 * ({@link ReplicationSeal}): this sender's incarnation, its next counter, and a MAC under the pair's key.
 */
final class ReplicationSender
{
    private final Publication publication;
    /** On the heap, so the MAC reads it in place. */
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);
    private final ReplicationSeal seal;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ShipCommandEncoder ship = new ShipCommandEncoder();
    private final ReplicaAckEncoder ack = new ReplicaAckEncoder();
    private final HeartbeatEncoder heartbeat = new HeartbeatEncoder();
    private final ResendFromEncoder resend = new ResendFromEncoder();

    /**
     * @param seal this agent's seal, made for the direction of {@code publication}.
     */
    ReplicationSender(final Publication publication, final ReplicationSeal seal)
    {
        this.publication = publication;
        this.seal = seal;
    }

    boolean isConnected()
    {
        return publication.isConnected();
    }

    /**
     * Offers one command record.
     *
     * @return true once it is on its way; false when the publication is back-pressured or not connected
     * (retry later).
     * @throws IllegalStateException when the publication is closed or full for good.
     */
    boolean ship(final long epoch, final long sequence, final DirectBuffer record, final int offset, final int length)
    {
        ship.wrapAndApplyHeader(buffer, 0, header).epoch(epoch).sequence(sequence);
        final int prefix = MessageHeaderEncoder.ENCODED_LENGTH + ShipCommandEncoder.BLOCK_LENGTH;
        buffer.putBytes(prefix, record, offset, length);
        return offer(prefix + length, true);
    }

    /** @return false when it could not be offered now (send it again). */
    boolean ack(final long epoch, final long sequence)
    {
        ack.wrapAndApplyHeader(buffer, 0, header).epoch(epoch).sequence(sequence);
        return offer(MessageHeaderEncoder.ENCODED_LENGTH + ReplicaAckEncoder.BLOCK_LENGTH, false);
    }

    void heartbeat(final long epoch, final Role role, final long lastSequence, final long lastRecordCrc)
    {
        heartbeat.wrapAndApplyHeader(buffer, 0, header).epoch(epoch).role(role).lastSequence(lastSequence)
            .lastRecordCrc(lastRecordCrc);
        offer(MessageHeaderEncoder.ENCODED_LENGTH + HeartbeatEncoder.BLOCK_LENGTH, false);
    }

    void resendFrom(final long epoch, final long afterSequence, final long lastRecordCrc)
    {
        resend.wrapAndApplyHeader(buffer, 0, header).epoch(epoch).afterSequence(afterSequence)
            .lastRecordCrc(lastRecordCrc);
        offer(MessageHeaderEncoder.ENCODED_LENGTH + ResendFromEncoder.BLOCK_LENGTH, false);
    }

    private boolean offer(final int length, final boolean mustArrive)
    {
        final long result = publication.offer(buffer, 0, seal.seal(buffer, length));
        if (result > 0)
        {
            return true;
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
        {
            if (mustArrive)
            {
                throw new IllegalStateException(
                    "the replication publication cannot take more: " + Publication.errorString(result));
            }
        }
        return false;
    }
}
