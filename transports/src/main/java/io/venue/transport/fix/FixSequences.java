package io.venue.transport.fix;

import java.util.HashMap;
import java.util.Map;

/**
 * Each FIX session's sequence numbers, keyed by credential and sub-session (the session's identity: docs/FIX.md), kept
 * from one connection to the next: {@code [0]} the next MsgSeqNum expected from the client, {@code [1]} the next one
 * the venue sends. A session claims its numbers at its Logon and releases them at its close, so one credential has at
 * most one live session per sub-session. A key this node has not seen starts from what the journal last recorded
 * ({@link FixJournalMarks}). Keys are authenticated credentials only, at most {@code capacity}. Thread safe: the lock
 * also hands the numbers from one connection's event loop to the next's.
 */
final class FixSequences
{
    private final int capacity;
    private final FixJournalMarks journal;
    private final Map<String, long[]> numbers = new HashMap<>();
    private final Map<String, Boolean> live = new HashMap<>();

    /** @param journal what the journal recorded before this node started (a session first seen here starts there). */
    FixSequences(final int capacity, final FixJournalMarks journal)
    {
        this.capacity = capacity;
        this.journal = journal;
    }

    static String key(final String apiKeyId, final String subSession)
    {
        return apiKeyId + "/" + subSession;
    }

    /**
     * Claims the numbers of {@code key} for a new session: a copy, which {@link #release} stores back.
     *
     * @return the numbers, or null when a session of that key is live (or no room is left for a new key).
     */
    synchronized long[] claim(final String key)
    {
        if (live.containsKey(key))
        {
            return null;
        }
        long[] held = numbers.get(key);
        if (held == null)
        {
            if (numbers.size() >= capacity)
            {
                return null;
            }
            final long[] journaled = journal == null ? null : journal.numbers(key);
            held = journaled == null ? new long[] {1, 1} : journaled;
            numbers.put(key, held);
        }
        live.put(key, Boolean.TRUE);
        return held.clone();
    }

    synchronized boolean isLive(final String key)
    {
        return live.containsKey(key);
    }

    /** Stores what a session's numbers came to (called as they change, and at its close with {@code ended}). */
    synchronized void store(final String key, final long nextIn, final long nextOut, final boolean ended)
    {
        final long[] held = numbers.get(key);
        if (held != null)
        {
            held[0] = nextIn;
            held[1] = nextOut;
        }
        if (ended)
        {
            live.remove(key);
        }
    }

    /** The numbers of {@code key} now ({@code {1, 1}} for a session never seen). */
    synchronized long[] peek(final String key)
    {
        final long[] held = numbers.get(key);
        return held == null ? new long[] {1, 1} : held.clone();
    }
}
