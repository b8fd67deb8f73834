package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Cancel;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.bsltcp.sbe.LoginKind;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.bsltcp.BslTcpClient;
import io.venue.transport.bsltcp.ClientMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLHandshakeException;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The BSL Direct TCP lane of a running appliance over loopback sockets (docs/BSL-TCP.md): both kinds of login and their
 * refusals, orders and cancels with their answers in both result modes and the budget view, lastProcessedSeq, the MM
 * windows exactly as on the HTTP compact route, heartbeats and deadlines, and fuzzed frames answered by a documented
 * Error and a close without any change of state.
 */
class BslTcpLaneTest
{
    private static final int WAIT_MS = 20_000;

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair trader;
    private ActionSigner signer;
    private long nonce;
    private long svcNonce;
    private final List<BslTcpClient> clients = new ArrayList<>();

    private void start(final Map<String, String> settings) throws Exception
    {
        appliance = LaneTestAppliance.start(folder, folder, "http,bsl-tcp", settings);
        http = new VenueHttp(appliance.baseUrl());
        trader = VenueHttp.key(appliance.demoAccountKeyFile());
        signer = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT, trader);
    }

    @AfterEach
    void stop() throws Exception
    {
        for (final BslTcpClient client : clients)
        {
            client.close();
        }
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private BslTcpClient connect() throws Exception
    {
        final BslTcpClient client = BslTcpClient.connect("127.0.0.1", appliance.bslTcpPort(), WAIT_MS);
        clients.add(client);
        return client;
    }

    private BslTcpClient.Received login(final BslTcpClient client, final SvcRequestSigner key, final boolean detailed)
        throws Exception
    {
        client.send(ClientMessages.sessionKeyLogin(key, ++svcNonce, System.currentTimeMillis(), detailed));
        return client.readSkippingHeartbeats(WAIT_MS);
    }

    private BslTcpClient session(final SvcRequestSigner key, final boolean detailed) throws Exception
    {
        final BslTcpClient client = connect();
        final BslTcpClient.Received accepted = login(client, key, detailed);
        assertEquals("LoginAccepted", accepted.type(), accepted.toString());
        return client;
    }

    private SignedAction order(final Action action)
    {
        return signer.sign(new ActionPayload(trader.address(), nonce++, null, System.currentTimeMillis(), action),
            PreimageMode.RAW);
    }

    private static SpotPlaceOrder bid(final long price)
    {
        return new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, price, 10_000, null, TimeInForce.GTC, false, false, -1);
    }

    private static BslTcpClient.Received send(final BslTcpClient client, final long seq,
        final List<SignedAction> orders) throws Exception
    {
        client.send(ClientMessages.orders(seq, CompactOrders.encode(SPOT_MARKET, orders)));
        return client.readSkippingHeartbeats(WAIT_MS);
    }

    private long journaled() throws Exception
    {
        final String metrics = http.get("/api/v1/admin/metrics").body();
        final Matcher matcher = Pattern.compile("venue_sequence\\{stage=\"journaled\"} ([0-9]+)").matcher(metrics);
        assertTrue(matcher.find(), metrics);
        return Long.parseLong(matcher.group(1));
    }

    /** The journaled sequence once it reached {@code expected} (refusals are journaled behind the answer), or at the
     * deadline. */
    private long awaitJournaled(final long expected) throws Exception
    {
        final long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        long journaled = journaled();
        while (journaled < expected && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            journaled = journaled();
        }
        return journaled;
    }

    /** With bsl.tcp.tls the lane speaks TLS with the node's certificate; plain bytes get no session, only a close. */
    @Test
    void theLaneSpeaksTlsWithTheNodesCertificate() throws Exception
    {
        final Path tls = Files.createDirectories(folder.resolve("tls"));
        final X509Certificate certificate = TlsCertificates.make(tls, "venue.test");
        start(Map.of("http.tls.cert.file", tls.resolve("venue.test.cert.pem").toString(),
            "http.tls.key.file", tls.resolve("venue.test.key.pem").toString(), "bsl.tcp.tls", "true"));
        http = new VenueHttp(appliance.baseUrl(),
            HttpClient.newBuilder().sslContext(TlsCertificates.trusting(certificate)).build());
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);

        final BslTcpClient secured = BslTcpClient.connect("127.0.0.1", appliance.bslTcpPort(), WAIT_MS,
            TlsCertificates.trusting(certificate));
        clients.add(secured);
        assertEquals("LoginAccepted", login(secured, mm, true).type());
        final BslTcpClient.Received placed = send(secured, 1, List.of(order(bid(40_000 * UNIT))));
        assertEquals(1, placed.get("accepted"), placed.toString());

        // a client that does not trust the certificate fails its handshake
        assertThrows(SSLHandshakeException.class, () -> BslTcpClient.connect("127.0.0.1", appliance.bslTcpPort(),
            WAIT_MS, TlsCertificates.trusting(TlsCertificates.make(tls, "other.test"))));
        // a plain-TCP login is no TLS record: the handshake fails and the connection closes, nothing answered
        try (Socket plain = new Socket("127.0.0.1", appliance.bslTcpPort()))
        {
            plain.setSoTimeout(WAIT_MS);
            plain.getOutputStream().write(ClientMessages.sessionKeyLogin(mm, ++svcNonce, System.currentTimeMillis(),
                true));
            final byte[] answer = plain.getInputStream().readAllBytes();
            assertTrue(answer.length == 0 || answer[0] == 0x15, "no BSL answer, at most a TLS alert: " +
                Hex.to0x(answer));
        }
        catch (final SocketException reset)
        {
            // closed with a reset: nothing answered either
        }
        final String bundle = appliance.connectivityJson();
        assertTrue(bundle.substring(bundle.indexOf("\"bslTcp\"")).contains("\"tls\":true"), bundle);
    }

    @Test
    void aSessionKeySessionEntersOrdersAndCancelsWithTheirAnswers() throws Exception
    {
        start(Map.of());
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        assertEquals("{\"ok\":true,\"sessions\":[]}", http.get("/api/v1/bsl/sessions").body());
        final BslTcpClient client = connect();
        final BslTcpClient.Received accepted = login(client, mm, true);
        assertEquals("LoginAccepted", accepted.type(), accepted.toString());
        assertEquals(trader.address().toString(), accepted.get("account"));
        assertEquals(0L, accepted.lastProcessedSeq());

        // the sessions route lists it with its account, credential and kind
        final String sessions = http.get("/api/v1/bsl/sessions").body();
        assertEquals(trader.address().toString(), field(sessions, "account"), sessions);
        assertEquals("session-key", field(sessions, "kind"), sessions);
        assertEquals("bsl-tcp", field(sessions, "lane"), sessions);

        final List<SignedAction> bids = List.of(order(bid(40_000 * UNIT)), order(bid(40_001 * UNIT)),
            order(bid(40_002 * UNIT)));
        final BslTcpClient.Received placed = send(client, 1, bids);
        assertEquals("OrderAnswers", placed.type(), placed.toString());
        assertEquals(1L, placed.get("seq"));
        assertEquals(1L, placed.lastProcessedSeq());
        assertEquals(3, placed.get("accepted"));
        assertEquals(3L, placed.get("usedActions"));
        assertEquals(3997L, placed.get("remainingActions"));
        assertEquals("DETAILED", placed.get("resultMode"));
        assertEquals(3, placed.results().size(), placed.toString());
        final String firstId = Hex.to0x(signer.digestV2(bids.get(0).payload()));
        assertEquals(firstId, placed.results().get(0).get("orderId"), placed.toString());
        assertEquals("ACCEPTED", placed.results().get(0).get("outcome"));
        assertEquals("resting", field(http.get("/api/v1/trading/orders/" + firstId).body(), "status"));

        // a cancel costs nothing against the action budget; the second cancel of the same order finds it gone
        final BslTcpClient.Received cancelled = send(client, 2, List.of(order(new Cancel(OrderId.of(firstId))),
            order(new Cancel(OrderId.of(firstId)))));
        assertEquals(2L, cancelled.lastProcessedSeq(), cancelled.toString());
        assertEquals(1, cancelled.get("accepted"), cancelled.toString());
        assertEquals(3L, cancelled.get("usedActions"), cancelled.toString());
        assertEquals("UNKNOWN_ORDER", cancelled.results().get(1).get("code"), cancelled.toString());
        assertEquals("cancelled", field(http.get("/api/v1/trading/orders/" + firstId).body(), "status"));

        // an order of another account is refused whole, nothing charged; the session stays
        final Secp256k1KeyPair other = Secp256k1KeyPair.generate(new SecureRandom());
        final SignedAction others = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT, other)
            .sign(new ActionPayload(other.address(), 1, null, System.currentTimeMillis(), bid(40_000 * UNIT)),
                PreimageMode.RAW);
        final BslTcpClient.Received forbidden = send(client, 3, List.of(others));
        assertEquals("RequestRefused", forbidden.type(), forbidden.toString());
        assertEquals("FORBIDDEN", forbidden.get("code"));
        assertEquals("orders[0].account", forbidden.get("field"));
        assertEquals(3L, forbidden.lastProcessedSeq());
        assertEquals(3L, forbidden.get("usedActions"));

        // a seq out of order is a protocol error: Error, then the close
        client.send(ClientMessages.orders(7, CompactOrders.encode(SPOT_MARKET, List.of(order(bid(39_000 * UNIT))))));
        final BslTcpClient.Received error = client.readSkippingHeartbeats(WAIT_MS);
        assertEquals("Error", error.type(), error.toString());
        assertEquals("OUT_OF_SEQUENCE", error.get("code"));
        assertTrue(client.closedWithin(WAIT_MS));
        assertEquals("{\"ok\":true,\"sessions\":[]}", http.awaitNoBslSessions(WAIT_MS));
    }

    @Test
    void ackModeListsOnlyWhatWasNotAcceptedAndAWalletSessionWorksToo() throws Exception
    {
        start(Map.of());
        final BslTcpClient client = connect();
        client.send(ClientMessages.walletLogin(new Secp256k1Signer(trader), trader.address(), 1,
            System.currentTimeMillis(), DEMO_CHAIN_ID, DEMO_CONTRACT, false));
        final BslTcpClient.Received accepted = client.readSkippingHeartbeats(WAIT_MS);
        assertEquals("LoginAccepted", accepted.type(), accepted.toString());
        assertEquals("wallet", field(http.get("/api/v1/bsl/sessions").body(), "kind"));

        final SignedAction forged = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT,
            Secp256k1KeyPair.generate(new SecureRandom()))
            .sign(new ActionPayload(trader.address(), nonce++, null, System.currentTimeMillis(), bid(39_000 * UNIT)),
                PreimageMode.RAW);
        final BslTcpClient.Received mixed = send(client, 1, List.of(order(bid(38_000 * UNIT)), forged));
        assertEquals("OrderAnswers", mixed.type(), mixed.toString());
        assertEquals("ACK", mixed.get("resultMode"));
        assertEquals(1, mixed.get("accepted"));
        assertEquals(1, mixed.results().size(), mixed.toString());
        assertEquals(1, mixed.results().get(0).get("index"));
        assertEquals("REJECTED", mixed.results().get(0).get("outcome"));

        // the same login text a second time opens nothing
        final BslTcpClient again = connect();
        final long ts = System.currentTimeMillis();
        again.send(ClientMessages.walletLogin(new Secp256k1Signer(trader), trader.address(), 2, ts, DEMO_CHAIN_ID,
            DEMO_CONTRACT, false));
        assertEquals("LoginAccepted", again.readSkippingHeartbeats(WAIT_MS).type());
        final BslTcpClient replay = connect();
        replay.send(ClientMessages.walletLogin(new Secp256k1Signer(trader), trader.address(), 2, ts, DEMO_CHAIN_ID,
            DEMO_CONTRACT, false));
        final BslTcpClient.Received replayed = replay.readSkippingHeartbeats(WAIT_MS);
        assertEquals("LoginRejected", replayed.type(), replayed.toString());
        assertEquals("NONCE_REPLAYED", replayed.get("reason"));

        // logout: acknowledged, then closed
        client.send(ClientMessages.logout("done"));
        final BslTcpClient.Received logout = client.readSkippingHeartbeats(WAIT_MS);
        assertEquals("Logout", logout.type(), logout.toString());
        assertEquals(1L, logout.lastProcessedSeq());
        assertTrue(client.closedWithin(WAIT_MS));
    }

    @Test
    void loginsAreRefusedForABadCredentialOneWithoutMmScopeAndAnotherAccountsWallet() throws Exception
    {
        start(Map.of());
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final long before = journaled();

        final String apiKeyId = mm.sign(1, 1, "GET", "/", null, null).get("SVC-Key");
        final SvcRequestSigner wrong = SvcRequestSigner.hmac(apiKeyId, "sk_" + "0".repeat(64),
            "spp_" + "0".repeat(32));
        assertRejected(login(connect(), wrong, false), "UNAUTHENTICATED");

        final SvcRequestSigner api = http.agentCredential(trader, nonce++, AgentKind.API, Scope.QUOTE);
        final long afterAgent = awaitJournaled(before + 2);
        assertRejected(login(connect(), api, false), "SCOPE_DENIED");

        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        final BslTcpClient wallet = connect();
        wallet.send(ClientMessages.walletLogin(new Secp256k1Signer(stranger), trader.address(), 1,
            System.currentTimeMillis(), DEMO_CHAIN_ID, DEMO_CONTRACT, false));
        assertRejected(wallet.readSkippingHeartbeats(WAIT_MS), "UNAUTHENTICATED");

        // each refusal is journaled as a request refusal (for the operator), and nothing else is
        assertEquals(before + 2, afterAgent, "the first refusal and the second agent's creation");
        assertEquals(afterAgent + 2, awaitJournaled(afterAgent + 2), "the two refusals after it");
        for (final BslTcpClient client : clients)
        {
            assertTrue(client.closedWithin(WAIT_MS));
        }
    }

    private static void assertRejected(final BslTcpClient.Received received, final String reason)
    {
        assertEquals("LoginRejected", received.type(), received.toString());
        assertEquals(reason, received.get("reason"), received.toString());
    }

    @Test
    void theMmWindowsApplyAsOnTheHttpCompactRoute() throws Exception
    {
        start(Map.of("mm.account.actions", "3"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final BslTcpClient client = session(mm, false);
        final List<SignedAction> four = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            four.add(order(bid((40_000 + i) * UNIT)));
        }
        final BslTcpClient.Received tooLarge = send(client, 1, four);
        assertEquals("RequestRefused", tooLarge.type(), tooLarge.toString());
        assertEquals("EXCEEDS_WINDOW", tooLarge.get("code"));
        assertEquals(0L, tooLarge.get("usedActions"), "nothing charged: " + tooLarge);

        final BslTcpClient.Received three = send(client, 2, four.subList(0, 3));
        assertEquals("OrderAnswers", three.type(), three.toString());
        assertEquals(3L, three.get("usedActions"));
        assertEquals(0L, three.get("remainingActions"));

        final BslTcpClient.Received full = send(client, 3, List.of(order(bid(39_000 * UNIT))));
        assertEquals("RequestRefused", full.type(), full.toString());
        assertEquals("RATE_LIMITED", full.get("code"));
        assertEquals("account", full.get("field"));
        assertEquals(3L, full.get("usedActions"));
        assertTrue((Long)full.get("retryAfterMs") > 0, full.toString());

        // cancels count in their own scope: still taken
        final String firstId = Hex.to0x(signer.digestV2(four.get(0).payload()));
        final BslTcpClient.Received cancel = send(client, 4, List.of(order(new Cancel(OrderId.of(firstId)))));
        assertEquals("OrderAnswers", cancel.type(), cancel.toString());
        assertEquals(1, cancel.get("accepted"), cancel.toString());
        assertEquals(4L, cancel.lastProcessedSeq());
    }

    @Test
    void aSilentPeerIsDisconnectedAndHeartbeatsFlow() throws Exception
    {
        start(Map.of("bsl.tcp.heartbeat.ms", "50", "bsl.tcp.login.timeout.ms", "200"));
        final BslTcpClient idle = connect();
        final BslTcpClient.Received timeout = idle.read(WAIT_MS);
        assertEquals("Error", timeout.type(), timeout.toString());
        assertEquals("LOGIN_TIMEOUT", timeout.get("code"));
        assertTrue(idle.closedWithin(WAIT_MS));

        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final BslTcpClient silent = session(mm, false);
        BslTcpClient.Received received = silent.read(WAIT_MS);
        assertEquals("Heartbeat", received.type(), "the server speaks when it has nothing to say");
        while (received.type().equals("Heartbeat"))
        {
            received = silent.read(WAIT_MS);
        }
        assertEquals("Error", received.type(), received.toString());
        assertEquals("HEARTBEAT_TIMEOUT", received.get("code"));
        assertTrue(silent.closedWithin(WAIT_MS));
    }

    @Test
    void fuzzedFramesGetADocumentedErrorAndACloseAndChangeNothing() throws Exception
    {
        start(Map.of("bsl.tcp.max.frame.bytes", "4096"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final byte[] orders = ClientMessages.orders(1, CompactOrders.encode(SPOT_MARKET,
            List.of(order(bid(40_000 * UNIT)))));
        final long before = journaled();
        final Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("FRAME_TOO_SHORT", le(3));
        cases.put("FRAME_TOO_LONG", le(4097));
        cases.put("UNKNOWN_TEMPLATE", withTemplate(orders, 42));
        cases.put("BAD_HEADER", withSchema(orders, 9));
        cases.put("MALFORMED", truncatedInFrame(orders, 30));
        cases.put("BYTES_AFTER_MESSAGE", withTrailingBytes(orders, 3));
        cases.put("ALREADY_LOGGED_IN", ClientMessages.sessionKeyLogin(mm, 1_000_000, System.currentTimeMillis(),
            false));
        final byte[] cutBody = CompactOrders.encode(SPOT_MARKET, List.of(order(bid(40_000 * UNIT))));
        cases.put("MALFORMED ", ClientMessages.orders(1, Arrays.copyOf(cutBody, cutBody.length - 5)));
        for (final Map.Entry<String, byte[]> fuzz : cases.entrySet())
        {
            final BslTcpClient client = session(mm, false);
            client.send(fuzz.getValue());
            final BslTcpClient.Received error = client.readSkippingHeartbeats(WAIT_MS);
            assertEquals("Error", error.type(), fuzz.getKey() + ": " + error);
            assertEquals(fuzz.getKey().trim(), error.get("code"), error.toString());
            assertTrue(client.closedWithin(WAIT_MS), fuzz.getKey());
        }
        // a frame cut short by the peer's close: nothing taken either
        final BslTcpClient cut = session(mm, false);
        cut.send(Arrays.copyOf(orders, orders.length - 10));
        cut.close();
        // before any login: anything but Login is refused
        final BslTcpClient early = connect();
        early.send(orders);
        final BslTcpClient.Received notLoggedIn = early.readSkippingHeartbeats(WAIT_MS);
        assertEquals("NOT_LOGGED_IN", notLoggedIn.get("code"), notLoggedIn.toString());
        assertTrue(early.closedWithin(WAIT_MS));
        // nothing but each session's SessionOpened and SessionClosed (the protections' record of it) was journaled
        final long sessions = 2L * (cases.size() + 1);
        assertEquals(before + sessions, awaitJournaled(before + sessions), "no order and no refusal was journaled");
        Thread.sleep(200);
        assertEquals(before + sessions, journaled(), "no order and no refusal was journaled");
        // and the node still serves: the same order on a good session is taken
        final BslTcpClient good = session(mm, false);
        client(good, orders);
    }

    private static void client(final BslTcpClient good, final byte[] orders) throws Exception
    {
        good.send(orders);
        final BslTcpClient.Received taken = good.readSkippingHeartbeats(WAIT_MS);
        assertEquals("OrderAnswers", taken.type(), taken.toString());
        assertEquals(1, taken.get("accepted"), taken.toString());
    }

    private static byte[] le(final int length)
    {
        return ByteBuffer.allocate(4 + Math.min(length, 64)).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array();
    }

    private static byte[] withTemplate(final byte[] frame, final int template)
    {
        final byte[] copy = frame.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putShort(4 + 2, (short)template);
        return copy;
    }

    private static byte[] withSchema(final byte[] frame, final int schema)
    {
        final byte[] copy = frame.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putShort(4 + 4, (short)schema);
        return copy;
    }

    /** The message cut to {@code length} bytes, its frame's length saying so: the var length runs past it. */
    private static byte[] truncatedInFrame(final byte[] frame, final int length)
    {
        final byte[] copy = Arrays.copyOf(frame, 4 + length);
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(0, length);
        return copy;
    }

    private static byte[] withTrailingBytes(final byte[] frame, final int extra)
    {
        final byte[] copy = Arrays.copyOf(frame, frame.length + extra);
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(0, frame.length - 4 + extra);
        return copy;
    }

    /**
     * bsl.tcp.max.sessions.per.address: the connection over the address's cap is sent Error TOO_MANY_SESSIONS and
     * closed as it opens (before any Login: nothing journaled), and the address gets its place back when one closes.
     */
    @Test
    void oneAddressHoldsAtMostItsCapOfConnections() throws Exception
    {
        // loopback is not exempt here (the other tests exempt it, as a load generator would be)
        start(Map.of("bsl.tcp.max.sessions.per.address", "2", "edge.ip.exempt", "10.9.9.9"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final BslTcpClient first = session(mm, false);
        final BslTcpClient second = connect();
        final long before = awaitJournaled(journaled());
        final BslTcpClient third = connect();
        final BslTcpClient.Received refused = third.read(WAIT_MS);
        assertEquals("Error", refused.type(), refused.toString());
        assertEquals("TOO_MANY_SESSIONS", refused.get("code"), refused.toString());
        assertTrue(String.valueOf(refused.get("message")).contains("bsl.tcp.max.sessions.per.address"),
            refused.toString());
        assertTrue(third.closedWithin(WAIT_MS));
        final String metrics = http.get("/api/v1/admin/metrics").body();
        assertTrue(metrics.contains("venue_bsltcp_address_refusals_total 1"), metrics);
        Thread.sleep(100);
        assertEquals(before, journaled(), "a refused connection journals nothing (no login work was spent)");
        // the two admitted ones still work, and a closed one gives its place back
        final BslTcpClient.Received accepted = login(second, mm, false);
        assertEquals("LoginAccepted", accepted.type(), accepted.toString());
        first.close();
        BslTcpClient fourth = null;
        final long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        while (fourth == null && System.nanoTime() < deadline)
        {
            // the server counts the close once it has seen it: until then the new connection may still be refused
            final BslTcpClient candidate = connect();
            try
            {
                final BslTcpClient.Received answer = login(candidate, mm, false);
                if (answer.type().equals("LoginAccepted"))
                {
                    fourth = candidate;
                    continue;
                }
                assertEquals("TOO_MANY_SESSIONS", answer.get("code"), answer.toString());
            }
            catch (final IOException refusedAndClosed)
            {
                // the Login met the refused connection's close (a reset, or the end of the stream)
            }
            Thread.sleep(20);
        }
        assertTrue(fourth != null, "a closed connection gives the address its place back");
    }

    @Test
    void theSchemasAndTheLaneAreNamedInTheConnectivityBundle() throws Exception
    {
        start(Map.of());
        final String bundle = http.get("/api/v1/bsl/connectivity").body();
        assertTrue(bundle.contains("\"bslTcp\""), bundle);
        assertEquals(Integer.toString(appliance.bslTcpPort()), field(bundle.substring(bundle.indexOf("\"bslTcp\"")),
            "port"), bundle);
        assertEquals("/api/v1/public/schemas", field(bundle, "schemasRoute"), bundle);
        final String index = http.get("/api/v1/public/schemas").body();
        assertTrue(index.contains("{\"name\":\"venue-bsl.xml\",\"schemaId\":4,\"version\":1,"), index);
        assertTrue(index.contains("{\"name\":\"venue-bsl-session.xml\",\"schemaId\":5,\"version\":2,"), index);
        final HttpResponse<String> schema = http.get("/api/v1/public/schemas/venue-bsl-session.xml");
        assertEquals(200, schema.statusCode());
        assertTrue(schema.body().contains("<sbe:message name=\"Login\" id=\"1\""), schema.body());
        assertEquals(404, http.get("/api/v1/public/schemas/nothing.xml").statusCode());
        // a login frame and an order frame as docs/BSL-TCP.md shows them
        final String login = ClientMessages.hexDump(ClientMessages.login(LoginKind.SESSION_KEY, false, (short)2, 1,
            1_700_000_000_000L, new byte[20], new byte[65], "spk_0123456789abcdef", "spp_" + "0".repeat(32),
            "c2lnbmF0dXJl"));
        assertTrue(login.startsWith("0000  ba 00 00 00 68 00 01 00 05 00 02 00 00 00 02 01"), login);
        // and the protections' messages of version 2
        assertTrue(schema.body().contains("<sbe:message name=\"DeadMan\" id=\"10\""), schema.body());
        assertTrue(ClientMessages.hexDump(ClientMessages.deadMan(1, 1, 30_000)).startsWith(
            "0000  1d 00 00 00 15 00 0a 00 05 00 02 00 01 00 00 00\n" +
            "0010  00 00 00 00 01 00 00 00 00 30 75 00 00 00 00 00"));
    }
}
