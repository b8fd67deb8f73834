package io.venue.feed;

/**
 * One frame of one channel, encoded once as the whole UTF-8 JSON text a client receives, and shared by every
 * subscriber of the channel (a lane wraps {@link #json} without copying it). Immutable once published.
 */
public final class FeedFrame
{
    private final String channel;
    private final long seq;
    private final boolean conflatable;
    private final byte[] json;

    /**
     * @param channel     the channel's name as clients write it ({@code book.1}, {@code fills}).
     * @param seq         the frame's number in its channel, contiguous from 1; 0 for a frame outside the numbering
     *                    (a {@code gap_fill} or {@code resume_required} notice).
     * @param conflatable whether a slow consumer may be sent only the channel's latest frame instead (bbo only).
     * @param json        the frame's text; not copied: the caller gives up the array.
     */
    public FeedFrame(final String channel, final long seq, final boolean conflatable, final byte[] json)
    {
        this.channel = channel;
        this.seq = seq;
        this.conflatable = conflatable;
        this.json = json;
    }

    public String channel()
    {
        return channel;
    }

    public long seq()
    {
        return seq;
    }

    public boolean conflatable()
    {
        return conflatable;
    }

    /** The frame's text; never modified, never to be modified by a reader. */
    public byte[] json()
    {
        return json;
    }
}
