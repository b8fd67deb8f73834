package io.venue.feed;

/**
 * A public channel's latest frames, for resuming subscribers: at most {@code maxFrames} and {@code maxBytes} of
 * frame text (the oldest go first), never fewer than the newest frame. Frames are held, not copied.
 */
final class ReplayWindow
{
    private final FeedFrame[] frames;
    private final long maxBytes;
    private long bytes;
    private int head;
    private int count;

    ReplayWindow(final int maxFrames, final long maxBytes)
    {
        this.frames = new FeedFrame[maxFrames];
        this.maxBytes = maxBytes;
    }

    /** Adds the channel's next frame (its seq one after the newest held). */
    void add(final FeedFrame frame)
    {
        final long size = frame.json().length;
        while (count > 0 && (count == frames.length || bytes + size > maxBytes))
        {
            bytes -= frames[head].json().length;
            frames[head] = null;
            head = (head + 1) % frames.length;
            count--;
        }
        frames[(head + count) % frames.length] = frame;
        count++;
        bytes += size;
    }

    int count()
    {
        return count;
    }

    long bytes()
    {
        return bytes;
    }

    /** The seq of the oldest frame held; 0 when empty. */
    long oldestSeq()
    {
        return count == 0 ? 0 : frames[head].seq();
    }

    /** The frame {@code seq}, which must be held ({@code oldestSeq() <= seq <= newest}). */
    FeedFrame get(final long seq)
    {
        return frames[(int)((head + (seq - oldestSeq())) % frames.length)];
    }
}
