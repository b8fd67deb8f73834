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
    /** A lane's encoding of the frame for its wire, made once by the first subscriber that needs it. */
    private Object wire;

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

    /**
     * A lane's encoding of the frame as it goes on its wire (a WebSocket frame's bytes), kept with the frame so that
     * it is made once for all the frame's subscribers; null until a lane sets it. Read and set on the feed's thread
     * only (in {@link FeedSubscriber#onFrame}), before the frame is handed to another thread.
     */
    public Object wire()
    {
        return wire;
    }

    public void wire(final Object wire)
    {
        this.wire = wire;
    }
}
