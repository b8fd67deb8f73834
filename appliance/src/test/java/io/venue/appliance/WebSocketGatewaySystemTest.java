package io.venue.appliance;

import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.feed.Feed;
import io.venue.transport.http.JsonReader;
import io.venue.transport.http.OwnerIntents;
import io.venue.transport.ws.WsGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static io.venue.appliance.DemoVenue.BTC;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.DemoVenue.USDC;
import static io.venue.appliance.StreamClient.channel;
import static io.venue.appliance.StreamClient.number;
import static io.venue.appliance.StreamClient.type;
import static io.venue.appliance.WebSocketStreamsTest.channels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The WebSocket gateway's timers and limits on a launched appliance, each configured short through the appliance's
 * own settings ({@code ws.*}), with Java's WebSocket client (and a raw socket for a client that stops reading) and
 * real signed orders: heartbeats carry each channel's last seq; an idle connection and a private one without auth are
 * closed; each limit closes 4409; a stalled client is warned, then closed 4408, while another gets every frame; a
 * resume after a disconnect in the middle of 10,000 random orders gives exactly the frames a client connected all along
 * received; a private resend keeps to its limits; a token obtained by a wallet signature opens the private streams.
 */
class WebSocketGatewaySystemTest
{
    private static final long MID = 50_000 * UNIT;
    private static final long TICK = UNIT / 100;
    private static final long LOT = UNIT / 1_000;

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair demo;
    private final List<Secp256k1KeyPair> traders = new ArrayList<>();
    /** Each trader's next nonce: from 0, contiguous, so the window's floor moves up with them. */
    private final List<AtomicLong> traderNonces = new ArrayList<>();

