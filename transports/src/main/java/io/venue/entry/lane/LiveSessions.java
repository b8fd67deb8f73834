package io.venue.entry.lane;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

/**
 * The node's live order-entry sessions of every session lane (BSL TCP today; FIX and FIXP to come), for
 * GET /api/v1/bsl/sessions: each one's fields as it describes itself when asked (String, Long or Boolean values, as a
 * {@link ConnectivityEntry}'s). Bounded by the lanes' own session limits: a session is listed from its accepted login
 * to its close. Thread safe.
 */
public final class LiveSessions
{
    private final ConcurrentSkipListMap<Long, Supplier<Map<String, Object>>> sessions = new ConcurrentSkipListMap<>();

    /** Lists session {@code sessionId} (its connection id) until {@link #remove}. */
    public void add(final long sessionId, final Supplier<Map<String, Object>> describe)
    {
        sessions.put(sessionId, describe);
    }

    public void remove(final long sessionId)
    {
        sessions.remove(sessionId);
    }

    public int size()
    {
        return sessions.size();
    }

    /** Every live session's fields, in the order of their ids. */
    public List<ConnectivityEntry> list()
    {
        final List<ConnectivityEntry> listed = new ArrayList<>(sessions.size());
        sessions.forEach((id, describe) -> listed.add(new ConnectivityEntry(Long.toString(id), describe.get())));
        return listed;
    }
}
