package io.venue.loadgen;

import org.HdrHistogram.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many public WebSocket subscribers of the same channels, as a market-data fan-out is measured: each checks that its
 * frames come in {@code seq} order with none missing, and the run records, per frame, the delay from the frame's
 * {@code ts} (its command's stamped time, whole milliseconds) to its arrival at the last subscriber that received it,
 * on this host's clock (the appliance's, when both run on one machine).
 */
public final class WsFanout implements AutoCloseable
{
    /** What a run saw. */
    public record Result(int subscribers, long frames, long gaps, double seconds, Histogram lastDelayMs)
    {
        public double framesPerSecond()
        {
            return frames / seconds;
        }
    }

    private final List<WebSocket> sockets = new ArrayList<>();
    /** Per channel and seq, the latest arrival (ms) among the subscribers: the delay to the last one. */
    private final Map<String, ConcurrentHashMap<Long, AtomicLong>> lastArrival = new ConcurrentHashMap<>();
    private final Map<String, ConcurrentHashMap<Long, Long>> stampedAt = new ConcurrentHashMap<>();
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong gaps = new AtomicLong();
    private volatile boolean recording;

    /**
     * Opens {@code count} connections to {@code url} (ws://host:port/api/v1/ws/public) and subscribes each; the first
     * {@code stalled} of them stop reading once subscribed (a client that hangs: the server's slow-consumer case).
     */
    public WsFanout(final String url, final int count, final int stalled, final List<String> channels,
        final HttpClient client) throws Exception
    {
        final StringBuilder subscribe = new StringBuilder("{\"method\":\"subscribe\",\"id\":1,\"channels\":[");
        for (int i = 0; i < channels.size(); i++)
        {
            subscribe.append(i == 0 ? "\"" : ",\"").append(channels.get(i)).append('"');
        }
        subscribe.append("]}");
        final List<CompletableFuture<WebSocket>> opening = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final Subscriber subscriber = new Subscriber(i < stalled);
            opening.add(client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(url), subscriber));
        }
        for (final CompletableFuture<WebSocket> open : opening)
        {
            final WebSocket socket = open.get(30, TimeUnit.SECONDS);
            sockets.add(socket);
            socket.sendText(subscribe, true).get(10, TimeUnit.SECONDS);
        }
    }

    /** Records what arrives from now until {@link #stop}. */
    public void start()
    {
        frames.set(0);
        gaps.set(0);
        lastArrival.clear();
        stampedAt.clear();
        recording = true;
    }

    /** Ends the recording after waiting {@code drainMs} for frames still on their way. */
    public Result stop(final double seconds, final long drainMs) throws InterruptedException
    {
        Thread.sleep(drainMs);
        recording = false;
        final Histogram delays = new Histogram(60_000, 3);
        for (final Map.Entry<String, ConcurrentHashMap<Long, AtomicLong>> channel : lastArrival.entrySet())
        {
            final Map<Long, Long> stamps = stampedAt.get(channel.getKey());
            channel.getValue().forEach((seq, last) ->
                delays.recordValue(Math.max(0, Math.min(60_000, last.get() - stamps.get(seq)))));
        }
        return new Result(sockets.size(), frames.get(), gaps.get(), seconds, delays);
    }

    @Override
    public void close()
    {
        for (final WebSocket socket : sockets)
        {
            socket.abort();
        }
    }

    private void onFrame(final Subscriber subscriber, final String text)
    {
        final String channel = stringField(text, "ch");
        final long seq = longField(text, "seq");
        if (channel == null || seq <= 0)
        {
            return; // the session frame, acks, heartbeats
        }
        final Long last = subscriber.lastSeq.put(channel, seq);
        final boolean snapshot = text.contains("\"type\":\"snapshot\"");
        if (last != null && !snapshot && seq != last + 1)
        {
            gaps.incrementAndGet();
        }
        if (!recording)
        {
            return;
        }
        frames.incrementAndGet();
        final long now = System.currentTimeMillis();
        stampedAt.computeIfAbsent(channel, c -> new ConcurrentHashMap<>()).putIfAbsent(seq, longField(text, "ts"));
        lastArrival.computeIfAbsent(channel, c -> new ConcurrentHashMap<>())
            .computeIfAbsent(seq, s -> new AtomicLong()).accumulateAndGet(now, Math::max);
    }

    /** The value of {@code "name":"…"} in a frame, or null. */
    static String stringField(final String json, final String name)
    {
        final String key = "\"" + name + "\":\"";
        final int at = json.indexOf(key);
        if (at < 0)
        {
            return null;
        }
        final int start = at + key.length();
        final int end = json.indexOf('"', start);
        return end < 0 ? null : json.substring(start, end);
    }

    /** The value of {@code "name":123} in a frame, or -1. */
    static long longField(final String json, final String name)
    {
        final String key = "\"" + name + "\":";
        final int at = json.indexOf(key);
        if (at < 0)
        {
            return -1;
        }
        long value = 0;
        int i = at + key.length();
        if (i >= json.length() || !Character.isDigit(json.charAt(i)))
        {
            return -1;
        }
        while (i < json.length() && Character.isDigit(json.charAt(i)))
        {
            value = value * 10 + json.charAt(i++) - '0';
        }
        return value;
    }

    /** One connection: its frames' text joined from their parts, and the last seq of each of its channels. */
    private final class Subscriber implements WebSocket.Listener
    {
        private final StringBuilder parts = new StringBuilder();
        private final Map<String, Long> lastSeq = new HashMap<>();
        private final boolean stalled;

        Subscriber(final boolean stalled)
        {
            this.stalled = stalled;
        }

        @Override
        public CompletionStage<?> onText(final WebSocket socket, final CharSequence data, final boolean whole)
        {
            parts.append(data);
            if (whole)
            {
                if (!stalled)
                {
                    onFrame(this, parts.toString());
                }
                parts.setLength(0);
            }
            if (!stalled || !whole)
            {
                socket.request(1);
            }
            return null;
        }
    }
}
