package io.venue.feed;

import java.util.ArrayList;
import java.util.List;

/** A public channel: its numbering, the frames a resume may need, and who is subscribed. */
final class PublicChannel
{
    private final String name;
    private final ChannelName.Kind kind;
    private final ReplayWindow window;
    private final List<FeedSubscriber> subscribers = new ArrayList<>();
    private long seq;
    private long engineSeq;
    private long ts;

    PublicChannel(final String name, final ChannelName.Kind kind, final int windowFrames, final long windowBytes)
    {
        this.name = name;
        this.kind = kind;
        this.window = new ReplayWindow(windowFrames, windowBytes);
    }

    String name()
    {
        return name;
    }

    ChannelName.Kind kind()
    {
        return kind;
    }

    boolean conflatable()
    {
        return kind == ChannelName.Kind.BBO;
    }

    /** The seq of the last frame; 0 before the first. */
    long seq()
    {
        return seq;
    }

    /** The command of the last frame. */
    long engineSeq()
    {
        return engineSeq;
    }

    long ts()
    {
        return ts;
    }

    /** The seq the next frame gets. */
    long nextSeq()
    {
        return seq + 1;
    }

    /** Keeps the channel's next frame and hands it to every subscriber. */
    void publish(final FeedFrame frame, final long engineSeq, final long ts, final Subscriptions deliver)
    {
        this.seq = frame.seq();
        this.engineSeq = engineSeq;
        this.ts = ts;
        window.add(frame);
        for (int i = 0, n = subscribers.size(); i < n; i++)
        {
            deliver.deliver(subscribers.get(i), frame);
        }
    }

    ReplayWindow window()
    {
        return window;
    }

    List<FeedSubscriber> subscribers()
    {
        return subscribers;
    }
}
