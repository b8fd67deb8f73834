package io.venue.transport.http;

import io.venue.codec.MetricsText;
import io.venue.entry.EntryCore;
import io.venue.entry.PendingRequests;
import io.venue.entry.PreJournalRefusals;
import io.venue.entry.admission.EdgeThrottle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The HTTP lane's guards against clients that hold connections, on loopback with raw sockets: the header, body and idle
 * deadlines close what does not send in time, the caps refuse connections over them with a 503 written at accept,
 * and a write from an address the edge throttle has no token for is refused at its head, before its body is sent.
 */
class ConnectionGuardsTest
{
    private static final String INFO = "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\n\r\n";

    private HttpGateway gateway;
    private HttpGateway.Context context;
    private final List<Socket> sockets = new ArrayList<>();

    private void start(final EdgeThrottle throttle, final long deadlineMs, final int total, final int perAddress)
    {
        final EntryCore entry = new EntryCore(new EntryCore.Context().answerTimeoutMs(10_000)
            .submitter((prebatched, connection, correlation, body, offset, length) -> false)
            .pending(new PendingRequests(0)).refusals(new PreJournalRefusals(64 * 1024)).edgeThrottle(throttle));
        context = new HttpGateway.Context().port(0).entry(entry).exchangeInfo(() -> "{}").connectivity(() -> "{}")
            .actionStatus(digest -> null).nonceStatus(account -> "{}")
            .deadlines(deadlineMs, deadlineMs, deadlineMs).connections(total, perAddress, Set.of());
        gateway = HttpGateway.start(context);
    }

    @AfterEach
    void stop() throws IOException
    {
        for (final Socket socket : sockets)
        {
            socket.close();
        }
        if (gateway != null)
        {
            gateway.close();
        }
    }

    private Socket connect(final String from) throws IOException
    {
        final Socket socket = new Socket(InetAddress.getLoopbackAddress(), gateway.port(), InetAddress.getByName(from),
            0);
        socket.setSoTimeout(10_000);
        sockets.add(socket);
        return socket;
    }

    /** Reads until the gateway closes the connection (a reset counts as closed); fails if still open after 10 s. */
    private static String readToClose(final Socket socket) throws IOException
    {
        final ByteArrayOutputStream read = new ByteArrayOutputStream();
        final byte[] chunk = new byte[4096];
        final InputStream in = socket.getInputStream();
        try
        {
            int n;
            while ((n = in.read(chunk)) >= 0)
            {
                read.write(chunk, 0, n);
            }
        }
        catch (final SocketTimeoutException open)
        {
            fail("the connection is still open after 10 s; read so far: " + read.toString(StandardCharsets.US_ASCII));
        }
        catch (final SocketException reset)
        {
            // closed while we still sent: as closed as a FIN
        }
        return read.toString(StandardCharsets.US_ASCII);
    }

    /** Reads one answer with a Content-Length body (the gateway's every answer has one). */
    private static String readAnswer(final Socket socket) throws IOException
    {
        final InputStream in = socket.getInputStream();
        final StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n"))
        {
            final int b = in.read();
            assertTrue(b >= 0, "closed before a whole answer: " + head);
            head.append((char)b);
        }
        final int at = head.indexOf("content-length: ") + "content-length: ".length();
        final int length = Integer.parseInt(head.substring(at, head.indexOf("\r\n", at)));
        return head + new String(in.readNBytes(length), StandardCharsets.US_ASCII);
    }

    private String metrics()
    {
        final MetricsText text = new MetricsText();
        context.counters.appendTo(text);
        return text.toString();
    }

    @Test
    void aConnectionThatSendsNothingIsClosedByTheHeaderDeadline() throws Exception
    {
        start(null, 300, 100, 100);
        assertEquals("", readToClose(connect("127.0.0.1")));
        assertTrue(metrics().contains("venue_http_connections_timed_out_total{deadline=\"header\"} 1"), metrics());
    }

