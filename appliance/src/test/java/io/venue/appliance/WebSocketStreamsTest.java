package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.Deposit;
import io.venue.auth.AgentKind;
import io.venue.auth.OwnerRevokeText;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1Signer;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.transport.http.JsonReader;
import io.venue.transport.http.OwnerIntents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import static io.venue.appliance.DemoVenue.BTC;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.DemoVenue.USDC;
import static io.venue.appliance.StreamClient.channel;
import static io.venue.appliance.StreamClient.number;
import static io.venue.appliance.StreamClient.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The WebSocket streams of a running appliance, with Java's WebSocket client and real signed orders over HTTP: the
 * book built from a snapshot and its deltas matches every checksum and splices with the REST book at its seq; each
 * account's private channels show only its own orders and fills; a resume gives exactly the frames missed, also after
 * a restart of the appliance; a stale cursor is told so and given a snapshot.
 */
class WebSocketStreamsTest
{
    private static final long MID = 50_000 * UNIT;
    private static final long TICK = UNIT / 100;
    private static final long LOT = UNIT / 1_000;

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair demo;
    private Secp256k1KeyPair trader;
    private long demoNonce;
    private long traderNonce;

    @BeforeEach
    void start() throws Exception
    {
        startAppliance();
        demo = VenueHttp.key(folder.resolve("keys").resolve("demo-account.key"));
        final Secp256k1KeyPair operator = VenueHttp.key(folder.resolve("keys").resolve("operator.key"));
        trader = Secp256k1KeyPair.generate(new SecureRandom());
        // the operator's nonces after the demo set-up's 0 to 5
        ok(http.operator(operator, 6, new Deposit(trader.address(), USDC, 100_000 * UNIT)));
        ok(http.operator(operator, 7, new Deposit(trader.address(), BTC, 10 * UNIT)));
    }

