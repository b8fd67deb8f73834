package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two thousand hostile connections against a running appliance, on loopback with raw sockets from addresses of their
 * own (127.0.0.2 and up): heads trickled a byte a second, connections that send nothing, bodies that stop halfway, and
 * a hundred from one address. An honest client (Java's HttpClient from 127.0.0.1, which the node exempts) keeps being
 * answered throughout; every hostile connection is closed by its deadline or refused over a cap; the metrics count
 * both. The honest client's latencies are printed (p50, p99, max), not asserted beyond a generous timeout. An honest
 * trader places signed orders throughout: every order the node acknowledged is on the book after the flood and after
 * a restart of the node, so nothing acknowledged is lost.
 */
class ConnectionFloodTest
{
    private static final int FLOOD = 2_000;
    private static final int ONE_ADDRESS = 100;
    private static final int PER_ADDRESS_CAP = 60;
    private static final int TOTAL_CAP = 1_500;
    private static final long DEADLINE_MS = 2_000;

    @TempDir
    Path folder;

    private Appliance appliance;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final List<Socket> flood = new ArrayList<>();

    @AfterEach
    void stop() throws IOException
    {
        for (final Socket socket : flood)
        {
            socket.close();
        }
        if (appliance != null)
        {
            appliance.close();
        }
    }

    @Test
    void slowAndIdleConnectionsAreClosedOrRefusedWhileAnHonestClientIsAnswered() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1")
            .httpHeaderTimeoutMs(DEADLINE_MS).httpBodyTimeoutMs(DEADLINE_MS).httpIdleTimeoutMs(DEADLINE_MS)
            .httpMaxConnections(TOTAL_CAP).httpMaxConnectionsPerAddress(PER_ADDRESS_CAP),
            new PrintStream(log, true, StandardCharsets.UTF_8));
        final int port = URI.create(appliance.baseUrl()).getPort();
        final HttpClient honest = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        final HttpRequest info = HttpRequest.newBuilder(
            URI.create(appliance.baseUrl() + "/api/v1/public/exchange-info"))
            .timeout(Duration.ofSeconds(10)).GET().build();
        // warmed up first, so that both measures below are of a compiled path
        latencies(honest, info, 300, null);
        final long[] quiet = latencies(honest, info, 300, null);

        final AtomicBoolean flooding = new AtomicBoolean(true);
        final List<Long> during = new ArrayList<>();
        final Thread client = new Thread(() ->
        {
            try
            {
                for (final long latency : latencies(honest, info, Integer.MAX_VALUE, flooding))
                {
                    during.add(latency);
                }
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }, "honest-client");
        final List<Throwable> clientFailure = new ArrayList<>();
        client.setUncaughtExceptionHandler((thread, failure) -> clientFailure.add(failure));
        client.start();
        final List<String> acknowledged = new ArrayList<>();
        final Thread trader = new Thread(() -> trade(flooding, acknowledged), "honest-trader");
        trader.setUncaughtExceptionHandler((thread, failure) -> clientFailure.add(failure));
        trader.start();

        final byte[] head = ("GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(64) +
            "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        final byte[] halfBody = ("POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" +
            "{".repeat(500)).getBytes(StandardCharsets.US_ASCII);
        final long start = System.nanoTime();
        for (int i = 0; i < FLOOD; i++)
        {
            // the first hundred from one address (over its cap), then fifty an address
            final String from = i < ONE_ADDRESS ? "127.0.0.250" : "127.0.0." + (2 + (i - ONE_ADDRESS) / 50);
            final Socket socket = new Socket(InetAddress.getLoopbackAddress(), port, InetAddress.getByName(from), 0);
            socket.setSoTimeout(1);
            flood.add(socket);
            try
            {
                if (i % 3 == 2)
                {
                    socket.getOutputStream().write(halfBody);
                }
            }
            catch (final SocketException refused)
            {
                // refused over a cap while it sent
            }
        }
        // each trickling connection sends a byte of its head a second; each is swept for its end until all ended
        final String[] seen = new String[FLOOD];
        int ended = 0;
        int trickled = 0;
        long nextTrickleNs = System.nanoTime();
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (ended < FLOOD && System.nanoTime() - giveUp < 0)
        {
            if (System.nanoTime() - nextTrickleNs >= 0)
            {
                for (int i = 1; i < FLOOD; i += 3)
                {
                    if (seen[i] == null)
                    {
                        try
                        {
                            flood.get(i).getOutputStream().write(head[trickled % head.length]);
                        }
                        catch (final IOException closed)
                        {
                            // closed by the gateway: the sweep sees it
                        }
                    }
                }
                trickled++;
                nextTrickleNs += TimeUnit.SECONDS.toNanos(1);
            }
            for (int i = 0; i < FLOOD; i++)
            {
                if (seen[i] == null && (seen[i] = ended(flood.get(i))) != null)
                {
                    ended++;
                }
            }
        }
        final long floodMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        flooding.set(false);
        client.join();
        trader.join();
        assertTrue(clientFailure.isEmpty(), "the honest client was not answered: " + clientFailure);
        assertEquals(FLOOD, ended, "connections still open after 60 s");
        final long refused = Arrays.stream(seen).filter(text -> text.startsWith("HTTP/1.1 503") &&
            text.contains("\"code\":\"CONNECTION_LIMIT\"")).count();
        assertTrue(Arrays.stream(seen).allMatch(text -> text.isEmpty() || text.startsWith("HTTP/1.1 503") ||
            text.equals("reset")), "a hostile connection was answered something else: " + Arrays.stream(seen)
            .filter(text -> !text.isEmpty() && !text.startsWith("HTTP/1.1 503") && !text.equals("reset")).findFirst());
        assertTrue(refused > 0, "none refused at accept");

        final String metrics = new VenueHttp(appliance.baseUrl()).get("/api/v1/admin/metrics").body();
        for (final String counted : List.of("venue_http_connections_refused_total{cap=\"address\"}",
            "venue_http_connections_refused_total{cap=\"total\"}",
            "venue_http_connections_timed_out_total{deadline=\"header\"}",
            "venue_http_connections_timed_out_total{deadline=\"body\"}"))
        {
            assertTrue(metrics.contains(counted) && !metrics.contains(counted + " 0\n"), counted + " in\n" + metrics);
        }
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("http: refused "),
            log.toString(StandardCharsets.UTF_8));
        // after the flood, a new honest connection is answered
        assertEquals(200, HttpClient.newHttpClient().send(info, HttpResponse.BodyHandlers.ofString()).statusCode());

        // nothing acknowledged is lost: every order the node answered accepted rests, also after a restart
        assertTrue(acknowledged.size() > 0, "the trader placed nothing during the flood");
        assertResting(acknowledged);
        appliance.close();
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(log, true, StandardCharsets.UTF_8));
        assertResting(acknowledged);

        final long[] busy = during.stream().mapToLong(Long::longValue).toArray();
        System.out.printf("ConnectionFloodTest: %d hostile connections, %d refused at accept, all ended in %d ms%n",
            FLOOD, refused, floodMs);
        System.out.printf("ConnectionFloodTest: honest client alone: %s%n", summary(quiet));
        System.out.printf("ConnectionFloodTest: honest client during the flood: %s%n", summary(busy));
        System.out.printf("ConnectionFloodTest: %d orders acknowledged during the flood, all resting after it and " +
            "after a restart%n", acknowledged.size());
        assertTrue(busy.length > 0, "the honest client asked nothing during the flood");
    }

    /** Places resting bids of the demo account until {@code until} turns false; the ids of those answered accepted. */
    private void trade(final AtomicBoolean until, final List<String> acknowledged)
    {
        try
        {
            final VenueHttp http = new VenueHttp(appliance.baseUrl());
            final Secp256k1KeyPair key = VenueHttp.key(appliance.demoAccountKeyFile());
            long nonce = 0;
            while (until.get())
            {
                // far below any ask: the order rests
                final HttpResponse<String> answer = http.post("/api/v1/trading/actions", VenueHttp.body(key,
                    appliance.demoAccount(), nonce++, new SpotPlaceOrder(SPOT_MARKET, null, Side.BID,
                    1_000 * UNIT, UNIT / 100, null, TimeInForce.GTC, false, false, -1), PreimageMode.RAW));
                if (answer.statusCode() == 200 && "true".equals(VenueHttp.field(answer.body(), "ok")))
                {
                    synchronized (acknowledged)
                    {
                        acknowledged.add(VenueHttp.field(answer.body(), "orderId"));
                    }
                }
                else
                {
                    throw new IllegalStateException("the honest trader was refused: " + answer.body());
                }
                Thread.sleep(20);
            }
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private void assertResting(final List<String> orderIds) throws Exception
    {
        final VenueHttp http = new VenueHttp(appliance.baseUrl());
        for (final String orderId : orderIds)
        {
            final HttpResponse<String> status = http.get("/api/v1/trading/orders/" + orderId);
            assertEquals(200, status.statusCode(), orderId + ": " + status.body());
            assertEquals("resting", VenueHttp.field(status.body(), "status"), status.body());
        }
    }

    /** What a hostile connection has shown: null while open, its bytes once closed ("reset" for a reset). */
    private static String ended(final Socket socket)
    {
        final byte[] buffer = new byte[512];
        final StringBuilder text = new StringBuilder();
        try
        {
            int read;
            while ((read = socket.getInputStream().read(buffer)) > 0)
            {
                text.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
                socket.setSoTimeout(1_000);
            }
            return read < 0 ? text.toString() : null;
        }
        catch (final SocketTimeoutException open)
        {
            return text.length() > 0 ? text.toString() : null;
        }
        catch (final IOException reset)
        {
            return text.length() > 0 ? text.toString() : "reset";
        }
    }

    /** GETs {@code request} {@code count} times, or until {@code until} turns false; each latency in microseconds. */
    private static long[] latencies(final HttpClient client, final HttpRequest request, final int count,
        final AtomicBoolean until) throws Exception
    {
        final List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < count && (until == null || until.get()); i++)
        {
            final long sent = System.nanoTime();
            final HttpResponse<String> answer = client.send(request, HttpResponse.BodyHandlers.ofString());
            latencies.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent));
            if (answer.statusCode() != 200)
            {
                throw new IllegalStateException("the honest client got " + answer.statusCode() + ": " + answer.body());
            }
        }
        return latencies.stream().mapToLong(Long::longValue).toArray();
    }

    private static String summary(final long[] latencies)
    {
        final long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        if (sorted.length == 0)
        {
            return "no requests";
        }
        return sorted.length + " requests, p50 " + sorted[sorted.length / 2] + " us, p99 " +
            sorted[Math.min(sorted.length - 1, (int)Math.ceil(sorted.length * 0.99) - 1)] + " us, max " +
            sorted[sorted.length - 1] + " us";
    }
}