    @Test
    void aHeadTrickledOneByteAtATimeIsClosedByTheHeaderDeadline() throws Exception
    {
        start(null, 500, 100, 100);
        final Socket socket = connect("127.0.0.1");
        final OutputStream out = socket.getOutputStream();
        final byte[] head = ("GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(400) +
            "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        final long deadline = System.nanoTime() + 10_000_000_000L;
        int sent = 0;
        try
        {
            // a byte every 20 ms would take 9 s for the whole head: the connection must go long before
            for (; sent < head.length; sent++)
            {
                out.write(head[sent]);
                out.flush();
                Thread.sleep(20);
                assertTrue(System.nanoTime() - deadline < 0, "still open after 10 s of trickling");
            }
        }
        catch (final SocketException closed)
        {
            // the gateway closed it while the head trickled in
        }
        assertTrue(sent < head.length, "the whole head went through");
        assertEquals("", readToClose(socket));
        assertTrue(metrics().contains("venue_http_connections_timed_out_total{deadline=\"header\"} 1"), metrics());
    }

    @Test
    void aBodyThatStopsHalfwayIsClosedByTheBodyDeadline() throws Exception
    {
        start(null, 300, 100, 100);
        final Socket socket = connect("127.0.0.1");
        socket.getOutputStream().write(("POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\n" +
            "Content-Length: 100\r\n\r\n" + "x".repeat(50)).getBytes(StandardCharsets.US_ASCII));
        assertEquals("", readToClose(socket));
        assertTrue(metrics().contains("venue_http_connections_timed_out_total{deadline=\"body\"} 1"), metrics());
    }

    @Test
    void aKeptAliveConnectionIsAnsweredThenClosedByTheIdleDeadline() throws Exception
    {
        start(null, 400, 100, 100);
        final Socket socket = connect("127.0.0.1");
        for (int i = 0; i < 3; i++)
        {
            // each request starts within the idle deadline of the last answer: the connection stays
            socket.getOutputStream().write(INFO.getBytes(StandardCharsets.US_ASCII));
            assertTrue(readAnswer(socket).startsWith("HTTP/1.1 200"));
            Thread.sleep(100);
        }
        assertEquals("", readToClose(socket));
        assertTrue(metrics().contains("venue_http_connections_timed_out_total{deadline=\"idle\"} 1"), metrics());
    }

    @Test
    void connectionsOverTheCapsAreRefusedAtAcceptWith503() throws Exception
    {
        start(null, 60_000, 6, 4);
        for (int i = 0; i < 4; i++)
        {
            final Socket admitted = connect("127.0.0.2");
            admitted.getOutputStream().write(INFO.getBytes(StandardCharsets.US_ASCII));
            assertTrue(readAnswer(admitted).startsWith("HTTP/1.1 200"));
        }
        final String overAddress = readToClose(connect("127.0.0.2"));
        assertTrue(overAddress.startsWith("HTTP/1.1 503") && overAddress.contains("\"code\":\"CONNECTION_LIMIT\"") &&
            overAddress.contains("from this address"), overAddress);
        // another address still gets in, up to the total
        for (int i = 0; i < 2; i++)
        {
            final Socket admitted = connect("127.0.0.3");
            admitted.getOutputStream().write(INFO.getBytes(StandardCharsets.US_ASCII));
            assertTrue(readAnswer(admitted).startsWith("HTTP/1.1 200"));
        }
        final String overTotal = readToClose(connect("127.0.0.4"));
        assertTrue(overTotal.startsWith("HTTP/1.1 503") && overTotal.contains("as many connections as it takes"),
            overTotal);
        assertTrue(metrics().contains("venue_http_connections_refused_total{cap=\"address\"} 1") &&
            metrics().contains("venue_http_connections_refused_total{cap=\"total\"} 1") &&
            metrics().contains("venue_http_connections_open 6"), metrics());
        // a connection closed gives its place back
        sockets.get(0).close();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!metrics().contains("venue_http_connections_open 5"))
        {
            assertTrue(System.nanoTime() - deadline < 0, metrics());
            Thread.sleep(1);
        }
        final Socket again = connect("127.0.0.2");
        again.getOutputStream().write(INFO.getBytes(StandardCharsets.US_ASCII));
        assertTrue(readAnswer(again).startsWith("HTTP/1.1 200"));
    }

    @Test
    void aWriteFromAnAddressWithoutATokenIsRefusedAtItsHeadBeforeItsBodyIsSent() throws Exception
    {
        // the throttle's clock stands still: the one token is spent and none comes back
        final long now = System.nanoTime();
        start(new EdgeThrottle(1, 1, Set.of(), () -> now), 60_000, 100, 100);
        final Socket socket = connect("127.0.0.1");
        // the first takes the token (and finds the pool's queue full)
        socket.getOutputStream().write("POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
            .getBytes(StandardCharsets.US_ASCII));
        assertTrue(readAnswer(socket).startsWith("HTTP/1.1 503"));
        // the second announces 400,000 bytes and sends none of them: refused without them
        socket.getOutputStream().write(("POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\n" +
            "Content-Length: 400000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        final String refused = readAnswer(socket);
        assertTrue(refused.startsWith("HTTP/1.1 429") && refused.contains("Too Many Requests! Wait for"), refused);
        // the body is skipped as it comes, and the connection goes on
        socket.getOutputStream().write(new byte[400_000]);
        socket.getOutputStream().write(INFO.getBytes(StandardCharsets.US_ASCII));
        assertTrue(readAnswer(socket).startsWith("HTTP/1.1 200"));
    }
}
