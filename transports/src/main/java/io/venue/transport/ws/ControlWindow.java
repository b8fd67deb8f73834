package io.venue.transport.ws;

/**
 * The control-message limit of one connection: at most {@code max} client messages in any window of
 * {@code windowNs} (a sliding window: the times of the last {@code max} messages in a ring). Every whole message
 * counts, valid or not, so a flood of garbage is bounded like a flood of subscribes. Event loop only.
 */
final class ControlWindow
{
    private final long windowNs;
    private final long[] times;
    private int next;
    private int count;

    ControlWindow(final int max, final long windowNs)
    {
        this.windowNs = windowNs;
        this.times = new long[max];
    }

    /** Counts a message at {@code nowNs}; false when it is one more than the window holds. */
    boolean admit(final long nowNs)
    {
        if (count == times.length && nowNs - times[next] < windowNs)
        {
            return false;
        }
        times[next] = nowNs;
        next = (next + 1) % times.length;
        count = Math.min(count + 1, times.length);
        return true;
    }
}