    private void startAppliance() throws Exception
    {
        final ApplianceContext context = new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1");
        appliance = Appliance.start(context,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    @Test
    void theBookFromSnapshotAndDeltasMatchesEveryChecksumAndTheRestBook() throws Exception
    {
        try (StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            final Map<String, Object> session = stream.next(10);
            assertEquals("session", session.get("type"), session.toString());
            assertEquals(20_000L, number(session, "heartbeatMs"));
            assertEquals(90_000L, number(session, "idleTimeoutMs"));
            assertEquals(32L, number(session, "maxSubscriptionsPerConnection"));
            assertEquals(16L, number(session, "publicMaxMarketsPerConnection"));
            stream.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\",\"trades.1\"]}");
            final Map<String, Object> ack = stream.next(type("ack"), 10);
            assertEquals(1L, number(ack, "id"));
            assertEquals("snapshot", channels(ack).get("book.1"), ack.toString());
            final LocalBook book = new LocalBook();
            book.apply(stream.next(channel("book.1"), 10));

            final List<Long> tradeSeqs = new ArrayList<>();
            placeRandomOrders(new Random(7), 80);
            final Map<String, Object> rest = restBook();
            final long restSeq = number(rest, "seq");
            while (book.seq < restSeq)
            {
                final Map<String, Object> frame = stream.next(f -> "book.1".equals(f.get("ch")) ||
                    "trades.1".equals(f.get("ch")), 10);
                if ("trades.1".equals(frame.get("ch")))
                {
                    tradeSeqs.add(number(frame, "seq"));
                }
                else
                {
                    book.apply(frame);
                }
            }
            assertEquals(restSeq, book.seq);
            assertEquals(levels(rest.get("bids")), book.bids, "bids at seq " + restSeq);
            assertEquals(levels(rest.get("asks")), book.asks, "asks at seq " + restSeq);
            assertEquals(number(rest, "checksum"), book.checksum());
            assertFalse(tradeSeqs.isEmpty(), "the random orders crossed: trades were published");
            for (int i = 1; i < tradeSeqs.size(); i++)
            {
                assertEquals(tradeSeqs.get(i - 1) + 1, tradeSeqs.get(i), "trades.1 is contiguous");
            }
        }
    }

    @Test
    void eachAccountsPrivateChannelsShowOnlyItsOwnOrdersAndFills() throws Exception
    {
        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // token texts are taken from a second after the start
        try (StreamClient mine = privateStream(demo); StreamClient theirs = privateStream(trader))
        {
            final String demoOrder = placed(http.submit(demo, ++demoNonce,
                order(Side.ASK, MID, 5 * LOT, TimeInForce.GTC)));
            final String traderOrder = placed(http.submit(trader, ++traderNonce,
                order(Side.BID, MID, 2 * LOT, TimeInForce.GTC)));
            final Map<String, Object> myFill = update(mine.next(channel("fills"), 10));
            assertEquals(demoOrder, myFill.get("orderId"), myFill.toString());
            assertEquals(2 * LOT, number(myFill, "qty"));
            assertEquals(MID, number(myFill, "price"));
            assertEquals("maker", myFill.get("liquidity"), myFill.toString());
            assertEquals("sell", myFill.get("side"), myFill.toString());
            final Map<String, Object> theirFill = update(theirs.next(channel("fills"), 10));
            assertEquals(traderOrder, theirFill.get("orderId"), theirFill.toString());
            assertEquals("taker", theirFill.get("liquidity"), theirFill.toString());
            assertEquals("buy", theirFill.get("side"), theirFill.toString());
            for (final StreamClient stream : List.of(mine, theirs))
            {
                Map<String, Object> frame;
                while ((frame = stream.poll(500)) != null)
                {
                    final String text = frame.toString();
                    final String other = stream == mine ? traderOrder : demoOrder;
                    assertFalse(text.contains(other), "another account's order in " + text);
                    assertFalse(text.contains((stream == mine ? trader : demo).address().toString()),
                        "another account in " + text);
                }
            }
        }
    }

    @Test
    void aResumeGivesExactlyTheMissedFramesAndAStaleCursorASnapshot() throws Exception
    {
        try (StreamClient watcher = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            watcher.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"]}");
            final Map<String, Object> first = watcher.next(channel("book.1"), 10);
            final String epoch = (String)first.get("epoch");
            final long from = number(first, "seq");
            placeRandomOrders(new Random(11), 30);
            final long last = number(restBook(), "seq");
            final List<Map<String, Object>> live = new ArrayList<>();
            while (live.isEmpty() || number(live.get(live.size() - 1), "seq") < last)
            {
                live.add(watcher.next(channel("book.1"), 10));
            }

            try (StreamClient resumed = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
            {
                resumed.send("{\"method\":\"subscribe\",\"id\":2,\"channels\":[\"book.1\"],\"resume\":{\"book.1\":" +
                    "{\"epoch\":\"" + epoch + "\",\"seq\":" + from + "}}}");
                assertEquals("resumed", channels(resumed.next(type("ack"), 10)).get("book.1"));
                final Map<String, Object> gap = resumed.next(type("gap_fill"), 10);
                assertEquals(from + 1, number(gap, "fromSeq"));
                for (final Map<String, Object> expected : live)
                {
                    assertEquals(expected, resumed.next(channel("book.1"), 10), "the frame missed, as it was sent");
                }
            }
            try (StreamClient stale = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
            {
                stale.send("{\"method\":\"subscribe\",\"id\":3,\"channels\":[\"book.1\"],\"resume\":{\"book.1\":" +
                    "{\"epoch\":\"0000\",\"seq\":1}}}");
                assertEquals("resume_required", channels(stale.next(type("ack"), 10)).get("book.1"));
                stale.next(type("resume_required"), 10);
                final Map<String, Object> snapshot = stale.next(channel("book.1"), 10);
                assertEquals("snapshot", snapshot.get("type"));
                assertEquals(last, number(snapshot, "seq"));
            }
        }
    }

    /**
     * A client that subscribes and never reads again holds back nothing: another client of the same market gets every
     * frame, in order, each checksum right. (Its warning and close 4408 once its queue passes the mark are
     * WebSocketGatewaySystemTest's, with a small mark and socket send buffer: with the defaults the kernel's buffers
     * take more than a test's orders make.)
     */
    @Test
    void aClientThatStopsReadingHoldsBackNoOtherClientsFrames() throws Exception
    {
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
            final LocalBook book = new LocalBook();
            book.apply(reader.next(channel("book.1"), 10));
            final long first = book.seq;
            placeRandomOrders(new Random(9), 100);
            final long last = number(restBook(), "seq");
            while (book.seq < last)
            {
                book.apply(reader.next(channel("book.1"), 10)); // every frame, in order, each checksum right
            }
            assertTrue(last - first >= 50, "the orders changed the book: " + (last - first) + " frames");
            assertEquals(2, metric("venue_ws_connections_open"), "the stalled client is still connected");
        }
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

    @Test
    void aRestartKeepsEachChannelsEpochAndSeq() throws Exception
    {
        placeRandomOrders(new Random(3), 20);
        final Map<String, Object> before = restBook();
        String epoch;
        try (StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            stream.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"]}");
            final Map<String, Object> snapshot = stream.next(channel("book.1"), 10);
            epoch = (String)snapshot.get("epoch");
            assertEquals(number(before, "seq"), number(snapshot, "seq"));
        }
        appliance.close();
        startAppliance();
        awaitFeed(number(before, "engineSeq"));
        final Map<String, Object> after = restBook();
        assertEquals(number(before, "seq"), number(after, "seq"));
        assertEquals(before.get("checksum"), after.get("checksum"));
        try (StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/public"))
        {
            stream.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"],\"resume\":{\"book.1\":" +
                "{\"epoch\":\"" + epoch + "\",\"seq\":" + number(before, "seq") + "}}}");
            assertEquals("resumed", channels(stream.next(type("ack"), 10)).get("book.1"));
            placed(http.submit(demo, ++demoNonce, order(Side.BID, MID - 400 * TICK, LOT, TimeInForce.GTC)));
            final Map<String, Object> next = stream.next(f -> "book.1".equals(f.get("ch")) &&
                !"gap_fill".equals(f.get("type")), 10);
            assertEquals(epoch, next.get("epoch"));
            assertEquals(number(before, "seq") + 1, number(next, "seq"));
            assertNotEquals("snapshot", next.get("type"));
        }
    }

    /**
     * An institutional client's path: a token obtained with its agent credential's SVC-* headers opens the account's
     * private streams; the owner revokes every agent and the open stream is closed 4403 within the grant check.
     */
    @Test
    void aTokenObtainedByMachineHeadersOpensThePrivateStreamsUntilTheAgentIsRevoked() throws Exception
    {
        final VenueHttp.Credential credential = http.newCredential(demo, 1, AgentKind.API, Scope.TRADE, Scope.READ);
        demoNonce = 10; // the owner's intents take nonces of the account's window: 1 here, 2 for the revoke below
        final HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create(appliance.baseUrl() + "/api/v1/ws/token")).POST(HttpRequest.BodyPublishers.noBody());
        credential.signer().sign(1, System.currentTimeMillis(), "POST", "/api/v1/ws/token", null, null)
            .forEach(request::header);
        final HttpResponse<String> issued = http.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, issued.statusCode(), issued.body());
        try (StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/private"))
        {
            stream.next(type("session"), 10);
            stream.send("{\"method\":\"auth\",\"id\":1,\"token\":\"" + VenueHttp.field(issued.body(), "token") + "\"}");
            assertEquals(demo.address().toString(), stream.next(type("ack"), 10).get("account"));
            stream.send("{\"method\":\"subscribe\",\"id\":2,\"channels\":[\"orders\"]}");
            stream.next(type("ack"), 10);
            final String order = placed(http.submit(demo, ++demoNonce, order(Side.BID, MID - 300 * TICK, LOT,
                TimeInForce.GTC)));
            final Map<String, Object> accepted = stream.next(channel("orders"), 10);
            assertTrue(accepted.toString().contains(order), accepted.toString());

            final OwnerRevokeText revokeAll = OwnerRevokeText.builder().owner(demo.address()).nonce(2)
                .issuedAtMs(System.currentTimeMillis()).chainId(ApplianceContext.DEMO_CHAIN_ID)
                .verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
            ok(http.post("/api/v1/trading/accounts/owner-revoke", new JsonWriter()
                .field("userWalletAddress", demo.address().toString()).field("nonce", revokeAll.nonce())
                .field("issuedAtMs", revokeAll.issuedAtMs()).field("signature", Hex.to0x(new Secp256k1Signer(demo)
                .sign(Eip191.personalHash(revokeAll.text()), PreimageMode.RAW))).toJson()
                .getBytes(StandardCharsets.UTF_8)));
            assertEquals(4403, stream.closeCode(10));
            assertEquals("GRANT_REVOKED", stream.closeReason());
        }
    }

