package io.venue.responder;

import io.venue.transport.http.SubmitResponse;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers of the last {@code capacity} journaled actions, by action digest, for the status query of a client
 * that timed out (GET /api/v1/trading/actions/{digest}). The first answer for a digest is kept: it says what
 * happened to the action; a resubmission of the same body is refused {@code nonce_replayed} and does not replace
 * it. Written by the responder's thread only, read by the HTTP threads.
 */
public final class RecentAnswers
{
    private final ConcurrentHashMap<String, SubmitResponse> byDigest;
    private final String[] order;
    private int next;

    public RecentAnswers(final int capacity)
    {
        byDigest = new ConcurrentHashMap<>(capacity * 2);
        order = new String[capacity];
    }

    void record(final String digest, final SubmitResponse answer)
    {
        if (byDigest.putIfAbsent(digest, answer) != null)
        {
            return;
        }
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
        return byDigest.get(digest);
    }

    public int capacity()
    {
        return order.length;
    }
}
