package io.venue.entry;

/**
 * A request the order-entry core refused before the verifier pool, in no lane's wire form: journaled already where the
 * journal must know it (every refusal of a write), and cheap to answer again. Each lane renders it.
 */
public record Refusal(Code code, String message, long retryAfterSeconds)
{
    /** Why the core refused. */
    public enum Code
    {
        /** The node is draining: the request was not taken, send it to the next node. */
        SHUTTING_DOWN,
        /** The matching shard is too far behind the journal: latency could not stay bounded. */
        SHARD_BUSY,
        /** The verifier's queue, or the pre-batched backlog, is full. */
        QUEUE_LIMIT,
        /** The address sends faster than the edge throttle allows ({@link #retryAfterSeconds} to wait). */
        EDGE_RATE_LIMITED
    }
}