    /**
     * tools/interop/ws_book_client.py, a client in Python written from docs/WEBSOCKET.md alone (its own WebSocket
     * framing, its own checksum), builds the same book as the REST read at the same seq.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aClientWrittenInPythonFromTheDocumentBuildsTheSameBook() throws Exception
    {
        placeRandomOrders(new Random(5), 10);
        final Path script = Path.of("..", "tools", "interop", "ws_book_client.py").toAbsolutePath().normalize();
        final Process client = new ProcessBuilder("python3", script.toString(), "--url",
            appliance.baseUrl().replaceFirst("^http", "ws") + "/api/v1/ws/public", "--channel", "book.1")
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8))
        {
            final String subscribed = out.readLine();
            assertTrue(subscribed != null && subscribed.startsWith("{\"subscribed\":"), subscribed);
            placeRandomOrders(new Random(6), 40);
            final Map<String, Object> rest = restBook();
            in.write(number(rest, "seq") + "\n");
            in.flush();
            final Map<String, Object> built = (Map<String, Object>)JsonReader.read(
                out.readLine().getBytes(StandardCharsets.UTF_8));
            assertTrue(client.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, client.exitValue());
            assertEquals(number(rest, "seq"), number(built, "seq"));
            assertEquals(number(rest, "checksum"), number(built, "checksum"));
            assertEquals(levels(rest.get("bids")), levels(built.get("bids")));
            assertEquals(levels(rest.get("asks")), levels(built.get("asks")));
            assertTrue(number(built, "frames") > 1, "deltas were applied, not only the snapshot");
        }
        finally
        {
            client.destroyForcibly();
        }
    }

    private StreamClient privateStream(final Secp256k1KeyPair wallet) throws Exception
    {
        final String token = PrivateReadsTest.token(http, wallet);
        final StreamClient stream = new StreamClient(appliance.baseUrl(), "/api/v1/ws/private");
        stream.next(type("session"), 10);
        stream.send("{\"method\":\"auth\",\"id\":1,\"token\":\"" + token + "\"}");
        assertEquals(1L, number(stream.next(type("ack"), 10), "id"));
        stream.send("{\"method\":\"subscribe\",\"id\":2,\"channels\":[\"orders\",\"fills\",\"balances\"]}");
        final Map<String, Object> ack = stream.next(type("ack"), 10);
        assertEquals(2L, number(ack, "id"), ack.toString());
        return stream;
    }

    /**
     * Orders from both traders around the mid, some crossing, each answered before the next is sent; returns once the
     * feed has applied the last of them.
     */
    private void placeRandomOrders(final Random random, final int count) throws Exception
    {
        long last = 0;
        for (int i = 0; i < count; i++)
        {
            final boolean bid = random.nextBoolean();
            final long price = MID + (random.nextInt(21) - 10) * TICK;
            final long qty = (1 + random.nextInt(5)) * LOT;
            final boolean byDemo = random.nextBoolean();
            final HttpResponse<String> answer = byDemo ?
                http.submit(demo, ++demoNonce, order(bid ? Side.BID : Side.ASK, price, qty, TimeInForce.GTC)) :
                http.submit(trader, ++traderNonce, order(bid ? Side.BID : Side.ASK, price, qty, TimeInForce.GTC));
            assertEquals(200, answer.statusCode(), answer.body());
            last = Long.parseLong(VenueHttp.field(answer.body(), "sequence"));
        }
        awaitFeed(last);
    }

