package io.venue.transport.ws;

import io.venue.feed.Feed;
import io.venue.feed.FeedFrame;
import io.venue.feed.FeedSubscriber;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A test stand-in for the feed (the real one is not on this branch): requests are answered on a thread of its own,
 * as the interface says, with an ack naming each channel {@code snapshot}; a channel starting {@code unknown} is
 * refused with an error frame. Frames are published on demand to the subscribers of their channel, on that thread.
 */
final class ScriptedFeed implements Feed, AutoCloseable
{
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "scripted-feed"));
    private final Map<String, Set<FeedSubscriber>> byChannel = new ConcurrentHashMap<>();
    /** When set, every request is refused (the feed's queue is full). */
    final AtomicBoolean busy = new AtomicBoolean();
    final List<String> requests = new CopyOnWriteArrayList<>();
    final Set<FeedSubscriber> removed = ConcurrentHashMap.newKeySet();

    @Override
    public boolean subscribe(final FeedSubscriber subscriber, final String account, final long requestId,
        final List<String> channels, final Map<String, Cursor> resume)
    {
        if (busy.get())
        {
            return false;
        }
        requests.add("subscribe " + account + " " + channels + " " + resume.keySet());
        thread.execute(() ->
        {
            if (channels.stream().anyMatch(channel -> channel.startsWith("unknown")))
            {
                subscriber.onAnswer(("{\"type\":\"error\",\"id\":" + requestId +
                    ",\"code\":\"UNKNOWN_CHANNEL\",\"message\":\"no such channel\"}").getBytes(StandardCharsets.UTF_8));
                return;
            }
            final StringBuilder ack = new StringBuilder("{\"type\":\"ack\",\"id\":" + requestId + ",\"channels\":{");
            for (int i = 0; i < channels.size(); i++)
            {
                ack.append(i == 0 ? "" : ",").append('"').append(channels.get(i)).append("\":\"snapshot\"");
                byChannel.computeIfAbsent(channels.get(i), c -> ConcurrentHashMap.newKeySet()).add(subscriber);
            }
            subscriber.onAnswer(ack.append("}}").toString().getBytes(StandardCharsets.UTF_8));
        });
        return true;
    }

    @Override
    public boolean unsubscribe(final FeedSubscriber subscriber, final long requestId, final List<String> channels)
    {
        if (busy.get())
        {
            return false;
        }
        requests.add("unsubscribe " + channels);
        thread.execute(() ->
        {
            channels.forEach(channel -> byChannel.getOrDefault(channel, Set.of()).remove(subscriber));
            subscriber.onAnswer(("{\"type\":\"ack\",\"id\":" + requestId + "}").getBytes(StandardCharsets.UTF_8));
        });
        return true;
    }

    @Override
    public boolean resend(final FeedSubscriber subscriber, final String account, final long requestId,
        final String channel, final long fromSeq, final long toSeq)
    {
        if (busy.get())
        {
            return false;
        }
        requests.add("resend " + account + " " + channel + " " + fromSeq + ".." + toSeq);
        thread.execute(() ->
            subscriber.onAnswer(("{\"type\":\"ack\",\"id\":" + requestId + "}").getBytes(StandardCharsets.UTF_8)));
        return true;
    }

    @Override
    public boolean remove(final FeedSubscriber subscriber)
    {
        thread.execute(() ->
        {
            byChannel.values().forEach(subscribers -> subscribers.remove(subscriber));
            removed.add(subscriber);
        });
        return true;
    }

    @Override
    public boolean book(final long market, final String book, final int depth, final Consumer<String> answer)
    {
        return false;
    }

    @Override
    public boolean trades(final long market, final String book, final int limit, final Consumer<String> answer)
    {
        return false;
    }

    @Override
    public boolean account(final String account, final String what, final Consumer<String> answer)
    {
        return false;
    }

    /** Whether this feed ends its batches ({@link #endBatch}), as the market feed does; read as a connection opens. */
    volatile boolean endsBatches;

    @Override
    public boolean endsBatches()
    {
        return endsBatches;
    }

    /** Every subscriber's batch ends, on the feed's thread: what it holds may be written now. */
    void endBatch()
    {
        thread.execute(() -> byChannel.values()
            .forEach(subscribers -> subscribers.forEach(FeedSubscriber::onBatchEnd)));
    }

    /** Publishes a frame to the channel's subscribers on the feed's thread. */
    void publish(final String channel, final long seq, final boolean conflatable, final String json)
    {
        final FeedFrame frame = new FeedFrame(channel, seq, conflatable, json.getBytes(StandardCharsets.UTF_8));
        thread.execute(() -> byChannel.getOrDefault(channel, Set.of()).forEach(s -> s.onFrame(frame)));
    }

    int subscribers(final String channel)
    {
        return byChannel.getOrDefault(channel, Set.of()).size();
    }

    /** Waits until every request queued so far has run. */
    void settle() throws Exception
    {
        thread.submit(() ->
        {
        }).get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close()
    {
        thread.shutdownNow();
    }
}
