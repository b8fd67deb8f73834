package io.venue.scenario;

import java.util.List;
import java.util.function.Function;

/**
 * Every order-entry lane the venue has. Each scenario runs once per lane listed here: a new lane adds its
 * {@link LaneClient} and one line below.
 */
final class Lanes
{
    /** A lane: its name and how to connect its client to a running venue. */
    record Lane(String name, Function<Venue, LaneClient> connect)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static final List<Lane> ALL = List.of(
        new Lane("json", JsonLane::new),
        new Lane("compact", CompactLane::new),
        new Lane("bsl-tcp", TcpLane::new));

    /** The lanes, for {@code @MethodSource}. */
    static List<Lane> all()
    {
        return ALL;
    }

    private Lanes()
    {
    }
}
