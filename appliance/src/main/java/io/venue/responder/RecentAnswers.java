package io.venue.responder;

import io.venue.transport.http.SubmitResponse;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers of the last {@code capacity} journaled actions, by action digest, for the status query of a client
 * that timed out (GET /api/v1/trading/actions/{digest}). The answer kept is the one that says what happened to the
 * action: once an answer used the action's nonce (accepted, or refused after the nonce step) it stays, and a
 * resubmission's {@code nonce_replayed} never replaces it; an answer that changed nothing (refused before the nonce
 * step: rate limit, signer, malformed...) is replaced by the next one for the same body. Written by the responder's
 * thread only, read by the HTTP threads.
 */
public final class RecentAnswers
{
    private record Entry(SubmitResponse answer, boolean usedNonce)
    {
    }

    private final ConcurrentHashMap<String, Entry> byDigest;
    private final String[] order;
    private int next;

    public RecentAnswers(final int capacity)
    {
        byDigest = new ConcurrentHashMap<>(capacity * 2);
        order = new String[capacity];
    }

    /**
     * @param usedNonce true when this answer's command consumed the action's nonce.
     * @param replayed  true for a {@code nonce_replayed} refusal: a duplicate, never the action's story.
     */
    void record(final String digest, final SubmitResponse answer, final boolean usedNonce, final boolean replayed)
    {
        final Entry existing = byDigest.get(digest);
        if (existing != null)
        {
            if (!existing.usedNonce() && !replayed)
            {
                byDigest.put(digest, new Entry(answer, usedNonce));
            }
            return;
        }
        byDigest.put(digest, new Entry(answer, usedNonce));
        final String evicted = order[next];
        if (evicted != null)
        {
            byDigest.remove(evicted);
        }
        order[next] = digest;
        next = (next + 1) % order.length;
    }

    /** The first answer given for the action with this digest (0x + 64 lowercase hex), or null. */
    public SubmitResponse find(final String digest)
    {
        final Entry entry = byDigest.get(digest);
        return entry == null ? null : entry.answer();
    }

    public int capacity()
    {
        return order.length;
    }
}
