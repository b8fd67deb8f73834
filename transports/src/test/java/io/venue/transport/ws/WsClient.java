package io.venue.transport.ws;

import java.io.Closeable;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/** Java's own WebSocket client, collecting whole text messages and the close the server sent. */
final class WsClient implements Closeable
{
    static final long WAIT_MS = 10_000;

    final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    final CompletableFuture<String> closed = new CompletableFuture<>();
    final WebSocket socket;

    WsClient(final HttpClient http, final URI uri) throws Exception
    {
        socket = http.newWebSocketBuilder().buildAsync(uri, new WebSocket.Listener()
        {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last)
            {
                text.append(data);
                if (last)
                {
                    messages.add(text.toString());
                    text.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(final WebSocket webSocket, final int statusCode, final String reason)
            {
                closed.complete(statusCode + " " + reason);
                return null;
            }

            @Override
            public void onError(final WebSocket webSocket, final Throwable error)
            {
                closed.complete("error " + error);
            }

            @Override
            public CompletionStage<?> onPing(final WebSocket webSocket, final ByteBuffer message)
            {
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onPong(final WebSocket webSocket, final ByteBuffer message)
            {
                messages.add("PONG " + new String(toBytes(message)));
                webSocket.request(1);
                return null;
            }
        }).get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    private static byte[] toBytes(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    void send(final String text) throws Exception
    {
        socket.sendText(text, true).get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    /** The next message, failing after the wait. */
    String next() throws InterruptedException
    {
        final String message = messages.poll(WAIT_MS, TimeUnit.MILLISECONDS);
        assertNotNull(message, "no message within " + WAIT_MS + " ms");
        return message;
    }

    /** The first message matching, skipping others (heartbeats, acks), failing after the wait. */
    String await(final Predicate<String> wanted) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (System.nanoTime() < deadline)
        {
            final String message = messages.poll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000),
                TimeUnit.MILLISECONDS);
            if (message != null && wanted.test(message))
            {
                return message;
            }
        }
        return fail("no matching message within " + WAIT_MS + " ms");
    }

    /** The server's close, as "code reason". */
    String awaitClose() throws Exception
    {
        return closed.get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close()
    {
        socket.abort();
    }
}
