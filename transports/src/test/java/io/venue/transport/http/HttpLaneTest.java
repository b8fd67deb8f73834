package io.venue.transport.http;

import io.venue.entry.Answer;
import io.venue.entry.EntryCore;
import io.venue.entry.PendingRequests;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.entry.lane.Lane;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP gateway driven only through {@link Lane}, on a real socket on loopback: started, it answers; drained, it
 * refuses new connections and new submits on open ones while the submit it took is still answered; closed, its
 * connections end. Its connectivity entry names the port it bound.
 */
class HttpLaneTest
{
    private final ConcurrentLinkedQueue<Long> offered = new ConcurrentLinkedQueue<>();
    private final PendingRequests pending = new PendingRequests(0);
    private final EntryCore entry = new EntryCore(new EntryCore.Context()
        .submitter((prebatched, connection, correlation, body, offset, length) -> offered.add(correlation))
        .pending(pending));
    private final HttpGateway.Context context = new HttpGateway.Context().host("127.0.0.1").port(0).entry(entry)
        .exchangeInfo(() -> "{\"assets\":[]}").connectivity(() -> "{}").actionStatus(digest -> null)
        .nonceStatus(account -> "{}");
    private final Lane lane = new HttpLane(context);

    @AfterEach
    void close()
    {
        lane.close();
    }

    private int port()
    {
        return ((HttpLane)lane).port();
    }

    @Test
    void startedThroughTheInterfaceItServesOnLoopback() throws Exception
    {
        assertEquals("http", lane.name());
        assertEquals(-1, port(), "no port before it starts");
        lane.start();
        try (Socket socket = new Socket("127.0.0.1", port()))
        {
            socket.setSoTimeout(5_000);
            send(socket, "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\n\r\n");
            final String answer = readUntil(socket.getInputStream(), "{\"assets\":[]}");
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        }
        assertThrows(IllegalStateException.class, lane::start, "a lane starts once");
    }

    @Test
    void drainedItAnswersWhatItTookAndTakesNothingNew() throws Exception
    {
        lane.start();
        final int port = port();
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(5_000);
            send(socket, "POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
            while (offered.isEmpty())
            {
                Thread.onSpinWait();
            }
            lane.drain();
            assertNotServed(port);
            // the submit taken before the drain is answered on its connection
            pending.onSequenced(offered.poll(), 1);
            pending.complete(1, new Answer.Builder().accepted(1, 0).digest(new byte[32]).build());
            final InputStream in = socket.getInputStream();
            assertTrue(readUntil(in, "\"trades\":0}").startsWith("HTTP/1.1 200"));
            // a new submit on the open connection is refused, not taken
            send(socket, "POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
            final String refused = readUntil(in, "SHUTTING_DOWN");
            assertTrue(refused.startsWith("HTTP/1.1 503"), refused);
            assertTrue(offered.isEmpty());
            lane.close();
            assertEquals(-1, readToEnd(in), "closed: the connection ends");
        }
    }

    @Test
    void itsConnectivityEntryNamesTheBoundPortOnceStarted()
    {
        final Map<String, Object> before = section(lane.connectivity(), "http").fields();
        assertEquals("http://127.0.0.1:0", before.get("baseUrl"), "the configured port before it starts");
        lane.start();
        final List<ConnectivityEntry> entries = lane.connectivity();
        assertEquals(List.of("http", "bsl"), entries.stream().map(ConnectivityEntry::name).toList());
        final Map<String, Object> http = section(entries, "http").fields();
        assertEquals(List.of("baseUrl", "submitRoute", "mmReplaceRoute", "adminRoute", "tls"),
            List.copyOf(http.keySet()));
        assertEquals("http://127.0.0.1:" + port(), http.get("baseUrl"));
        assertEquals(false, http.get("tls"));
        assertEquals("/api/v1/bsl/orders/compact", section(entries, "bsl").fields().get("orderEntryRoute"));
    }

    @Test
    void aLaneThatNeverStartedDrainsAndClosesQuietly()
    {
        lane.drain();
        lane.close();
        lane.close();
    }

    private static ConnectivityEntry section(final List<ConnectivityEntry> entries, final String name)
    {
        return entries.stream().filter(entry -> entry.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * A new connection is refused, or (while the closed listening socket is still being released) taken by the kernel
     * and reset without an answer.
     */
    private static void assertNotServed(final int port)
    {
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(5_000);
            send(socket, "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(-1, socket.getInputStream().read(), "a connection made after the drain is not answered");
        }
        catch (final IOException refusedOrReset)
        {
            // refused (ConnectException) or reset: not served either way
        }
    }

    private static void send(final Socket socket, final String request) throws IOException
    {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** Reads until {@code text} has arrived, returning everything read from where the answer starts. */
    private static String readUntil(final InputStream in, final String text) throws IOException
    {
        final StringBuilder read = new StringBuilder();
        final byte[] chunk = new byte[4096];
        while (read.indexOf(text) < 0)
        {
            final int n = in.read(chunk);
            if (n < 0)
            {
                break;
            }
            read.append(new String(chunk, 0, n, StandardCharsets.US_ASCII));
        }
        assertTrue(read.indexOf(text) >= 0, read.toString());
        return read.toString();
    }

    private static int readToEnd(final InputStream in) throws IOException
    {
        int n;
        while ((n = in.read()) >= 0)
        {
            // what was in flight
        }
        return n;
    }
}
