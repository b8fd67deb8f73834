package io.venue.entry;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which of the verifier pool's two rings a connection's requests take (spec 8.2's {@code actions.lowLatencyMaxActions}
 * and {@code backlog.prebatchedMaxBatches}, DECISIONS.md).
 * <p>
 * A compact request of more orders than the low-latency limit is a batch: its orders wait on the pool's pre-batched
 * ring, which a verifier serves one request per duty cycle after the low-latency ring, and at most the backlog's limit
 * of batches of the whole gateway may wait at once (another is refused QUEUE_LIMIT before it is authenticated). Every
 * other request takes the low-latency ring, unless a request of its own connection on the pre-batched ring is still
 * unanswered: then it goes on the pre-batched ring too, behind it. The pool keeps the other direction (a pre-batched
 * request waits for the low-latency requests offered before it), so a connection's requests are verified in the order
 * it sent them.
 * <p>
 * One per connection, used on its I/O thread; answers count down on the responder's.
 */
final class PrebatchedOrder
{
    private final int lowLatencyMaxActions;
    /** The gateway's places for batches. */
    private final Semaphore batchPlaces;
    /** This connection's requests (a batch's orders each) on the pre-batched ring, not answered yet. */
    private final AtomicInteger unanswered = new AtomicInteger();

    PrebatchedOrder(final int lowLatencyMaxActions, final Semaphore batchPlaces)
    {
        this.lowLatencyMaxActions = lowLatencyMaxActions;
        this.batchPlaces = batchPlaces;
    }

    /** Whether a request of {@code orders} orders is a batch beyond the low-latency limit. */
    boolean isBatch(final int orders)
    {
        return orders > lowLatencyMaxActions;
    }

    /**
     * Takes a place in the gateway's backlog for one batch: null when the backlog is full, or what gives the place
     * back, once however often it runs (when the batch is answered in full, or refused, or its answer times out).
     */
    Runnable admitBatch()
    {
        if (!batchPlaces.tryAcquire())
        {
            return null;
        }
        final AtomicBoolean held = new AtomicBoolean(true);
        return () ->
        {
            if (held.getAndSet(false))
            {
                batchPlaces.release();
            }
        };
    }

    /** Whether this connection's next request must go behind one of its own on the pre-batched ring. */
    boolean behind()
    {
        return unanswered.get() > 0;
    }

    /**
     * The reply of a request about to be offered, counted until it comes when the request goes on the pre-batched ring;
     * if the pool does not take the request, call {@link #notTaken}.
     */
    PendingRequests.Reply track(final boolean prebatched, final PendingRequests.Reply reply)
    {
        if (!prebatched)
        {
            return reply;
        }
        unanswered.incrementAndGet();
        return answer ->
        {
            unanswered.decrementAndGet();
            reply.send(answer);
        };
    }

    /** A request {@link #track}ed on the pre-batched ring was not taken by the pool: no reply will come. */
    void notTaken(final boolean prebatched)
    {
        if (prebatched)
        {
            unanswered.decrementAndGet();
        }
    }
}