    /** Starts the demo appliance with the gateway's settings changed by {@code ws}, and funds {@code traders}. */
    private void start(final Consumer<WsGateway.Context> ws, final int traderCount) throws Exception
    {
        final ApplianceContext context = new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1")
            .accountActions(1_000_000);
        ws.accept(context.webSocket());
        appliance = Appliance.start(context, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        demo = VenueHttp.key(folder.resolve("keys").resolve("demo-account.key"));
        final Secp256k1KeyPair operator = VenueHttp.key(folder.resolve("keys").resolve("operator.key"));
        long operatorNonce = 6; // after the demo set-up's 0 to 5
        for (int i = 0; i < traderCount; i++)
        {
            final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(new SecureRandom());
            ok(http.operator(operator, operatorNonce++, new Deposit(trader.address(), USDC, 10_000_000 * UNIT)));
            ok(http.operator(operator, operatorNonce++, new Deposit(trader.address(), BTC, 1_000 * UNIT)));
            traders.add(trader);
            traderNonces.add(new AtomicLong());
        }
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    /**
     * Every heartbeat names, for each channel, the seq of the last frame the client read of it before the heartbeat
     * (the gateway writes the frames and heartbeats of a connection in order), so a client notices a loss on a quiet
     * channel too.
     */
    @Test
    void eachHeartbeatCarriesTheLastSeqOfEachChannel() throws Exception
    {
        start(ws -> ws.heartbeatMs(150).timers(1_000, 20), 2);
        try (StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            assertEquals(150L, number(stream.next(type("session"), 10), "heartbeatMs"));
            stream.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\",\"trades.1\"]}");
            final Map<String, Long> read = new HashMap<>();
            final List<Map<String, Object>> heartbeats = new ArrayList<>();
            // a trade (trades.1 and book.1 frames), then quiet: heartbeats must name both channels' last seq
            ok(http.submit(traders.get(0), traderNonces.get(0).getAndIncrement(), order(Side.ASK, MID, LOT)));
            ok(http.submit(traders.get(1), traderNonces.get(1).getAndIncrement(), order(Side.BID, MID, LOT)));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (heartbeats.size() < 4 || !read.containsKey("trades.1"))
            {
                assertTrue(System.nanoTime() < deadline, "4 heartbeats and a trade within 20 s: " + heartbeats);
                final Map<String, Object> frame = stream.next(10);
                if ("heartbeat".equals(frame.get("type")))
                {
                    assertNotNull(frame.get("serverTime"), frame.toString());
                    assertEquals(read, lastSeq(frame), "the heartbeat names the last seq read of each channel");
                    heartbeats.add(frame);
                }
                else if (frame.get("seq") instanceof Long seq && seq > 0)
                {
                    read.put((String)frame.get("ch"), seq);
                }
            }
            final Map<String, Long> last = lastSeq(heartbeats.get(heartbeats.size() - 1));
            assertTrue(last.get("book.1") >= 2 && last.get("trades.1") >= 1, last.toString());
        }
    }

    /**
     * A connection from which nothing arrives for idleTimeoutMs is closed 4000 after an error frame; one that pings
     * stays open well past it.
     */
    @Test
    void anIdleConnectionIsClosedAndOneThatPingsIsNot() throws Exception
    {
        start(ws -> ws.idleTimeoutMs(800).timers(1_000, 20), 0);
        try (StreamClient quiet = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public");
            StreamClient pinging = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            assertEquals(800L, number(quiet.next(type("session"), 10), "idleTimeoutMs"));
            for (int id = 1; id <= 12; id++)
            {
                pinging.send("{\"method\":\"ping\",\"id\":" + id + "}");
                Thread.sleep(200);
            }
            assertNull(pinging.closeReason(), "2.4 s of pings every 200 ms kept the connection open");
            final Map<String, Object> error = quiet.next(type("error"), 10);
            assertEquals("IDLE_TIMEOUT", error.get("code"), error.toString());
            assertEquals(4000, quiet.closeCode(10));
            assertEquals("IDLE_TIMEOUT", quiet.closeReason());
            for (int id = 1; id <= 12; id++)
            {
                assertEquals((long)id, number(pinging.next(type("pong"), 10), "id"));
            }
            assertEquals(4000, pinging.closeCode(10), "then closed once the pings stopped");
        }
    }

    /** A private connection that sends no auth message within authDeadlineMs is told so and closed 4401. */
    @Test
    void aPrivateConnectionWithoutAuthIsClosedAfterTheDeadline() throws Exception
    {
        start(ws -> ws.authDeadlineMs(400).timers(1_000, 20), 0);
        try (StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/private"))
        {
            assertEquals(400L, number(stream.next(type("session"), 10), "authDeadlineMs"));
            final Map<String, Object> error = stream.next(type("error"), 10);
            assertEquals("AUTH_TIMEOUT", error.get("code"), error.toString());
            assertNull(error.get("id"), error.toString());
            assertEquals(4401, stream.closeCode(10));
            assertEquals("AUTH_TIMEOUT", stream.closeReason());
        }
    }

    /** Subscriptions per connection, markets per public connection, control messages per window: each closes 4409. */
    @Test
    void eachLimitClosesWith4409() throws Exception
    {
        start(ws -> ws.subscriptions(3, 2).controlMessages(6, 60_000), 0);
        try (StreamClient subscriptions = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public");
            StreamClient markets = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public");
            StreamClient messages = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            final Map<String, Object> session = subscriptions.next(type("session"), 10);
            assertEquals(3L, number(session, "maxSubscriptionsPerConnection"));
            assertEquals(2L, number(session, "publicMaxMarketsPerConnection"));
            assertEquals(6L, number(session, "maxControlMessagesPerWindow"));

            subscriptions.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\",\"trades.1\"]}");
            assertEquals(1L, number(subscriptions.next(type("ack"), 10), "id"));
            subscriptions.send("{\"method\":\"subscribe\",\"id\":2,\"channels\":[\"bbo.1\",\"status\"]}");
            assertLimit(subscriptions, "3 subscriptions");

            markets.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"]}");
            markets.send("{\"method\":\"subscribe\",\"id\":2,\"channels\":[\"book.2.YES\"]}");
            assertEquals("snapshot", channels(markets.next(f -> "ack".equals(f.get("type")) &&
                Long.valueOf(2).equals(f.get("id")), 10)).get("book.2.YES"));
            markets.send("{\"method\":\"subscribe\",\"id\":3,\"channels\":[\"trades.7\"]}");
            assertLimit(markets, "2 markets");

            for (int id = 1; id <= 6; id++)
            {
                messages.send("{\"method\":\"ping\",\"id\":" + id + "}");
                assertEquals((long)id, number(messages.next(type("pong"), 10), "id"));
            }
            messages.send("{\"method\":\"ping\",\"id\":7}");
            assertLimit(messages, "6 messages");
        }
        assertEquals(3, metric("venue_ws_closes_total{code=\"4409\"}"));
    }

