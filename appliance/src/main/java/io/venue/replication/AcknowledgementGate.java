package io.venue.replication;

import io.venue.journal.sbe.RequestRejectReason;
import io.venue.sequencer.SequencerListener;
import org.agrona.concurrent.Agent;

import java.util.function.LongSupplier;

/**
 * Holds the sequencer's "journaled" notices until the standby holds the command too, then passes them on:
 * the synchronous replication mode, in which a client is answered only once its command is in two journals.
 * In asynchronous mode it passes every notice straight through. Sits between the {@code Sequencer} and the
 * responders, on the sequencer's thread (as a listener, and as an agent that releases what the standby
 * acknowledged); holds notices in a ring that grows when needed, so it never refuses or blocks, and says when
 * it holds as many as it should ({@link #isFull()}) so that the sequencer stops taking more.
 */
public final class AcknowledgementGate implements SequencerListener, Agent
{
    private final SequencerListener downstream;
    private final LongSupplier replicatedSequence;
    private final boolean synchronous;
    private final int maxHeld;
    private long[] connections = new long[1024];
    private long[] correlations = new long[1024];
    private long[] sequences = new long[1024];
    private long[] indexes = new long[1024];
    private boolean[] accepted = new boolean[1024];
    private int head;
    private int size;

    /**
     * @param replicatedSequence the highest sequence the standby holds ({@link CommandShipper#ackedSequence()}).
     * @param maxHeld            notices held before {@link #isFull()}: pause the sequencer on it
     *                           ({@code Sequencer.pauseWhen(gate::isFull)}), so that with the standby gone the verifier
     *                           pool fills and new requests are refused at the edge instead of piling up here.
     */
    public AcknowledgementGate(
        final SequencerListener downstream, final LongSupplier replicatedSequence, final ReplicationContext.Mode mode,
        final int maxHeld)
    {
        if (maxHeld < 1)
        {
            throw new IllegalArgumentException("maxHeld must be positive: " + maxHeld);
        }
        this.downstream = downstream;
        this.replicatedSequence = replicatedSequence;
        this.synchronous = mode == ReplicationContext.Mode.SYNC;
        this.maxHeld = maxHeld;
    }

    /** True while {@code maxHeld} or more notices wait for the standby. */
    public boolean isFull()
    {
        return size >= maxHeld;
    }

    @Override
    public void onSequenced(final long connectionId, final long correlationId, final long sequence, final long index)
    {
        notice(connectionId, correlationId, sequence, index, true);
    }

    @Override
    public void onRejected(final long connectionId, final long correlationId, final long sequence, final long index)
    {
        notice(connectionId, correlationId, sequence, index, false);
    }

    /** Nothing of it is journaled, so nothing waits for the standby: passed on at once in either mode. */
    @Override
    public void onRefusalCounted(
        final long connectionId, final long correlationId, final long timestampMs, final RequestRejectReason reason,
        final byte[] account, final byte[] digest, final String detail)
    {
        downstream.onRefusalCounted(connectionId, correlationId, timestampMs, reason, account, digest, detail);
    }

    private void notice(final long connectionId, final long correlationId, final long sequence, final long index,
        final boolean accepted)
    {
        if (synchronous)
        {
            hold(connectionId, correlationId, sequence, index, accepted);
        }
        else
        {
            pass(connectionId, correlationId, sequence, index, accepted);
        }
    }

    private void pass(final long connectionId, final long correlationId, final long sequence, final long index,
        final boolean accepted)
    {
        if (accepted)
        {
            downstream.onSequenced(connectionId, correlationId, sequence, index);
        }
        else
        {
            downstream.onRejected(connectionId, correlationId, sequence, index);
        }
    }

    /** Passes on, in order, every held notice whose command the standby now holds. */
    @Override
    public int doWork()
    {
        if (size == 0)
        {
            return 0;
        }
        final long replicated = replicatedSequence.getAsLong();
        int released = 0;
        while (size > 0 && sequences[head] <= replicated)
        {
            pass(connections[head], correlations[head], sequences[head], indexes[head], accepted[head]);
            head = (head + 1) % sequences.length;
            size--;
            released++;
        }
        return released;
    }

    /** Notices waiting for the standby. */
    public int held()
    {
        return size;
    }

    private void hold(final long connectionId, final long correlationId, final long sequence, final long index,
        final boolean isAccepted)
    {
        if (size == sequences.length)
        {
            grow();
        }
        final int slot = (head + size) % sequences.length;
        connections[slot] = connectionId;
        correlations[slot] = correlationId;
        sequences[slot] = sequence;
        indexes[slot] = index;
        accepted[slot] = isAccepted;
        size++;
    }

    private void grow()
    {
        final int capacity = sequences.length * 2;
        connections = unwrap(connections, capacity);
        correlations = unwrap(correlations, capacity);
        sequences = unwrap(sequences, capacity);
        indexes = unwrap(indexes, capacity);
        final boolean[] flags = new boolean[capacity];
        for (int i = 0; i < size; i++)
        {
            flags[i] = accepted[(head + i) % accepted.length];
        }
        accepted = flags;
        head = 0;
    }

    private long[] unwrap(final long[] ring, final int capacity)
    {
        final long[] grown = new long[capacity];
        for (int i = 0; i < size; i++)
        {
            grown[i] = ring[(head + i) % ring.length];
        }
        return grown;
    }

    @Override
    public String roleName()
    {
        return "acknowledgement-gate";
    }
}
