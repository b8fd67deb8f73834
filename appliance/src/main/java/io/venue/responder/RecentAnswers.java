package io.venue.responder;

import io.venue.entry.Answer;
import io.venue.journal.sbe.RejectCode;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers of the last {@code capacity} journaled actions, by action digest, for the status query of a client
 * that timed out (GET /api/v1/trading/actions/{digest}), kept lane-neutral so that every lane can render them. The
 * answer kept is the one that says what happened to the action: once an answer used the action's nonce (accepted, or
 * refused after the nonce step) it stays, and a resubmission's {@code nonce_replayed} never replaces it; an answer
 * that changed nothing (refused before the nonce step: rate limit, signer, malformed...) is replaced by the next one
 * for the same body. Written by the responder's thread only, read by the lanes' threads.
 */
public final class RecentAnswers
{
    private final ConcurrentHashMap<ByteBuffer, Answer> byDigest;
    private final ByteBuffer[] order;
    private int next;

    public RecentAnswers(final int capacity)
    {
        byDigest = new ConcurrentHashMap<>(capacity * 2);
        order = new ByteBuffer[capacity];
    }

    /** Keeps {@code answer} under its digest (which it must have), unless an answer that used the nonce is kept. */
    void record(final Answer answer)
    {
        final ByteBuffer digest = ByteBuffer.wrap(answer.digest);
        final Answer existing = byDigest.get(digest);
        if (existing != null)
        {
            final boolean replayed = answer.kind == Answer.Kind.REJECTED &&
                answer.code == RejectCode.NONCE_REPLAYED;
            if (!existing.usedNonce() && !replayed)
            {
                byDigest.put(digest, answer);
            }
            return;
        }
        byDigest.put(digest, answer);
        final ByteBuffer evicted = order[next];
        if (evicted != null)
        {
            byDigest.remove(evicted);
        }
        order[next] = digest;
        next = (next + 1) % order.length;
    }

    /** The answer that says what happened to the action with this 32-byte digest, or null. */
    public Answer find(final byte[] digest)
    {
        return byDigest.get(ByteBuffer.wrap(digest));
    }

    public int capacity()
    {
        return order.length;
    }
}
