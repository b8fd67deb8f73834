package io.venue.appliance;

import io.venue.codec.MetricsText;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.entry.lane.Lane;
import org.agrona.CloseHelper;

import java.util.ArrayList;
import java.util.List;

/**
 * The node's enabled lanes, in the order of {@code lanes}: started, drained and closed together, through
 * {@link Lane} only.
 */
final class Lanes
{
    /** Before the node serves: no lane. */
    static final Lanes NONE = new Lanes(List.of());

    private final List<Lane> lanes;

    private Lanes(final List<Lane> lanes)
    {
        this.lanes = List.copyOf(lanes);
    }

    /** Makes the lanes named (none started yet). */
    static Lanes make(final List<String> names, final NodeOrderEntry entry)
    {
        final List<Lane> lanes = new ArrayList<>();
        for (final String name : names)
        {
            lanes.add(LaneCatalog.make(name, entry));
        }
        return of(lanes);
    }

    /** These lanes, in this order. */
    static Lanes of(final List<Lane> lanes)
    {
        return new Lanes(lanes);
    }

    /** Starts each in order; the first that cannot start fails the start (the node then closes them all). */
    void start()
    {
        lanes.forEach(Lane::start);
    }

    /** Each stops taking new writes and still answers what it took. */
    void drain()
    {
        lanes.forEach(Lane::drain);
    }

    void close()
    {
        lanes.forEach(CloseHelper::quietClose);
    }

    /** The lane of that class, or null when it is not enabled. */
    <T extends Lane> T find(final Class<T> type)
    {
        for (final Lane lane : lanes)
        {
            if (type.isInstance(lane))
            {
                return type.cast(lane);
            }
        }
        return null;
    }

    /** Every lane's sections of the connectivity bundle, lane by lane. */
    List<ConnectivityEntry> connectivity()
    {
        final List<ConnectivityEntry> entries = new ArrayList<>();
        lanes.forEach(lane -> entries.addAll(lane.connectivity()));
        return entries;
    }

    /** Every lane's own counters in the node's metrics, lane by lane. */
    void appendMetrics(final MetricsText text)
    {
        lanes.forEach(lane -> lane.appendMetrics(text));
    }

    List<Lane> all()
    {
        return lanes;
    }
}
