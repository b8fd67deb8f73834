package io.venue.transport.fix;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PossDup index: a ClOrdID handed to the journal is known, pending until its reports say more; at most the
 * capacity, the oldest dropped first, and a credential that lost one is known to have (its unknown PossDup
 * NewOrderSingles are then refused); a report of a ClOrdID never taken adds nothing.
 */
class FixClOrdIdsTest
{
    @Test
    void aTakenClOrdIdKeepsItsOrdersLastStatus()
    {
        final FixClOrdIds ids = new FixClOrdIds(10);
        assertNull(ids.statusOf(1, "a"));
        ids.taken(1, "a");
        assertArrayEquals(new long[] {FixClOrdIds.PENDING, 0, 0}, ids.statusOf(1, "a"));
        ids.status(1, "a", '2', 500_000, 100_000_000);
        assertArrayEquals(new long[] {'2', 500_000, 100_000_000}, ids.statusOf(1, "a"));
        assertNull(ids.statusOf(2, "a"), "per credential");
        ids.status(2, "b", '0', 0, 0);
        assertNull(ids.statusOf(2, "b"), "a report alone does not make a ClOrdID known");
        ids.taken(1, "a");
        assertEquals(FixClOrdIds.PENDING, ids.statusOf(1, "a")[0], "taken again: a new order pending");
        assertEquals(1, ids.size());
    }

    @Test
    void boundedTheOldestDroppedAndItsCredentialRemembered()
    {
        final FixClOrdIds ids = new FixClOrdIds(3);
        ids.taken(1, "a");
        ids.taken(2, "b");
        ids.taken(2, "c");
        assertFalse(ids.droppedFor(1));
        ids.taken(2, "d");
        assertEquals(3, ids.size());
        assertNull(ids.statusOf(1, "a"), "the oldest went");
        assertTrue(ids.droppedFor(1));
        assertFalse(ids.droppedFor(2));
        for (int i = 0; i < 10; i++)
        {
            ids.taken(100 + i, "x");
        }
        assertEquals(3, ids.size());
        assertTrue(ids.droppedFor(999), "more credentials lost one than the bound: every credential counts");
    }
}
