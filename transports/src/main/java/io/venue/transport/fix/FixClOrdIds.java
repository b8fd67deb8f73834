package io.venue.transport.fix;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ClOrdIDs of NewOrderSingles the FIX lane handed to the journal, per credential, with the order's last OrdStatus
 * (docs/FIX.md, "PossDup"): so that a NewOrderSingle sent again with PossDupFlag Y after an unclean stop is answered
 * with its order's status instead of becoming a second order. Filled from two sides: the session as it hands an order
 * to the journal's ring (status A, pending new), and the reports' thread as it reads each session PlaceOrder and each
 * report from the journals (from their start when the node starts, which rebuilds it). Keyed by client input, so
 * bounded: at most {@code capacity} ClOrdIDs, the oldest dropped first; each credential whose ClOrdID was dropped is
 * remembered (at most {@code capacity} of them, then every credential counts as such), and a PossDup NewOrderSingle of
 * such a credential whose ClOrdID is not known is refused rather than risk a second order. Thread safe.
 */
final class FixClOrdIds
{
    /** FIX OrdStatus PendingNew: handed to the journal, not read back yet. */
    static final char PENDING = 'A';

    private final int capacity;
    private final LinkedHashMap<String, long[]> taken = new LinkedHashMap<>();
    private final Map<Long, Boolean> dropped = new HashMap<>();
    private boolean droppedForAll;

    FixClOrdIds(final int capacity)
    {
        this.capacity = capacity;
    }

    private static String key(final long credentialId, final String clOrdId)
    {
        return Long.toHexString(credentialId) + "/" + clOrdId;
    }

    /** A NewOrderSingle of the ClOrdID went to the journal: known from now on, its order pending. */
    synchronized void taken(final long credentialId, final String clOrdId)
    {
        final String key = key(credentialId, clOrdId);
        if (taken.containsKey(key))
        {
            taken.put(key, new long[] {PENDING, 0, 0});
            return;
        }
        if (taken.size() >= capacity)
        {
            final Iterator<String> oldest = taken.keySet().iterator();
            final String gone = oldest.next();
            oldest.remove();
            final long owner = Long.parseUnsignedLong(gone.substring(0, gone.indexOf('/')), 16);
            if (dropped.size() >= capacity)
            {
                droppedForAll = true;
            }
            else
            {
                dropped.put(owner, Boolean.TRUE);
            }
        }
        taken.put(key, new long[] {PENDING, 0, 0});
    }

    /** A report of the order the ClOrdID placed: its status, CumQty and AvgPx now (an unknown ClOrdID is not added). */
    synchronized void status(final long credentialId, final String clOrdId, final char status, final long cumQty,
        final long avgPx)
    {
        final long[] held = taken.get(key(credentialId, clOrdId));
        if (held != null)
        {
            held[0] = status;
            held[1] = Math.max(0, cumQty);
            held[2] = Math.max(0, avgPx);
        }
    }

    /** The last OrdStatus, CumQty and AvgPx of the ClOrdID's order (a copy), or null when it is not known. */
    synchronized long[] statusOf(final long credentialId, final String clOrdId)
    {
        final long[] held = taken.get(key(credentialId, clOrdId));
        return held == null ? null : held.clone();
    }

    /** Whether a ClOrdID of this credential was dropped for room (an unknown one may then have been taken). */
    synchronized boolean droppedFor(final long credentialId)
    {
        return droppedForAll || dropped.containsKey(credentialId);
    }

    synchronized int size()
    {
        return taken.size();
    }
}
