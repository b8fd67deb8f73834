package io.venue.entry.lane;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A lane's section of the connectivity bundle keeps its fields in order and holds only what the node can write. */
class ConnectivityEntryTest
{
    @Test
    void keepsTheFieldsInTheOrderTheyWereAdded()
    {
        final ConnectivityEntry entry = ConnectivityEntry.of("fix").field("host", "10.0.0.1").field("port", 9878)
            .field("tls", true).field("compIds", "VENUE").build();
        assertEquals("fix", entry.name());
        assertEquals(List.of("host", "port", "tls", "compIds"), List.copyOf(entry.fields().keySet()));
        assertEquals(9878L, entry.fields().get("port"));
        assertThrows(UnsupportedOperationException.class, () -> entry.fields().put("x", "y"));
    }

    @Test
    void refusesAValueItCannotWrite()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new ConnectivityEntry("fix", Map.of("port", 9878)));
        assertTrue(refused.getMessage().contains("fix.port is a Integer"), refused.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> ConnectivityEntry.of("fix").field("host", (String)null).build());
    }
}
