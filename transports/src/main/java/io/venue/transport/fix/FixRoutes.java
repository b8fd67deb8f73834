package io.venue.transport.fix;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who sends a {@link FixReport}: the logged-on {@code order_entry} session of the order's credential, and every
 * logged-on {@code drop_copy} session of the order's account. A report for a session that is not logged on is not kept
 * (docs/FIX.md, "Execution reports": the status request and the journal are how a client catches up). Thread safe:
 * sessions come and go on their I/O threads, reports arrive on the deriver's.
 */
final class FixRoutes
{
    private final Map<Long, FixSession> orderEntry = new ConcurrentHashMap<>();
    private final Map<String, List<FixSession>> dropCopy = new ConcurrentHashMap<>();
    private final AtomicLong delivered = new AtomicLong();

    void addOrderEntry(final long credentialId, final FixSession session)
    {
        orderEntry.put(credentialId, session);
    }

    void removeOrderEntry(final long credentialId, final FixSession session)
    {
        orderEntry.remove(credentialId, session);
    }

    void addDropCopy(final String account, final FixSession session)
    {
        dropCopy.computeIfAbsent(account, k -> new CopyOnWriteArrayList<>()).add(session);
    }

    void removeDropCopy(final String account, final FixSession session)
    {
        dropCopy.computeIfPresent(account, (k, sessions) ->
        {
            sessions.remove(session);
            return sessions.isEmpty() ? null : sessions;
        });
    }

    /** Hands the report to the sessions that send it (each on its own thread, in the order given). */
    void deliver(final FixReport report)
    {
        if (report.credentialId != 0)
        {
            final FixSession session = orderEntry.get(report.credentialId);
            if (session != null)
            {
                session.deliver(report);
                delivered.incrementAndGet();
            }
        }
        final List<FixSession> copies = report.account == null ? null : dropCopy.get(report.account);
        if (copies != null)
        {
            for (final FixSession session : copies)
            {
                session.deliver(report);
                delivered.incrementAndGet();
            }
        }
    }

    long delivered()
    {
        return delivered.get();
    }
}
