package io.venue.sequencer;

/**
 * Told, on the sequencer's thread, once a request's record is in the command journal: the moment its
 * client may be answered. Must not block.
 */
public interface SequencerListener
{
    /** A verified action became command {@code sequence} at journal index {@code index}. */
    void onSequenced(long connectionId, long correlationId, long sequence, long index);

    /** A refused body (malformed, bad signature) was journaled as a RequestRejected record. */
    void onRejected(long connectionId, long correlationId, long sequence, long index);
}