    private static void assertLimit(final StreamClient stream, final String named) throws Exception
    {
        final Map<String, Object> error = stream.next(type("error"), 10);
        assertEquals("LIMIT_EXCEEDED", error.get("code"), error.toString());
        assertTrue(((String)error.get("message")).contains(named), error.toString());
        assertEquals(4409, stream.closeCode(10));
        assertEquals("LIMIT_EXCEEDED", stream.closeReason());
    }

    /**
     * A client that subscribes and stops reading (a raw socket with a small receive buffer; the gateway's sockets with
     * a small kernel send buffer, ws.socket.send.buffer.bytes, so the kernel does not hold megabytes for it) is
     * warned once its queue passes the mark, closed 4408 after the grace, and meanwhile another client of the same
     * market receives every frame, in order, each checksum right.
     */
    @Test
    void aClientThatStopsReadingIsWarnedThenClosed4408WhileAnotherGetsEveryFrame() throws Exception
    {
        start(ws -> ws.slowConsumer(16 * 1024, 3_000, 64L * 1024 * 1024).socketSendBufferBytes(8 * 1024)
            .timers(1_000, 20), 2);
        try (StreamClient reader = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public");
            Socket stalled = new Socket())
        {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress("127.0.0.1", appliance.httpPort()), 5_000);
            final OutputStream out = stalled.getOutputStream();
            out.write(("GET /api/v1/ws/public HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n" +
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
                "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            awaitUpgrade(stalled);
            out.write(maskedText("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\",\"trades.1\"]}"));
            out.flush();
            reader.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"]}");
            final WebSocketStreamsTest.LocalBook book = new WebSocketStreamsTest.LocalBook();
            book.apply(reader.next(channel("book.1"), 10));

            final Random random = new Random(13);
            int orders = 0;
            while (metric("venue_ws_slow_consumer_warnings_total") == 0)
            {
                assertTrue(orders < 5_000, "no warning after " + orders + " orders");
                placeRandomOrders(random, 40, 2);
                orders += 40;
                // keep up with the reader, so that only the stalled client's queue grows
                final long last = number(restBook(), "seq");
                while (book.seq < last)
                {
                    book.apply(reader.next(channel("book.1"), 10));
                }
            }
            assertEquals(0, metric("venue_ws_closes_total{code=\"4408\"}"), "warned first, not closed yet");
            assertEquals(2, metric("venue_ws_connections_open"), "the stalled client is open in its grace");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (metric("venue_ws_closes_total{code=\"4408\"}") == 0)
            {
                assertTrue(System.nanoTime() < deadline, "closed 4408 within 20 s of the warning");
                Thread.sleep(50);
            }
            assertEquals(1, metric("venue_ws_connections_open"));
            assertStreamEnds(stalled);

            placeRandomOrders(random, 40, 2);
            final long last = number(restBook(), "seq");
            while (book.seq < last)
            {
                book.apply(reader.next(channel("book.1"), 10)); // every frame, in order, each checksum right
            }
            assertNull(reader.closeReason(), "the reader is still open");
        }
    }

    /** The stalled socket, read now, gives what the kernel held for it and then ends. */
    private static void assertStreamEnds(final Socket socket) throws IOException
    {
        socket.setSoTimeout(10_000);
        final InputStream in = socket.getInputStream();
        final byte[] buffer = new byte[65_536];
        try
        {
            while (in.read(buffer) >= 0)
            {
                // what was sent before the close
            }
        }
        catch (final SocketTimeoutException ex)
        {
            throw new AssertionError("the stalled connection did not end", ex);
        }
        catch (final IOException reset)
        {
            // a reset also ends it
        }
    }

