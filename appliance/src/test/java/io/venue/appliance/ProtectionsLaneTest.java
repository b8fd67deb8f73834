package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.engine.Engine;
import io.venue.entry.protect.ProtectionCommands;
import io.venue.entry.protect.ProtectionText;
import io.venue.engine.EventSink;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import io.venue.testing.ChildJvm;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.bsltcp.BslTcpClient;
import io.venue.transport.bsltcp.ClientMessages;
import io.venue.transport.http.JsonReader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The market maker's protections on a running appliance over loopback (docs/API.md "Protections", docs/BSL-TCP.md):
 * a session-key BSL TCP session whose socket closes, or whose process is killed with SIGKILL, has its orders swept
 * after the grace window; a reconnect within the grace keeps them; a wallet session is not swept until the explicit
 * endpoint arms it; the dead-man timer is renewed and fires; a deadline that passed while the appliance was down fires
 * at the restart; cancel-all answers its count; and a replay of the journal writes the event journal byte for byte.
 * The assertions are about what happened, never how fast: each waits for a state up to a generous deadline.
 */
class ProtectionsLaneTest
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
    private Map<String, String> settings = Map.of();
    private Address operator;

    private void start(final Map<String, String> settings) throws Exception
    {
        this.settings = settings;
        appliance = LaneTestAppliance.start(folder, folder, "http,bsl-tcp", settings, "protection.tick.ms", "10");
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
        ChildJvm.stopAll();
    }

    private BslTcpClient sessionKeySession(final SvcRequestSigner key) throws Exception
    {
        final BslTcpClient client = BslTcpClient.connect("127.0.0.1", appliance.bslTcpPort(), WAIT_MS);
        clients.add(client);
        client.send(ClientMessages.sessionKeyLogin(key, ++svcNonce, System.currentTimeMillis(), true));
        final BslTcpClient.Received accepted = client.readSkippingHeartbeats(WAIT_MS);
        assertEquals("LoginAccepted", accepted.type(), accepted.toString());
        return client;
    }

    private BslTcpClient walletSession() throws Exception
    {
        final BslTcpClient client = BslTcpClient.connect("127.0.0.1", appliance.bslTcpPort(), WAIT_MS);
        clients.add(client);
        client.send(ClientMessages.walletLogin(new Secp256k1Signer(trader), trader.address(), ++svcNonce,
            System.currentTimeMillis(), DEMO_CHAIN_ID, DEMO_CONTRACT, true));
        final BslTcpClient.Received accepted = client.readSkippingHeartbeats(WAIT_MS);
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

    /** Rests {@code count} bids over the session; their order ids. */
    private List<String> rest(final BslTcpClient client, final long seq, final int count) throws Exception
    {
        final List<SignedAction> bids = new ArrayList<>();
        final List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final SignedAction bid = order(bid((30_000 + 10 * seq + i) * UNIT));
            bids.add(bid);
            ids.add(Hex.to0x(signer.digestV2(bid.payload())));
        }
        client.send(ClientMessages.orders(seq, CompactOrders.encode(SPOT_MARKET, bids)));
        final BslTcpClient.Received answers = client.readSkippingHeartbeats(WAIT_MS);
        assertEquals(count, answers.get("accepted"), answers.toString());
        return ids;
    }

    /** Rests one bid over HTTP; its order id. */
    private String restOverHttp(final long price) throws Exception
    {
        final SignedAction signed = order(bid(price * UNIT));
        final HttpResponse<String> placed = http.post("/api/v1/trading/actions",
            CanonicalJson.signedActionBody(signed));
        assertEquals(200, placed.statusCode(), placed.body());
        return Hex.to0x(signer.digestV2(signed.payload()));
    }

    private String status(final String orderId) throws Exception
    {
        return field(http.get("/api/v1/trading/orders/" + orderId).body(), "status");
    }

    /** Waits until the order's status is no longer {@code from}; the status it then has. */
    private String awaitStatusOtherThan(final String orderId, final String from) throws Exception
    {
        final long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        String status = status(orderId);
        while (from.equals(status) && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
            status = status(orderId);
        }
        return status;
    }

    private HttpResponse<String> protection(final SvcRequestSigner key, final String route, final String body)
        throws Exception
    {
        return http.svcPost(key, ++svcNonce, route, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    @Test
    void aSessionKeySessionWhoseSocketClosesIsSweptAfterTheGraceAndAReconnectKeepsTheOrders() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "2000"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final BslTcpClient first = sessionKeySession(mm);
        final String sessions = http.get("/api/v1/bsl/sessions").body();
        assertTrue(sessions.contains("\"cancelOnDisconnect\":true"), sessions);
        assertTrue(sessions.contains("\"cancelOnDisconnectGraceMs\":2000"), sessions);
        final List<String> kept = rest(first, 1, 2);
        first.close();
        // the close first (a reconnect the lane journals before it keeps the orders too: ProtectionsTest), then the
        // same credential again within the grace: the orders stay past it
        assertEquals("{\"ok\":true,\"sessions\":[]}", http.awaitNoBslSessions(WAIT_MS));
        final BslTcpClient second = sessionKeySession(mm);
        Thread.sleep(2_500);
        assertEquals("resting", status(kept.get(0)));
        assertEquals("resting", status(kept.get(1)));

        final List<String> swept = rest(second, 1, 1);
        second.close();
        assertEquals("cancelled_disconnect", awaitStatusOtherThan(swept.get(0), "resting"));
        assertEquals("cancelled_disconnect", status(kept.get(0)), "the account's every order is swept");
        assertEquals("cancelled_disconnect", status(kept.get(1)));
    }

    @Test
    void aSessionKeyClientKilledWithSigkillIsSwept() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "200"));
        final VenueHttp.Credential credential = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL,
            Scope.QUOTE);
        final ChildJvm child = ChildJvm.start(BslSessionChild.class, Integer.toString(appliance.bslTcpPort()),
            credential.apiKeyId(), credential.apiSecret(), credential.apiPassphrase(), Hex.toHex(trader.privateKey()),
            Long.toString(nonce++), Long.toString(31_000 * UNIT));
        final String[] placed = child.awaitLine("ORDER ", 60).split(" ");
        assertEquals("1", placed[2], String.join("\n", child.lines));
        assertEquals("resting", status(placed[1]));
        child.process.destroyForcibly();
        child.process.waitFor();
        assertEquals("cancelled_disconnect", awaitStatusOtherThan(placed[1], "resting"));
    }

    @Test
    void aWalletSessionIsNotSweptUntilTheEndpointArmsIt() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "100"));
        final SvcRequestSigner agent = http.agentCredential(trader, nonce++, AgentKind.API, Scope.CANCEL);
        final BslTcpClient first = walletSession();
        final String sessions = http.get("/api/v1/bsl/sessions").body();
        assertTrue(sessions.contains("\"cancelOnDisconnect\":false"), sessions);
        final String unswept = rest(first, 1, 1).get(0);
        first.close();
        Thread.sleep(1_000);
        assertEquals("resting", status(unswept), "no automatic sweep for a wallet session");

        final HttpResponse<String> armed = protection(agent, "/api/v1/protection/cancel-on-disconnect",
            "{\"armed\":true}");
        assertEquals(200, armed.statusCode(), armed.body());
        assertEquals("ARMED", field(armed.body(), "action"), armed.body());
        final HttpResponse<String> bad = protection(agent, "/api/v1/protection/cancel-on-disconnect",
            "{\"armed\":\"yes\"}");
        assertEquals(400, bad.statusCode(), bad.body());

        final BslTcpClient second = walletSession();
        rest(second, 1, 1);
        second.close();
        assertEquals("cancelled_disconnect", awaitStatusOtherThan(unswept, "resting"));

        final HttpResponse<String> disarmed = protection(agent, "/api/v1/protection/cancel-on-disconnect",
            "{\"armed\":false}");
        assertEquals("DISARMED", field(disarmed.body(), "action"), disarmed.body());
        final HttpResponse<String> nothing = protection(agent, "/api/v1/protection/cancel-on-disconnect",
            "{\"armed\":false}");
        assertEquals(404, nothing.statusCode(), nothing.body());
    }

    /** A wallet-signed protection body (docs/API.md, "Protections"): the value fields, then the signed ones. */
    private static String signedBody(final Secp256k1KeyPair key, final Address account, final String values,
        final String text, final long walletNonce, final long timestampMs)
    {
        final byte[] signature = new Secp256k1Signer(key).sign(Eip191.personalHash(text), PreimageMode.RAW);
        return "{" + values + ",\"account\":\"" + account + "\",\"nonce\":" + walletNonce + ",\"timestampMs\":" +
            timestampMs + ",\"signature\":\"" + Hex.to0x(signature) + "\"}";
    }

    private HttpResponse<String> post(final String route, final String body) throws Exception
    {
        return http.post(route, body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Spec 4.3: the protection routes take the account's own signature as well as an agent's machine headers. Accepted
     * (and it acts: the timer fires), refused for another signer, a body changed after signing, a replay and a stale
     * text.
     */
    @Test
    void theProtectionRoutesTakeTheAccountsOwnSignature() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "100"));
        final Address account = trader.address();
        final long now = System.currentTimeMillis();
        final String deadManRoute = "/api/v1/protection/dead-man";
        final String values = "\"countdownMs\":1000,\"market\":" + SPOT_MARKET;
        final String text = ProtectionText.deadMan(account, SPOT_MARKET, 1_000, 1, now, DEMO_CHAIN_ID, DEMO_CONTRACT);
        assertEquals("venue protection\nroute:dead-man\naccount:" + account + "\nmarket:" + SPOT_MARKET +
            "\ncountdownMs:1000\nnonce:1\ntimestampMs:" + now + "\nchainId:" + DEMO_CHAIN_ID +
            "\nverifyingContract:" + DEMO_CONTRACT, text);

        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> wrongSigner = post(deadManRoute, signedBody(stranger, account, values, text, 1,
            now));
        assertEquals(401, wrongSigner.statusCode(), wrongSigner.body());
        assertEquals("UNAUTHENTICATED", field(wrongSigner.body(), "code"), wrongSigner.body());
        final HttpResponse<String> changed = post(deadManRoute, signedBody(trader, account,
            "\"countdownMs\":600000,\"market\":" + SPOT_MARKET, text, 1, now));
        assertEquals(401, changed.statusCode(), "the signature binds the values: " + changed.body());
        final long old = now - 60_000;
        final HttpResponse<String> stale = post(deadManRoute, signedBody(trader, account, values,
            ProtectionText.deadMan(account, SPOT_MARKET, 1_000, 2, old, DEMO_CHAIN_ID, DEMO_CONTRACT), 2, old));
        assertEquals(401, stale.statusCode(), stale.body());
        assertEquals("SKEW", field(stale.body(), "code"), stale.body());

        final String covered = restOverHttp(31_000);
        final String good = signedBody(trader, account, values, text, 1, now);
        final HttpResponse<String> armed = post(deadManRoute, good);
        assertEquals(200, armed.statusCode(), armed.body());
        assertEquals("ARMED", field(armed.body(), "action"), armed.body());
        assertEquals(account.toString(), field(armed.body(), "account"), armed.body());
        final HttpResponse<String> replayed = post(deadManRoute, good);
        assertEquals(409, replayed.statusCode(), replayed.body());
        assertEquals("NONCE_REPLAYED", field(replayed.body(), "code"), replayed.body());
        assertEquals("cancelled_dead_man", awaitStatusOtherThan(covered, "resting"), "the signed arm took effect");

        // the explicit cancel-on-disconnect, armed by the account's signature, sweeps a wallet session that ends
        final long then = System.currentTimeMillis();
        final HttpResponse<String> cod = post("/api/v1/protection/cancel-on-disconnect", signedBody(trader, account,
            "\"armed\":true", ProtectionText.cancelOnDisconnect(account, ProtectionCommands.ALL_MARKETS, true, 3,
                then, DEMO_CHAIN_ID, DEMO_CONTRACT), 3, then));
        assertEquals(200, cod.statusCode(), cod.body());
        assertEquals("ARMED", field(cod.body(), "action"), cod.body());
        final BslTcpClient session = walletSession();
        final String swept = rest(session, 1, 1).get(0);
        session.close();
        assertEquals("cancelled_disconnect", awaitStatusOtherThan(swept, "resting"));
    }

    /**
     * The private executions read says why each of the account's orders ended: a client's cancel, a dead-man timer, a
     * session's cancel-on-disconnect and a cancel-all (each reason of the journal is in ExecutionHistoryTest).
     */
    @Test
    void theExecutionsReadSaysWhyEachOrderEnded() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "100"));
        final SvcRequestSigner agent = http.agentCredential(trader, nonce++, AgentKind.API, Scope.CANCEL);
        final String byClient = restOverHttp(31_000);
        final HttpResponse<String> cancelled = http.post("/api/v1/trading/actions", VenueHttp.body(trader,
            trader.address(), nonce++, new Cancel(OrderId.of(byClient)), PreimageMode.RAW));
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertEquals("cancelled", status(byClient));

        final String byDeadMan = restOverHttp(31_001);
        assertEquals(200, protection(agent, "/api/v1/protection/dead-man", "{\"countdownMs\":1000}").statusCode());
        assertEquals("cancelled_dead_man", awaitStatusOtherThan(byDeadMan, "resting"));

        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final BslTcpClient session = sessionKeySession(mm);
        final String byDisconnect = rest(session, 1, 1).get(0);
        session.close();
        assertEquals("cancelled_disconnect", awaitStatusOtherThan(byDisconnect, "resting"));

        final String byCancelAll = restOverHttp(31_002);
        final HttpResponse<String> all = http.post("/api/v1/trading/cancel-all",
            VenueHttp.body(trader, trader.address(), nonce++, new CancelAll(CancelAll.ALL_MARKETS), PreimageMode.RAW));
        assertEquals("1", field(all.body(), "cancelled"), all.body());

        final String token = PrivateReadsTest.token(http, trader);
        final HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            appliance.baseUrl() + "/api/v1/bsl/accounts/" + trader.address() + "/executions"))
            .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode(), page.body());
        final Map<String, String> reasons = new HashMap<>();
        for (final Object entry : (List<?>)((Map<?, ?>)JsonReader.read(page.body().getBytes(StandardCharsets.UTF_8)))
            .get("done"))
        {
            final Map<?, ?> done = (Map<?, ?>)entry;
            reasons.put((String)done.get("orderId"), (String)done.get("reason"));
        }
        assertEquals("cancelled", reasons.get(byClient), page.body());
        assertEquals("cancelled_dead_man", reasons.get(byDeadMan), page.body());
        assertEquals("cancelled_disconnect", reasons.get(byDisconnect), page.body());
        assertEquals("cancelled_all", reasons.get(byCancelAll), page.body());
    }

    @Test
    void aBslSessionArmsItsDeadManTimerAndItsOwnCancelOnDisconnect() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "100"));
        final BslTcpClient first = walletSession();
        final String covered = rest(first, 1, 1).get(0);
        first.send(ClientMessages.deadMan(1, SPOT_MARKET, 10));
        final BslTcpClient.Received tooShort = first.readSkippingHeartbeats(WAIT_MS);
        assertEquals("ProtectionAck", tooShort.type(), tooShort.toString());
        assertEquals("OUT_OF_BOUNDS", tooShort.get("result"), tooShort.toString());
        assertEquals(-1L, tooShort.get("sequence"), "not journaled");

        first.send(ClientMessages.deadMan(2, SPOT_MARKET, 2_000));
        final BslTcpClient.Received armed = first.readSkippingHeartbeats(WAIT_MS);
        assertEquals("ARMED", armed.get("result"), armed.toString());
        assertEquals(2L, armed.get("requestId"));
        assertEquals(1L, armed.lastProcessedSeq());
        Thread.sleep(1_000);
        first.send(ClientMessages.deadMan(3, SPOT_MARKET, 2_000));
        final BslTcpClient.Received renewed = first.readSkippingHeartbeats(WAIT_MS);
        assertEquals("RENEWED", renewed.get("result"), renewed.toString());
        assertTrue((Long)renewed.get("deadlineMs") > (Long)armed.get("deadlineMs"), renewed.toString());
        assertEquals("resting", status(covered));
        assertEquals("cancelled_dead_man", awaitStatusOtherThan(covered, "resting"));

        final BslTcpClient second = walletSession();
        second.send(ClientMessages.cancelOnDisconnect(4, -1, true));
        final BslTcpClient.Received cod = second.readSkippingHeartbeats(WAIT_MS);
        assertEquals("ARMED", cod.get("result"), cod.toString());
        final String swept = rest(second, 1, 1).get(0);
        second.close();
        assertEquals("cancelled_disconnect", awaitStatusOtherThan(swept, "resting"));
    }

    @Test
    void theDeadManTimerIsRenewedThenFiresAndCancelAllAnswersItsCount() throws Exception
    {
        start(Map.of());
        final SvcRequestSigner agent = http.agentCredential(trader, nonce++, AgentKind.API, Scope.CANCEL);
        final HttpResponse<String> tooShort = protection(agent, "/api/v1/protection/dead-man",
            "{\"countdownMs\":500}");
        assertEquals(400, tooShort.statusCode(), tooShort.body());

        final String covered = restOverHttp(32_000);
        final HttpResponse<String> armed = protection(agent, "/api/v1/protection/dead-man",
            "{\"countdownMs\":3000,\"market\":" + SPOT_MARKET + "}");
        assertEquals(200, armed.statusCode(), armed.body());
        assertEquals("ARMED", field(armed.body(), "action"), armed.body());
        long deadline = Long.parseLong(field(armed.body(), "deadlineMs"));
        for (int renewal = 0; renewal < 3; renewal++)
        {
            Thread.sleep(1_000);
            final HttpResponse<String> renewed = protection(agent, "/api/v1/protection/dead-man",
                "{\"countdownMs\":3000,\"market\":" + SPOT_MARKET + "}");
            assertEquals("RENEWED", field(renewed.body(), "action"), renewed.body());
            final long pushed = Long.parseLong(field(renewed.body(), "deadlineMs"));
            assertTrue(pushed > deadline, renewed.body());
            deadline = pushed;
            assertEquals("resting", status(covered), "renewed before its deadline");
        }
        assertEquals("cancelled_dead_man", awaitStatusOtherThan(covered, "resting"));
        // it disarmed when it fired
        assertEquals(404, protection(agent, "/api/v1/protection/dead-man", "{\"countdownMs\":0,\"market\":" +
            SPOT_MARKET + "}").statusCode());

        final List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            ids.add(restOverHttp(33_000 + i));
        }
        final HttpResponse<String> notCancelAll = http.post("/api/v1/trading/cancel-all",
            VenueHttp.body(trader, trader.address(), nonce++, bid(UNIT), PreimageMode.RAW));
        assertEquals(400, notCancelAll.statusCode(), notCancelAll.body());
        nonce--;
        final HttpResponse<String> all = http.post("/api/v1/trading/cancel-all",
            VenueHttp.body(trader, trader.address(), nonce++, new CancelAll(CancelAll.ALL_MARKETS), PreimageMode.RAW));
        assertEquals(200, all.statusCode(), all.body());
        assertEquals("3", field(all.body(), "cancelled"), all.body());
        for (final String id : ids)
        {
            assertEquals("cancelled_all", status(id));
        }
    }

    @Test
    void aDeadlinePassedDuringARestartFiresAtTheRestartAndTheJournalReplays() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "300"));
        final SvcRequestSigner agent = http.agentCredential(trader, nonce++, AgentKind.API, Scope.CANCEL);
        final String first = restOverHttp(34_000);
        final String second = restOverHttp(34_001);
        final HttpResponse<String> unknownMarket = protection(agent, "/api/v1/protection/dead-man",
            "{\"countdownMs\":1000,\"market\":" + (SPOT_MARKET + 1_000) + "}");
        assertEquals(200, unknownMarket.statusCode(), unknownMarket.body());
        final HttpResponse<String> armed = protection(agent, "/api/v1/protection/dead-man", "{\"countdownMs\":1000}");
        assertEquals("ARMED", field(armed.body(), "action"), armed.body());
        final long deadline = Long.parseLong(field(armed.body(), "deadlineMs"));

        // the timer outlives the node: its deadline passes while the node is down
        appliance.close();
        appliance = null;
        while (System.currentTimeMillis() <= deadline + 200)
        {
            Thread.sleep(50);
        }
        start(settings);
        assertEquals("cancelled_dead_man", awaitStatusOtherThan(first, "resting"));
        assertEquals("cancelled_dead_man", status(second));
        operator = VenueHttp.key(appliance.operatorKeyFile()).address();
        appliance.close();
        appliance = null;

        assertReplaysByteForByte();
    }

    @Test
    void aSessionKeySessionOpenWhenTheNodeStopsIsSweptAfterItsRestart() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "300"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final BslTcpClient session = sessionKeySession(mm);
        final String order = rest(session, 1, 1).get(0);
        // the node stops with the session logged in: its close may or may not reach the journal before the end
        appliance.close();
        appliance = null;
        start(settings);
        // either way the restart ends it (a SessionsReset when the journal left it open) and its grace runs out
        assertEquals("cancelled_disconnect", awaitStatusOtherThan(order, "resting"));
        assertEquals("{\"ok\":true,\"sessions\":[]}", http.get("/api/v1/bsl/sessions").body());
    }

    /**
     * The command journal through a fresh engine of the node's configuration writes the event journal's records, byte
     * for byte: every protective cancel among them.
     */
    private void assertReplaysByteForByte() throws Exception
    {
        final ApplianceContext context = new ApplianceContext().dataDir(folder).operator(operator);
        final List<byte[]> replayed = new ArrayList<>();
        final EventSink sink = new EventSink()
        {
            public void onEvent(final DirectBuffer buffer, final int offset, final int length)
            {
                final byte[] event = new byte[length];
                buffer.getBytes(offset, event);
                replayed.add(event);
            }

            public void onCommandEnd()
            {
            }
        };
        final Map<String, Integer> reasons = new HashMap<>();
        try (Journal commands = Journal.openReadOnly(folder.resolve("journal").resolve("commands"));
            Journal events = Journal.openReadOnly(folder.resolve("journal").resolve("events"));
            JournalTailer commandTail = commands.tailer(); JournalTailer eventTail = events.tailer();
            Engine engine = new Engine(context.engineConfig(), sink))
        {
            while (commandTail.read((buffer, offset, length, index) -> engine.onCommand(buffer, offset, length)))
            {
                // every command
            }
            final List<byte[]> journaled = new ArrayList<>();
            while (eventTail.read((buffer, offset, length, index) ->
            {
                final byte[] event = new byte[length];
                buffer.getBytes(offset, event);
                journaled.add(event);
            }))
            {
                // every event
            }
            assertEquals(journaled.size(), replayed.size());
            final RecordPrinter printer = new RecordPrinter();
            for (int i = 0; i < journaled.size(); i++)
            {
                assertArrayEquals(journaled.get(i), replayed.get(i), "event " + i);
                final String line = printer.print(new UnsafeBuffer(journaled.get(i)), 0,
                    journaled.get(i).length);
                if (line.contains("\"type\":\"OrderDone\""))
                {
                    reasons.merge(field(line, "reason"), 1, Integer::sum);
                }
            }
        }
        assertEquals(2, reasons.getOrDefault("CANCELLED_DEAD_MAN", 0), reasons.toString());
    }
}
