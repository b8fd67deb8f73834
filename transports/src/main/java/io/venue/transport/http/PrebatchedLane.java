package io.venue.transport.http;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which of the verifier pool's two rings a connection's requests take (spec 8.2's {@code actions.lowLatencyMaxActions}
 * and {@code backlog.prebatchedMaxBatches}, DECISIONS.md).
 * <p>
 * A compact request of more orders than the low-latency limit is a pre-batched batch: its orders wait on the pool's
 * pre-batched ring, which a verifier serves one order per duty cycle after the low-latency ring, and at most the
 * backlog's limit of such batches of the whole gateway may be unanswered at once (another is refused QUEUE_LIMIT before
 * it is charged or verified). Every other request takes the low-latency ring, unless a pre-batched request of its own
 * connection is still unanswered: then it goes on the pre-batched ring behind it, so that a connection's requests are
 * still verified, and journaled, in the order it sent them.
 * <p>
 * One per connection, used on its I/O thread; the answers count down on the responder's.
 */
final class PrebatchedLane
{
    private final int lowLatencyMaxActions;
    private final int maxBatches;
    /** The gateway's batches not answered yet. */
    private final AtomicInteger gatewayBatches;
    /** This connection's requests (or orders of a batch) on the pre-batched ring, not answered yet. */
    private final AtomicInteger unanswered = new AtomicInteger();

    PrebatchedLane(final int lowLatencyMaxActions, final int maxBatches, final AtomicInteger gatewayBatches)
    {
        this.lowLatencyMaxActions = lowLatencyMaxActions;
        this.maxBatches = maxBatches;
        this.gatewayBatches = gatewayBatches;
    }

    /** Whether a request of {@code orders} orders is a batch beyond the low-latency limit. */
    boolean isBatch(final int orders)
    {
        return orders > lowLatencyMaxActions;
    }

    /** Takes a place in the gateway's backlog for one batch; false when the backlog is full (nothing taken). */
    boolean admitBatch()
    {
        int batches;
        do
        {
            batches = gatewayBatches.get();
            if (batches >= maxBatches)
            {
                return false;
            }
        }
        while (!gatewayBatches.compareAndSet(batches, batches + 1));
        return true;
    }

    /** A batch was answered in full: its place in the backlog is free. */
    void batchAnswered()
    {
        gatewayBatches.decrementAndGet();
    }

    /** Whether this connection's next request must go behind a pre-batched one not answered yet. */
    boolean behind()
    {
        return unanswered.get() > 0;
    }

    /** A request (or a batch's order) is about to be offered on the pre-batched ring. */
    void queued()
    {
        unanswered.incrementAndGet();
    }

    /** A request queued on the pre-batched ring was answered, or was not taken after all. */
    void answered()
    {
        unanswered.decrementAndGet();
    }
}