    /**
     * A client that disconnects while 10,000 random orders arrive and resumes with its cursors (still during the
     * orders) receives exactly the frames a client connected all along received: the missed ones announced by a
     * gap_fill, then live, with no duplicate and no hole, on book.1 and trades.1.
     */
    @Test
    void aResumeDuringTenThousandOrdersGivesExactlyTheMissedFrames() throws Exception
    {
        start(ws -> { }, 4);
        try (StreamClient continuous = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            continuous.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\",\"trades.1\"]}");
            continuous.next(type("ack"), 10);
            final Map<String, Object> snapshot = continuous.next(channel("book.1"), 10);
            final String epoch = (String)snapshot.get("epoch");
            final Map<String, List<Map<String, Object>>> seen = new HashMap<>();
            StreamClient client = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public");
            client.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\",\"trades.1\"]}");
            assertEquals(number(snapshot, "seq"), number(client.next(channel("book.1"), 10), "seq"));

            final AtomicInteger placed = new AtomicInteger();
            final ExecutorService senders = Executors.newFixedThreadPool(traders.size());
            final AtomicLong lastSequence = new AtomicLong();
            final List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < traders.size(); t++)
            {
                final int trader = t;
                running.add(senders.submit(() ->
                {
                    final Random random = new Random(100 + trader);
                    for (int i = 0; i < 10_000 / traders.size(); i++)
                    {
                        lastSequence.accumulateAndGet(submitRandom(random, trader), Math::max);
                        placed.incrementAndGet();
                    }
                    return null;
                }));
            }
            final Map<String, Long> cursor = new HashMap<>();
            try
            {
                awaitPlaced(placed, 3_000);
                client.close(); // abort: whatever was not read yet is lost to it
                drainInto(client, seen, cursor);
                awaitPlaced(placed, 6_000);
                client = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public");
                client.send("{\"method\":\"subscribe\",\"id\":2,\"channels\":[\"book.1\",\"trades.1\"],\"resume\":{" +
                    "\"book.1\":{\"epoch\":\"" + epoch + "\",\"seq\":" + cursor.getOrDefault("book.1", 0L) + "}," +
                    "\"trades.1\":{\"epoch\":\"" + epoch + "\",\"seq\":" + cursor.getOrDefault("trades.1", 0L) +
                    "}}}");
                for (final Future<?> sender : running)
                {
                    sender.get(120, TimeUnit.SECONDS);
                }
            }
            finally
            {
                senders.shutdownNow();
            }
            awaitFeed(lastSequence.get());
            final Map<String, Long> lastSeqs = new HashMap<>();
            lastSeqs.put("book.1", number(restBook(), "seq"));
            final Map<String, Object> ack = client.next(type("ack"), 10);
            assertEquals(Map.of("book.1", "resumed", "trades.1", "resumed"), channels(ack), ack.toString());
            final Map<String, Long> gapFrom = new HashMap<>();
            final Map<String, List<Map<String, Object>>> expected = new HashMap<>();
            // the continuous client's frames up to the last seq of each channel
            readUntil(continuous, expected, lastSeqs);
            lastSeqs.put("trades.1", lastSeqOf(expected.get("trades.1")));
            final Map<String, List<Map<String, Object>>> resumed = new HashMap<>();
            while (!reached(resumed, lastSeqs))
            {
                final Map<String, Object> frame = client.poll(10_000);
                assertNotNull(frame, "resumed up to book.1 " + lastSeqOf(resumed.get("book.1")) + ", trades.1 " +
                    lastSeqOf(resumed.get("trades.1")) + " of " + lastSeqs + " from " + cursor + ", gaps " + gapFrom);
                if ("gap_fill".equals(frame.get("type")))
                {
                    final String ch = (String)frame.get("ch");
                    assertNull(gapFrom.put(ch, number(frame, "fromSeq")), "one gap_fill per channel");
                    assertEquals(cursor.getOrDefault(ch, 0L) + 1, number(frame, "fromSeq"), frame.toString());
                }
                else if (frame.get("seq") instanceof Long)
                {
                    resumed.computeIfAbsent((String)frame.get("ch"), c -> new ArrayList<>()).add(frame);
                }
            }
            for (final String ch : List.of("book.1", "trades.1"))
            {
                final List<Map<String, Object>> all = new ArrayList<>(seen.getOrDefault(ch, List.of()));
                all.addAll(resumed.get(ch));
                final List<Map<String, Object>> reference = expected.get(ch).stream()
                    .filter(f -> !"snapshot".equals(f.get("type"))).toList();
                final List<Map<String, Object>> mine = all.stream()
                    .filter(f -> !"snapshot".equals(f.get("type"))).toList();
                assertEquals(reference.size(), mine.size(), ch + ": as many frames as the continuous client");
                for (int i = 0; i < reference.size(); i++)
                {
                    assertEquals(reference.get(i), mine.get(i), ch + " frame " + i);
                }
                assertTrue(gapFrom.containsKey(ch) && lastSeqs.get(ch) - cursor.getOrDefault(ch, 0L) > 100,
                    ch + ": frames were missed and resumed: " + cursor + " " + lastSeqs);
            }
            client.close();
        }
    }

    private static void awaitPlaced(final AtomicInteger placed, final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (placed.get() < count)
        {
            assertTrue(System.nanoTime() < deadline, "only " + placed.get() + " orders placed");
            Thread.sleep(5);
        }
    }

    /** What an aborted client had received, and each channel's last seq among it (its resume cursor). */
    private static void drainInto(final StreamClient client, final Map<String, List<Map<String, Object>>> frames,
        final Map<String, Long> cursor) throws InterruptedException
    {
        Map<String, Object> frame;
        while ((frame = client.poll(300)) != null)
        {
            if (frame.get("ch") instanceof String ch && frame.get("seq") instanceof Long seq && seq > 0)
            {
                frames.computeIfAbsent(ch, c -> new ArrayList<>()).add(frame);
                final Long before = cursor.put(ch, seq);
                assertTrue(before == null || "snapshot".equals(frame.get("type")) || before + 1 == seq,
                    ch + " contiguous before the disconnect");
            }
        }
    }

    /** Reads data frames until book.1 reaches its last seq and the stream is quiet for a moment. */
    private static void readUntil(final StreamClient stream, final Map<String, List<Map<String, Object>>> frames,
        final Map<String, Long> last) throws InterruptedException
    {
        while (lastSeqOf(frames.get("book.1")) < last.get("book.1"))
        {
            add(stream.next(10), frames);
        }
        Map<String, Object> frame;
        while ((frame = stream.poll(500)) != null)
        {
            add(frame, frames);
        }
    }

    private static void add(final Map<String, Object> frame, final Map<String, List<Map<String, Object>>> frames)
    {
        if (frame.get("ch") instanceof String ch && frame.get("seq") instanceof Long)
        {
            frames.computeIfAbsent(ch, c -> new ArrayList<>()).add(frame);
        }
    }

    private static long lastSeqOf(final List<Map<String, Object>> frames)
    {
        return frames == null || frames.isEmpty() ? 0 : number(frames.get(frames.size() - 1), "seq");
    }

    private static boolean reached(final Map<String, List<Map<String, Object>>> frames, final Map<String, Long> last)
    {
        for (final Map.Entry<String, Long> channel : last.entrySet())
        {
            if (lastSeqOf(frames.get(channel.getKey())) < channel.getValue())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * A token obtained by the account's wallet signature ({@code POST /api/v1/ws/token} without machine headers)
     * opens the private streams; a resend keeps to its limits (at most 10,000 frames, a valid range, a private
     * channel, on the private endpoint) and gives the frames again, as sent live, marked resent.
     */
    @Test
    void aWalletTokenOpensThePrivateStreamsAndAResendKeepsToItsLimits() throws Exception
    {
        start(ws -> { }, 1);
        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // token texts are taken from a second after the start
        final String token = PrivateReadsTest.token(http, demo);
        try (StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/private");
            StreamClient publicStream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            stream.next(type("session"), 10);
            stream.send("{\"method\":\"auth\",\"id\":1,\"token\":\"" + token + "\"}");
            assertEquals(demo.address().toString(), stream.next(type("ack"), 10).get("account"));
            stream.send("{\"method\":\"subscribe\",\"id\":2,\"channels\":[\"orders\"]}");
            assertEquals("live", channels(stream.next(type("ack"), 10)).get("orders"));
            long demoNonce = 0;
            final List<Map<String, Object>> live = new ArrayList<>();
            for (int i = 0; i < 5; i++)
            {
                ok(http.submit(demo, ++demoNonce, order(Side.BID, MID - (10 + i) * TICK, LOT)));
                live.add(stream.next(channel("orders"), 10));
            }
            final long last = number(live.get(live.size() - 1), "seq");

            // the gateway refuses a range the feed could never serve (BAD_REQUEST, WEBSOCKET.md "Control messages")
            resendRefused(stream, 3, "orders", 1, Feed.MAX_RESEND_FRAMES + 1, "BAD_REQUEST");
            // 10,000 frames are not too many: only not there yet
            resendRefused(stream, 4, "orders", 1, Feed.MAX_RESEND_FRAMES, "RANGE_NOT_AVAILABLE");
            resendRefused(stream, 5, "orders", 0, 1, "BAD_REQUEST");
            resendRefused(stream, 6, "orders", 3, 2, "BAD_REQUEST");
            resendRefused(stream, 7, "orders", 1, last + 1, "RANGE_NOT_AVAILABLE");
            resendRefused(stream, 8, "book.1", 1, 1, "NOT_PRIVATE_CHANNEL");
            publicStream.send("{\"method\":\"resend\",\"id\":9,\"channel\":\"orders\",\"fromSeq\":1,\"toSeq\":1}");
            final Map<String, Object> publicError = publicStream.next(type("error"), 10);
            assertEquals("BAD_REQUEST", publicError.get("code"), publicError.toString());

            final long from = number(live.get(0), "seq");
            stream.send("{\"method\":\"resend\",\"id\":10,\"channel\":\"orders\",\"fromSeq\":" + from + ",\"toSeq\":" +
                last + "}");
            final Map<String, Object> ack = stream.next(type("ack"), 10);
            assertEquals(10L, number(ack, "id"), ack.toString());
            for (final Map<String, Object> sent : live)
            {
                final Map<String, Object> again = new HashMap<>(stream.next(channel("orders"), 10));
                assertEquals(Boolean.TRUE, again.remove("resent"), again.toString());
                assertEquals(sent, again, "the frame as it was sent live");
            }
            assertNull(stream.closeReason(), "refused resends change nothing and close nothing");
        }
    }

    private static void resendRefused(final StreamClient stream, final long id, final String channel, final long from,
        final long to, final String code) throws Exception
    {
        stream.send("{\"method\":\"resend\",\"id\":" + id + ",\"channel\":\"" + channel + "\",\"fromSeq\":" + from +
            ",\"toSeq\":" + to + "}");
        final Map<String, Object> error = stream.next(f -> "error".equals(f.get("type")) ||
            "ack".equals(f.get("type")), 10);
        assertEquals("error", error.get("type"), error.toString());
        assertEquals(id, number(error, "id"), error.toString());
        assertEquals(code, error.get("code"), error.toString());
    }

    /** Random orders around the mid, some crossing, from the first {@code threads} traders in parallel. */
    private void placeRandomOrders(final Random random, final int count, final int threads) throws Exception
    {
        final long[] seeds = new long[threads];
        for (int t = 0; t < threads; t++)
        {
            seeds[t] = random.nextLong();
        }
        final ExecutorService senders = Executors.newFixedThreadPool(threads);
        try
        {
            final List<Future<Long>> sent = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int trader = t;
                sent.add(senders.submit(() ->
                {
                    final Random own = new Random(seeds[trader]);
                    long last = 0;
                    for (int i = 0; i < count / threads; i++)
                    {
                        last = Math.max(last, submitRandom(own, trader));
                    }
                    return last;
                }));
            }
            long last = 0;
            for (final Future<Long> done : sent)
            {
                last = Math.max(last, done.get(60, TimeUnit.SECONDS));
            }
            awaitFeed(last);
        }
        finally
        {
            senders.shutdownNow();
        }
    }

    /** One random order of one trader, answered; its command's sequence. */
    private long submitRandom(final Random random, final int trader) throws Exception
    {
        final boolean bid = random.nextBoolean();
        final long price = MID + (random.nextInt(21) - 10) * TICK;
        final long qty = (1 + random.nextInt(5)) * LOT;
        final HttpResponse<String> answer = http.submit(traders.get(trader),
            traderNonces.get(trader).getAndIncrement(), order(bid ? Side.BID : Side.ASK, price, qty));
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().startsWith("{\"ok\":true"), answer.body());
        return Long.parseLong(VenueHttp.field(answer.body(), "sequence"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> lastSeq(final Map<String, Object> heartbeat)
    {
        final Map<String, Long> seqs = new HashMap<>();
        ((Map<String, Object>)heartbeat.get("lastSeq")).forEach((ch, seq) -> seqs.put(ch, ((Number)seq).longValue()));
        return seqs;
    }

    /** Polls the trades read, whose engineSeq is the last command the feed applied, until it reaches sequence. */
    @SuppressWarnings("unchecked")
    private void awaitFeed(final long sequence) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long applied = -1;
        while (System.nanoTime() < deadline)
        {
            final HttpResponse<String> trades = http.get("/api/v1/public/markets/" + SPOT_MARKET + "/trades?limit=1");
            assertEquals(200, trades.statusCode(), trades.body());
            applied = number((Map<String, Object>)JsonReader.read(trades.body().getBytes(StandardCharsets.UTF_8)),
                "engineSeq");
            if (applied >= sequence)
            {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the feed applied up to " + applied + ", not " + sequence + ", within 30 s");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> restBook() throws Exception
    {
        final HttpResponse<String> answer = http.get("/api/v1/public/markets/" + SPOT_MARKET + "/book?depth=1000");
        assertEquals(200, answer.statusCode(), answer.body());
        return (Map<String, Object>)JsonReader.read(answer.body().getBytes(StandardCharsets.UTF_8));
    }

    private long metric(final String sample) throws Exception
    {
        for (final String line : http.get("/api/v1/admin/metrics").body().split("\n"))
        {
            if (line.startsWith(sample + " "))
            {
                return Long.parseLong(line.substring(sample.length() + 1).trim());
            }
        }
        throw new AssertionError("no metric " + sample);
    }

    /** Reads the server's answer to an upgrade up to the end of its head, and checks it is the 101. */
    private static void awaitUpgrade(final Socket socket) throws Exception
    {
        socket.setSoTimeout(10_000);
        final StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0)
        {
            final int b = socket.getInputStream().read();
            assertTrue(b >= 0, "closed during the upgrade: " + head);
            head.append((char)b);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 101"), head.toString());
    }

    /** A client's text frame: masked (RFC 6455 5.3) with a zero mask, which leaves the bytes as they are. */
    private static byte[] maskedText(final String text)
    {
        final byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        final byte[] frame = new byte[2 + 4 + payload.length];
        frame[0] = (byte)0x81;
        frame[1] = (byte)(0x80 | payload.length);
        System.arraycopy(payload, 0, frame, 6, payload.length);
        return frame;
    }

    private static SpotPlaceOrder order(final Side side, final long price, final long qty)
    {
        return new SpotPlaceOrder(SPOT_MARKET, null, side, price, qty, null, TimeInForce.GTC, false, false, -1);
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }
}
