package io.venue.transport.fix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every FIX session key this node knows (credential and sub-session, the session's identity: docs/FIX.md), each with
 * its {@link FixOutbound}, and who gets a {@link FixReport}: the {@code order_entry} key of the order's credential and
 * every {@code drop_copy} key of its account, logged on or not (a report numbered while its session is logged off is
 * sent again when the client asks for the gap). The keys come from the journal's marks ({@link FixJournalMarks}) and
 * from logons; they are authenticated credentials only, at most {@code capacity}. Logons wait ({@link #ready}) until
 * the reports' thread has replayed the journal up to where it stood at the start, numbering its reports as they were.
 * Thread safe: reports are routed on the reports' thread, keys claimed on the sessions' event loops; this object's lock
 * is taken before a key's, never after.
 */
final class FixSequences
{
    private final int capacity;
    private final int storeCapacity;
    private final FixOutbound.Marks marks;
    private final Map<String, FixOutbound> keys = new HashMap<>();
    private final Map<Long, FixOutbound> orderEntry = new HashMap<>();
    private final Map<String, List<FixOutbound>> dropCopy = new HashMap<>();
    /** The key of the last report routed: a key first known now gets the reports after it. */
    private long progress;
    private volatile boolean ready;

    /**
     * @param journal       what the journal recorded before this node started (null: nothing).
     * @param accountOf     an API key id to the account it acts for, null when it is not an active credential.
     * @param storeCapacity reports kept per key for a resend (the resend cap).
     */
    FixSequences(final int capacity, final FixJournalMarks journal, final Function<String, String> accountOf,
        final FixOutbound.Marks marks, final int storeCapacity)
    {
        this.capacity = capacity;
        this.storeCapacity = storeCapacity;
        this.marks = marks;
        if (journal != null)
        {
            for (final String key : journal.keys())
            {
                if (keys.size() >= capacity)
                {
                    break;
                }
                final String apiKeyId = key.substring(0, key.indexOf('/'));
                final boolean copy = key.endsWith("/" + FixSession.DROP_COPY);
                final String account = copy ? accountOf.apply(apiKeyId) : null;
                final FixOutbound outbound = new FixOutbound(key, credentialId(apiKeyId), copy, account, marks,
                    storeCapacity, journal.marks(key));
                outbound.registerAfter(journal.registeredAfter(key));
                keys.put(key, outbound);
                route(outbound);
            }
        }
    }

    static String key(final String apiKeyId, final String subSession)
    {
        return apiKeyId + "/" + subSession;
    }

    static long credentialId(final String apiKeyId)
    {
        return Long.parseUnsignedLong(apiKeyId.substring(4), 16);
    }

    private void route(final FixOutbound outbound)
    {
        outbound.routed = true;
        if (outbound.dropCopy)
        {
            if (outbound.account != null)
            {
                dropCopy.computeIfAbsent(outbound.account, a -> new ArrayList<>(1)).add(outbound);
            }
        }
        else
        {
            orderEntry.put(outbound.credentialId, outbound);
        }
    }

    /** Whether the journal's reports have been replayed (before, a Logon is refused NOT_READY). */
    boolean ready()
    {
        return ready;
    }

    /** The replay reached where the journal stood at the start: each key's last marks apply, logons may come. */
    synchronized void replayDone()
    {
        for (final FixOutbound outbound : keys.values())
        {
            outbound.replayDone();
        }
        ready = true;
    }

    /**
     * Claims {@code key} for a new session (the account: a drop-copy key's routing).
     *
     * @return its numbers, or null when a session of that key is live (or no room is left for a new key).
     */
    synchronized FixOutbound claim(final String apiKeyId, final String subSession, final String account)
    {
        final String key = key(apiKeyId, subSession);
        FixOutbound outbound = keys.get(key);
        if (outbound == null)
        {
            if (keys.size() >= capacity)
            {
                return null;
            }
            final boolean copy = FixSession.DROP_COPY.equals(subSession);
            outbound = new FixOutbound(key, credentialId(apiKeyId), copy, copy ? account : null, marks,
                storeCapacity, null);
            keys.put(key, outbound);
        }
        return outbound.claim() ? outbound : null;
    }

    /**
     * The claimed key's session logged on ({@link FixOutbound#attach}); a key first known here gets the reports routed
     * from now on, and its LOGON mark names the last report routed before it, which a replay reads the same way.
     */
    synchronized void attach(final FixOutbound outbound, final FixSession session, final long connectionId,
        final boolean reset, final long nextIn)
    {
        if (!outbound.routed)
        {
            outbound.registerAfter(progress);
            route(outbound);
        }
        outbound.attach(session, connectionId, reset, nextIn);
    }

    synchronized boolean isKnown(final String key)
    {
        return keys.containsKey(key);
    }

    synchronized boolean isLive(final String key)
    {
        final FixOutbound outbound = keys.get(key);
        return outbound != null && outbound.isLive();
    }

    /** The numbers of {@code key} now ({@code {nextIn, nextOut}}; {@code {1, 1}} for a key never seen). */
    synchronized long[] peek(final String key)
    {
        final FixOutbound outbound = keys.get(key);
        return outbound == null ? new long[] {1, 1} : new long[] {outbound.nextIn(), outbound.nextOut()};
    }

    /**
     * Routes one report of the journal (on the reports' thread, in journal order): numbered for each of its keys; a
     * logged-on session is woken to write it. {@code replaying}: a report of the journal as it stood at the start,
     * numbered for the keys that had it then and sent to nobody.
     */
    void deliver(final FixReport report, final long reportKey, final boolean replaying)
    {
        FixSession wake1 = null;
        List<FixSession> wakeMore = null;
        synchronized (this)
        {
            if (report.credentialId != 0)
            {
                wake1 = route(orderEntry.get(report.credentialId), report, reportKey, replaying);
            }
            final List<FixOutbound> copies = report.account == null ? null : dropCopy.get(report.account);
            if (copies != null)
            {
                for (int i = 0; i < copies.size(); i++)
                {
                    final FixSession session = route(copies.get(i), report, reportKey, replaying);
                    if (session != null)
                    {
                        if (wakeMore == null)
                        {
                            wakeMore = new ArrayList<>(2);
                        }
                        wakeMore.add(session);
                    }
                }
            }
            progress = reportKey;
        }
        if (wake1 != null)
        {
            wake1.wake();
        }
        if (wakeMore != null)
        {
            for (final FixSession session : wakeMore)
            {
                session.wake();
            }
        }
    }

    private static FixSession route(final FixOutbound outbound, final FixReport report, final long reportKey,
        final boolean replaying)
    {
        if (outbound == null)
        {
            return null;
        }
        if (replaying)
        {
            if (outbound.registeredAfter >= 0 && reportKey > outbound.registeredAfter)
            {
                outbound.replayReport(report, reportKey);
            }
            return null;
        }
        return outbound.report(report, reportKey);
    }

    synchronized int size()
    {
        return keys.size();
    }
}
