package io.venue.appliance;

import io.venue.transport.http.JsonReader;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A WebSocket client of the appliance's streams for the tests, on Java's own client: every text frame it receives is
 * queued as parsed JSON, in order; the close code and reason are kept.
 */
final class StreamClient implements AutoCloseable
{
    private final LinkedBlockingQueue<Map<String, Object>> frames = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final WebSocket socket;
    private volatile String closeReason;

    /** Connects to {@code baseUrl} (http://host:port) at {@code path}, e.g. {@code /api/v1/ws/public}. */
    StreamClient(final String baseUrl, final String path) throws Exception
    {
        this(HttpClient.newHttpClient(), baseUrl, path);
    }

    /** As above over {@code client} (one trusting a test's TLS certificate): https becomes wss. */
    StreamClient(final HttpClient client, final String baseUrl, final String path) throws Exception
    {
        socket = client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
            .buildAsync(URI.create(baseUrl.replaceFirst("^http", "ws") + path), new Listener())
            .get(30, TimeUnit.SECONDS);
    }

    void send(final String json) throws Exception
    {
        socket.sendText(json, true).get(10, TimeUnit.SECONDS);
    }

    /** The next frame, or a failure after {@code seconds}. */
    Map<String, Object> next(final long seconds) throws InterruptedException
    {
        final Map<String, Object> frame = frames.poll(seconds, TimeUnit.SECONDS);
        assertNotNull(frame, "no frame within " + seconds + " s (closed: " + closed.getNow(null) + " " +
            closeReason + ")");
        return frame;
    }

    /** The next frame that matches, skipping others (heartbeats), or a failure after {@code seconds}. */
    Map<String, Object> next(final Predicate<Map<String, Object>> wanted, final long seconds)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true)
        {
            final long left = deadline - System.nanoTime();
            final Map<String, Object> frame = left <= 0 ? null : frames.poll(left, TimeUnit.NANOSECONDS);
            assertNotNull(frame, "no such frame within " + seconds + " s");
            if (wanted.test(frame))
            {
                return frame;
            }
        }
    }

    /** A frame already received or arriving within {@code millis}; null if none. */
    Map<String, Object> poll(final long millis) throws InterruptedException
    {
        return frames.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** The close code the server sent, waiting up to {@code seconds}. */
    int closeCode(final long seconds) throws Exception
    {
        return closed.get(seconds, TimeUnit.SECONDS);
    }

    String closeReason()
    {
        return closeReason;
    }

    static Predicate<Map<String, Object>> type(final String type)
    {
        return frame -> type.equals(frame.get("type"));
    }

    static Predicate<Map<String, Object>> channel(final String channel)
    {
        return frame -> channel.equals(frame.get("ch"));
    }

    static long number(final Map<String, Object> frame, final String field)
    {
        final Object value = frame.get(field);
        assertNotNull(value, field + " in " + frame);
        return ((Number)value).longValue();
    }

    @Override
    public void close()
    {
        socket.abort();
    }

    private final class Listener implements WebSocket.Listener
    {
        private final StringBuilder parts = new StringBuilder();

        @Override
        @SuppressWarnings("unchecked")
        public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last)
        {
            parts.append(data);
            if (last)
            {
                try
                {
                    frames.add((Map<String, Object>)JsonReader.read(parts.toString().getBytes(StandardCharsets.UTF_8)));
                }
                catch (final JsonReader.JsonException ex)
                {
                    frames.add(Map.of("type", "UNPARSEABLE", "text", parts.toString()));
                }
                parts.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(final WebSocket webSocket, final int statusCode, final String reason)
        {
            closeReason = reason;
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(final WebSocket webSocket, final Throwable error)
        {
            closed.complete(-1);
        }
    }
}
