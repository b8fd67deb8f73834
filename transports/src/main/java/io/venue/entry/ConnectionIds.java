package io.venue.entry;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Connection ids unique across lanes: the lane's code in the top byte, a count of the lane's connections below it. The
 * journal records a request's connection id, so an analyst can tell which lane and which connection sent it
 * ({@link #laneOf}); id 0 stays the node's own (the operator's set-up actions, the edge throttle's summaries).
 */
public final class ConnectionIds
{
    /** The lane codes in use; a new lane takes the next one. */
    public static final int NODE = 0;
    public static final int HTTP = 1;
    public static final int WEBSOCKET = 2;
    public static final int FIX = 3;
    public static final int BSL_TCP = 4;
    public static final int FIXP = 5;

    private static final int LANE_SHIFT = 56;
    private static final long COUNT_MASK = (1L << LANE_SHIFT) - 1;

    private final long lane;
    private final AtomicLong count = new AtomicLong();

    public ConnectionIds(final int laneCode)
    {
        if (laneCode <= NODE || laneCode > 0x7F)
        {
            throw new IllegalArgumentException("a lane code is 1 to 127, not " + laneCode);
        }
        this.lane = (long)laneCode << LANE_SHIFT;
    }

    /** The next connection's id. */
    public long next()
    {
        return lane | (count.incrementAndGet() & COUNT_MASK);
    }

    /** The lane code of a journaled connection id. */
    public static int laneOf(final long connectionId)
    {
        return (int)(connectionId >>> LANE_SHIFT);
    }

    /** The connection's number within its lane. */
    public static long numberOf(final long connectionId)
    {
        return connectionId & COUNT_MASK;
    }
}
