package io.venue.entry;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionIdsTest
{
    @Test
    void lanesNumberTheirConnectionsWithoutSharingAnId()
    {
        final ConnectionIds http = new ConnectionIds(ConnectionIds.HTTP);
        final ConnectionIds fix = new ConnectionIds(ConnectionIds.FIX);
        final Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 1_000; i++)
        {
            assertTrue(ids.add(http.next()));
            assertTrue(ids.add(fix.next()));
        }
        final long first = new ConnectionIds(ConnectionIds.WEBSOCKET).next();
        assertEquals(ConnectionIds.WEBSOCKET, ConnectionIds.laneOf(first));
        assertEquals(1, ConnectionIds.numberOf(first));
        assertNotEquals(0, first, "0 is the node's own connection");
    }

    @Property(tries = 100)
    void theLaneAndTheNumberComeBackFromTheId(@ForAll @IntRange(min = 1, max = 127) final int lane,
        @ForAll @IntRange(min = 1, max = 5_000) final int connections)
    {
        final ConnectionIds ids = new ConnectionIds(lane);
        long id = 0;
        for (int i = 0; i < connections; i++)
        {
            id = ids.next();
        }
        assertEquals(lane, ConnectionIds.laneOf(id));
        assertEquals(connections, ConnectionIds.numberOf(id));
        assertTrue(id > 0, "a journaled id is positive");
    }

    @Test
    void theNodesCodeAndCodesOutsideTheByteAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new ConnectionIds(ConnectionIds.NODE));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionIds(128));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionIds(-1));
    }
}
