package io.venue.responder;

import io.venue.entry.Answer;
import io.venue.journal.sbe.RejectCode;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers of the last journaled actions, by action digest, for the status query of a client that timed out
 * (GET /api/v1/trading/actions/{digest}), kept lane-neutral so that every lane can render them. At most
 * {@code capacity} answers and about {@code budgetBytes} bytes of heap ({@link Answer#retainedBytes} and the table's
 * own entry): the oldest go first. What is kept of each is {@link Answer#kept}: a refusal's canonical JSON and detail
 * cut to about 1 KB, so a stranger's large refused bodies cost the table a bounded amount and fill it no faster than
 * small ones would by count.
 * <p>
 * The answer kept is the one that says what happened to the action: once an answer used the action's nonce (accepted,
 * or refused after the nonce step) it stays, and a resubmission's {@code nonce_replayed} never replaces it; an answer
 * that changed nothing (refused before the nonce step: rate limit, signer, malformed...) is replaced by the next one
 * for the same body. Written by the responder's thread only, read by the lanes' threads.
 */
public final class RecentAnswers
{
    /** The default byte budget: 64 MiB, about 100,000 ordinary answers or 45,000 refusals carrying 1 KB. */
    public static final long DEFAULT_BUDGET_BYTES = 64L << 20;
    /** The smallest budget taken: one answer of a 1,000-leg batch (its order ids) must fit with room to spare. */
    public static final long MIN_BUDGET_BYTES = 1L << 20;
    /** A table entry's own heap beyond its answer: the map's node and table slot, the key's buffer, the queue slot. */
    static final int ENTRY_BYTES = 128;

    private final ConcurrentHashMap<ByteBuffer, Answer> byDigest;
    /** The digests kept, oldest first. */
    private final ArrayDeque<ByteBuffer> order;
    private final int capacity;
    private final long budgetBytes;
    private long bytes;

    public RecentAnswers(final int capacity)
    {
        this(capacity, DEFAULT_BUDGET_BYTES);
    }

    public RecentAnswers(final int capacity, final long budgetBytes)
    {
        if (capacity < 1 || budgetBytes < MIN_BUDGET_BYTES)
        {
            throw new IllegalArgumentException("capacity at least 1 and a budget of at least " + MIN_BUDGET_BYTES +
                " bytes, got " + capacity + " and " + budgetBytes);
        }
        this.capacity = capacity;
        this.budgetBytes = budgetBytes;
        byDigest = new ConcurrentHashMap<>(capacity * 2);
        order = new ArrayDeque<>();
    }

    /** Keeps {@code answer} under its digest (which it must have), unless an answer that used the nonce is kept. */
    void record(final Answer answer)
    {
        final Answer kept = answer.kept();
        final ByteBuffer digest = ByteBuffer.wrap(kept.digest);
        // one look-up for the usual case, an action answered for the first time
        final Answer existing = byDigest.putIfAbsent(digest, kept);
        if (existing != null)
        {
            final boolean replayed = kept.kind == Answer.Kind.REJECTED && kept.code == RejectCode.NONCE_REPLAYED;
            if (!existing.usedNonce() && !replayed)
            {
                byDigest.put(digest, kept);
                bytes += kept.retainedBytes() - existing.retainedBytes();
                evict();
            }
            return;
        }
        order.addLast(digest);
        bytes += ENTRY_BYTES + kept.retainedBytes();
        evict();
    }

    /** Forgets the oldest answers while there are too many or they hold too much; the newest one always stays. */
    private void evict()
    {
        while (order.size() > 1 && (order.size() > capacity || bytes > budgetBytes))
        {
            final Answer evicted = byDigest.remove(order.pollFirst());
            bytes -= ENTRY_BYTES + evicted.retainedBytes();
        }
    }

    /** The answer that says what happened to the action with this 32-byte digest, or null. */
    public Answer find(final byte[] digest)
    {
        return byDigest.get(ByteBuffer.wrap(digest));
    }

    public int capacity()
    {
        return capacity;
    }

    public long budgetBytes()
    {
        return budgetBytes;
    }

    /** The answers kept now; on the responder's thread. */
    int size()
    {
        return order.size();
    }

    /** What the answers kept now count against the budget; on the responder's thread. */
    long bytes()
    {
        return bytes;
    }
}
