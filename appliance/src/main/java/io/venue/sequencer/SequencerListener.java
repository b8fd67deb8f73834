package io.venue.sequencer;

import io.venue.journal.sbe.RequestRejectReason;

/**
 * Told, on the sequencer's thread, once a request's record is in the command journal: the moment its
 * client may be answered. Must not block.
 */
public interface SequencerListener
{
    /** A verified action became command {@code sequence} at journal index {@code index}. */
    void onSequenced(long connectionId, long correlationId, long sequence, long index);

    /**
     * A refused body (malformed, bad signature) was journaled as a RequestRejected record; or, with correlation id 0,
     * a RequestsRejectedSummary record that no request waits for.
     */
    void onRejected(long connectionId, long correlationId, long sequence, long index);

    /**
     * A refused body beyond its connection's threshold ({@link RefusalAggregator}): counted into a summary its source
     * will be journaled under, with no record of its own, so answered now with what its RequestRejected would have
     * held. The arrays are the sequencer's, valid only during the call. A listener whose clients wait for their answer
     * must answer it here; by default it is dropped (a listener that answers nobody).
     */
    default void onRefusalCounted(
        final long connectionId, final long correlationId, final long timestampMs, final RequestRejectReason reason,
        final byte[] account, final byte[] digest, final String detail)
    {
    }
}
