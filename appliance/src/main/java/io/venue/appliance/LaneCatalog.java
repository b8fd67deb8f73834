package io.venue.appliance;

import io.venue.entry.lane.Lane;
import io.venue.transport.bsltcp.BslTcpLane;
import io.venue.transport.fix.FixLane;
import io.venue.transport.http.HttpLane;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The lanes this build has, by the name the {@code lanes} setting gives them, each with what makes it from the node's
 * order entry. Adding a lane: its package (a {@link Lane}), one line here, and its name in {@code lanes}.
 */
final class LaneCatalog
{
    private static final Map<String, Function<NodeOrderEntry, Lane>> LANES = new LinkedHashMap<>();

    static
    {
        LANES.put(HttpLane.NAME, NodeOrderEntry::httpLane);
        LANES.put(BslTcpLane.NAME, NodeOrderEntry::bslTcpLane);
        LANES.put(FixLane.NAME, NodeOrderEntry::fixLane);
    }

    private LaneCatalog()
    {
    }

    /** The names of the lanes this build has. */
    static Set<String> names()
    {
        return LANES.keySet();
    }

    /** Makes the lane named {@code name} (one of {@link #names()}) from the node's order entry. */
    static Lane make(final String name, final NodeOrderEntry entry)
    {
        final Function<NodeOrderEntry, Lane> factory = LANES.get(name);
        if (factory == null)
        {
            throw new IllegalArgumentException(
                "lanes: unknown lane '" + name + "' (this build has " + String.join(", ", names()) + ")");
        }
        return factory.apply(entry);
    }
}