    /** Polls the trades read, whose engineSeq is the last command the feed applied, until it reaches sequence. */
    @SuppressWarnings("unchecked")
    private void awaitFeed(final long sequence) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
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
        throw new AssertionError("the feed applied up to " + applied + ", not " + sequence + ", within 20 s");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> update(final Map<String, Object> frame)
    {
        final List<Object> updates = (List<Object>)frame.get("updates");
        assertEquals(1, updates.size(), frame.toString());
        return (Map<String, Object>)updates.get(0);
    }

    private static SpotPlaceOrder order(final Side side, final long price, final long qty, final TimeInForce tif)
    {
        return new SpotPlaceOrder(SPOT_MARKET, null, side, price, qty, null, tif, false, false, -1);
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    private static String placed(final HttpResponse<String> response)
    {
        ok(response);
        return VenueHttp.field(response.body(), "orderId");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> restBook() throws Exception
    {
        final HttpResponse<String> answer = http.client.send(HttpRequest.newBuilder(URI.create(appliance.baseUrl() +
            "/api/v1/public/markets/" + SPOT_MARKET + "/book?depth=1000")).timeout(Duration.ofSeconds(30)).GET()
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return (Map<String, Object>)JsonReader.read(answer.body().getBytes(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> channels(final Map<String, Object> ack)
    {
        return (Map<String, Object>)ack.get("channels");
    }

    @SuppressWarnings("unchecked")
    static TreeMap<Long, Long> levels(final Object array)
    {
        final TreeMap<Long, Long> levels = new TreeMap<>();
        for (final Object level : (List<Object>)array)
        {
            final List<Object> pair = (List<Object>)level;
            levels.put(((Number)pair.get(0)).longValue(), ((Number)pair.get(1)).longValue());
        }
        return levels;
    }

    /** A client's book, as docs/WEBSOCKET.md tells a client to build it, checked against each frame's checksum. */
    static final class LocalBook
    {
        final TreeMap<Long, Long> bids = new TreeMap<>();
        final TreeMap<Long, Long> asks = new TreeMap<>();
        long seq;

        void apply(final Map<String, Object> frame)
        {
            final long frameSeq = number(frame, "seq");
            if ("snapshot".equals(frame.get("type")))
            {
                bids.clear();
                asks.clear();
            }
            else
            {
                assertEquals(seq + 1, frameSeq, "book.1 is contiguous");
            }
            merge(bids, levels(frame.get("bids")));
            merge(asks, levels(frame.get("asks")));
            seq = frameSeq;
            assertEquals(number(frame, "checksum"), checksum(), "the checksum at seq " + seq);
        }

        private static void merge(final TreeMap<Long, Long> side, final TreeMap<Long, Long> changes)
        {
            changes.forEach((price, qty) ->
            {
                if (qty == 0)
                {
                    side.remove(price);
                }
                else
                {
                    side.put(price, qty);
                }
            });
        }

        long checksum()
        {
            final StringBuilder text = new StringBuilder();
            append(text, bids.descendingMap());
            text.append('|');
            append(text, asks);
            final CRC32 crc = new CRC32();
            crc.update(text.toString().getBytes(StandardCharsets.US_ASCII));
            return crc.getValue();
        }

        private static void append(final StringBuilder text, final Map<Long, Long> bestFirst)
        {
            int n = 0;
            for (final Map.Entry<Long, Long> level : bestFirst.entrySet())
            {
                if (n++ == 25)
                {
                    break;
                }
                text.append(n == 1 ? "" : ",").append(level.getKey()).append(':').append(level.getValue());
            }
        }
    }
}
