package io.venue.appliance;

import io.venue.action.SetFixOnboarding;
import io.venue.action.FixRateTier;
import io.venue.auth.AgentKind;
import io.venue.crypto.PreimageMode;
import io.venue.auth.Scope;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.Session;
import quickfix.field.BeginSeqNo;
import quickfix.field.ClOrdID;
import quickfix.field.EndSeqNo;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TestReqID;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.QuoteRequest;
import quickfix.fix44.ResendRequest;
import quickfix.fix44.TestRequest;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX 4.4 lane of a running appliance over loopback (docs/FIX.md), with QuickFIX/J initiators as the counterparty:
 * the logon and each of its refusals, spec 8.4's logon limit, Heartbeat and TestRequest, sequence numbers across
 * reconnects, a resend answered with a gap fill and the resend cap, the BusinessMessageReject of what the lane does not
 * take; and raw bytes that break the framing or the field rules, answered by a Logout or a Reject without a change of
 * state.
 */
class FixLaneTest
{
    private static final int WAIT_MS = 20_000;
    private static final String SOH = "\u0001";

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair trader;
    private Secp256k1KeyPair operator;
    private long operatorNonce;
    private long nonce;
    private int clientCount;
    private final List<QuickFixClient> clients = new ArrayList<>();

    private void start(final Map<String, String> settings) throws Exception
    {
        appliance = LaneTestAppliance.start(folder.resolve("node"), folder, "http,fix", settings);
        http = new VenueHttp(appliance.baseUrl());
        trader = VenueHttp.key(appliance.demoAccountKeyFile());
        operator = VenueHttp.key(appliance.operatorKeyFile());
        operatorNonce = 6;
    }

    @AfterEach
    void stop()
    {
        for (final QuickFixClient client : clients)
        {
            client.close();
        }
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private interface ThrowingSupplier
    {
        QuickFixClient get() throws Exception;
    }

    /** A credential of the trader; an institutional one onboarded for FIX (everything granted, a 5 s grace). */
    private VenueHttp.Credential credential(final AgentKind kind, final Scope... scopes) throws Exception
    {
        final VenueHttp.Credential credential = http.newCredential(trader, nonce++, kind, scopes);
        if (kind == AgentKind.INSTITUTIONAL)
        {
            http.onboardFix(operator, operatorNonce++, VenueHttp.fullFix(credential, 5_000));
        }
        return credential;
    }

    private QuickFixClient client(final VenueHttp.Credential credential, final String sub, final String secret,
        final String account, final String targetCompId, final Path store) throws Exception
    {
        final QuickFixClient client = new QuickFixClient(store, appliance.fixPort(), targetCompId, sub,
            credential.apiKeyId(), secret, credential.apiPassphrase(), account, "");
        clients.add(client);
        return client;
    }

    private QuickFixClient client(final VenueHttp.Credential credential, final String sub, final Path store)
        throws Exception
    {
        return client(credential, sub, credential.apiSecret(), trader.address().toString(), "VENUE", store);
    }

    private Path newStore() throws Exception
    {
        return Files.createDirectories(folder.resolve("client-" + ++clientCount));
    }

    private String metrics() throws Exception
    {
        return http.get("/api/v1/admin/metrics").body();
    }

    private static long metric(final String metrics, final String sample)
    {
        final Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(sample) + " ([0-9]+)$").matcher(metrics);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    private static boolean isLogout(final Message message)
    {
        return QuickFixClient.type(message).equals("5");
    }

    @Test
    void aCredentialLogsOnAndTheBundleAndSessionsRouteShowIt() throws Exception
    {
        start(Map.of());
        final String bundle = http.get("/api/v1/fix/connectivity").body();
        assertTrue(bundle.contains("\"fix\":{\"host\":\"127.0.0.1\",\"port\":" + appliance.fixPort()), bundle);
        assertTrue(bundle.contains("\"targetCompId\":\"VENUE\""), bundle);
        assertTrue(bundle.contains("\"targetSubIds\":\"order_entry,drop_copy\""), bundle);
        assertTrue(bundle.contains("\"resendMaxMessages\":10000"), bundle);
        assertTrue(bundle.contains("\"tls\":false"), bundle);

        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE, Scope.CANCEL);
        final QuickFixClient client = client(agent, "order_entry", newStore());
        client.awaitLogon(WAIT_MS);
        final String sessions = http.get("/api/v1/bsl/sessions").body();
        assertEquals("fix", field(sessions, "lane"), sessions);
        assertEquals("order_entry", field(sessions, "kind"), sessions);
        assertEquals(trader.address().toString(), field(sessions, "account"), sessions);
        assertEquals(agent.apiKeyId(), field(sessions, "apiKeyId"), sessions);

        // a TestRequest is answered by a Heartbeat naming it
        final TestRequest test = new TestRequest(new TestReqID("probe-1"));
        assertTrue(Session.sendToTarget(test, client.session().getSessionID()));
        final Message heartbeat = client.await(m -> QuickFixClient.type(m).equals("0") &&
            "probe-1".equals(QuickFixClient.get(m, 112)), WAIT_MS);
        assertEquals("VENUE", QuickFixClient.get(heartbeat, 49));

        client.logout();
        assertFalse(client.loggedOn());
        final String metrics = metrics();
        assertEquals(1, metric(metrics, "venue_fix_logons_accepted_total"), metrics);
        assertEquals("{\"ok\":true,\"sessions\":[]}", http.get("/api/v1/bsl/sessions").body());
    }

    /**
     * The onboarding record over HTTP: the operator's SetFixOnboarding on the admin route, read back on the operator's
     * route; what the parser or the engine refuses changes nothing.
     */
    @Test
    void theOperatorSetsAndReadsTheOnboardingRecordOverHttp() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.TRADE);
        final String route = "/api/v1/admin/fix/onboarding/" + agent.apiKeyId();
        final HttpResponse<String> none = http.get(route);
        assertEquals(404, none.statusCode(), none.body());
        assertTrue(none.body().contains("NOT_ONBOARDED"), none.body());
        assertEquals(400, http.get("/api/v1/admin/fix/onboarding/spk_XYZ").statusCode());

        final SetFixOnboarding record = new SetFixOnboarding(agent.apiKeyId(), true, true, List.of(1L, 2L),
            FixRateTier.PREMIUM, true, 7_000);
        final HttpResponse<String> set = http.post("/api/v1/admin/actions",
            VenueHttp.body(operator, operator.address(), operatorNonce++, record, PreimageMode.PERSONAL));
        assertEquals(200, set.statusCode(), set.body());
        final HttpResponse<String> read = http.get(route);
        assertEquals(200, read.statusCode(), read.body());
        assertEquals("{\"ok\":true,\"credentialId\":\"" + agent.apiKeyId() + "\",\"account\":\"" + trader.address() +
            "\",\"fixEnabled\":true,\"dropCopy\":true,\"markets\":[1,2],\"rateTier\":\"premium\"," +
            "\"orderMessagesPerSecond\":1000,\"cancelOnDisconnect\":true,\"codGraceMs\":7000,",
            read.body().substring(0, read.body().indexOf("\"sequence\"")));

        // the parser's rules: markets out of order is a 400 naming the field, journaled as a request refusal
        final String canonical = new String(VenueHttp.body(operator, operator.address(), operatorNonce, record,
            PreimageMode.PERSONAL), StandardCharsets.UTF_8);
        final HttpResponse<String> unordered = http.post("/api/v1/admin/actions",
            canonical.replace("\"markets\":[1,2]", "\"markets\":[2,1]").getBytes(StandardCharsets.UTF_8));
        assertEquals(400, unordered.statusCode(), unordered.body());
        assertTrue(unordered.body().contains("SetFixOnboarding"), unordered.body());
        // the engine's: a credential it does not know
        final HttpResponse<String> unknown = http.post("/api/v1/admin/actions", VenueHttp.body(operator,
            operator.address(), operatorNonce++, new SetFixOnboarding("spk_00000000000000ab", true, true, null, null,
            false, 0), PreimageMode.PERSONAL));
        assertTrue(unknown.body().contains("UNKNOWN_AGENT"), unknown.body());
        // not an operator: NOT_OPERATOR
        final HttpResponse<String> stranger = http.post("/api/v1/admin/actions", VenueHttp.body(trader,
            trader.address(), nonce++, new SetFixOnboarding(agent.apiKeyId(), false, false, null, null, false, 0),
            PreimageMode.PERSONAL));
        assertTrue(stranger.body().contains("NOT_OPERATOR"), stranger.body());
        assertTrue(http.get(route).body().startsWith(read.body().substring(0, read.body().indexOf("\"sequence\""))),
            "no refusal changed the record");
        // the credential's own read, by its SVC-* headers; another credential without a record: 404; no headers: 400
        assertEquals(read.body(), ownRecord(agent, 1).body());
        final VenueHttp.Credential bare = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.TRADE);
        final HttpResponse<String> bareRead = ownRecord(bare, 1);
        assertEquals(404, bareRead.statusCode(), bareRead.body());
        assertTrue(bareRead.body().contains("NOT_ONBOARDED"), bareRead.body());
        assertEquals(400, http.get("/api/v1/fix/onboarding").statusCode());
        // from any address but the operator's the route does not exist: covered by the metrics route's rule
    }

    /** GET /api/v1/fix/onboarding signed by the credential's SVC-* headers with this SVC nonce. */
    private HttpResponse<String> ownRecord(final VenueHttp.Credential credential, final long svcNonce)
        throws Exception
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(appliance.baseUrl() +
            "/api/v1/fix/onboarding")).GET();
        credential.signer().sign(svcNonce, System.currentTimeMillis(), "GET", "/api/v1/fix/onboarding", null, null)
            .forEach(request::header);
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

        /** With fix.tls the lane speaks TLS with the node's certificate: QuickFIX/J logs on over SSL. */
    @Test
    void aClientLogsOnOverTlsWhenTheLaneSpeaksIt() throws Exception
    {
        final Path tls = Files.createDirectories(folder.resolve("tls"));
        final X509Certificate certificate = TlsCertificates.make(tls, "venue.test");
        start(Map.of("http.tls.cert.file", tls.resolve("venue.test.cert.pem").toString(),
            "http.tls.key.file", tls.resolve("venue.test.key.pem").toString(), "fix.tls", "true"));
        http = new VenueHttp(appliance.baseUrl(),
            HttpClient.newBuilder().sslContext(TlsCertificates.trusting(certificate)).build());
        assertTrue(http.get("/api/v1/fix/connectivity").body().contains("\"tls\":true"));
        final KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("venue", certificate);
        final Path trustStore = tls.resolve("trust.p12");
        try (OutputStream out = Files.newOutputStream(trustStore))
        {
            trusted.store(out, "changeit".toCharArray());
        }
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE, Scope.CANCEL);
        final QuickFixClient client = new QuickFixClient(newStore(), appliance.fixPort(), "VENUE", "order_entry",
            agent.apiKeyId(), agent.apiSecret(), agent.apiPassphrase(), trader.address().toString(), String.join("\n",
            "SocketUseSSL=Y", "SocketTrustStore=" + trustStore, "SocketTrustStorePassword=changeit",
            "SocketTrustStoreType=PKCS12", "EnabledProtocols=TLSv1.2,TLSv1.3"));
        clients.add(client);
        client.awaitLogon(WAIT_MS);
        client.logout();
        assertEquals(1, metric(metrics(), "venue_fix_logons_accepted_total"));
    }

    @Test
    void eachLogonRefusalIsALogoutWithItsReason() throws Exception
    {
        start(Map.of("fix.logon.attempts.per.minute", "100"));
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        final VenueHttp.Credential notInstitutional = credential(AgentKind.API, Scope.TRADE);
        final VenueHttp.Credential noDropCopy = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        // one at a time: QuickFIX/J keeps one session per SessionID in the JVM, and some of these share theirs
        final Map<String, ThrowingSupplier> refusals = new LinkedHashMap<>();
        refusals.put("UNAUTHENTICATED", () -> client(agent, "order_entry", "sps_" + "0".repeat(64),
            trader.address().toString(), "VENUE", newStore()));
        refusals.put("WRONG_ACCOUNT", () -> client(agent, "order_entry", agent.apiSecret(),
            "0x" + "12".repeat(20), "VENUE", newStore()));
        refusals.put("NOT_INSTITUTIONAL", () -> client(notInstitutional, "order_entry", newStore()));
        refusals.put("SUB_SESSION_DENIED", () -> client(noDropCopy, "drop_copy", newStore()));
        refusals.put("COMP_ID", () -> client(agent, "order_entry", agent.apiSecret(), trader.address().toString(),
            "ELSEWHERE", newStore()));
        // the onboarding record (spec 5.5): none, one without FIX, one without the drop copy
        final VenueHttp.Credential notOnboarded = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL,
            Scope.TRADE);
        refusals.put("NOT_ONBOARDED", () -> client(notOnboarded, "order_entry", newStore()));
        final VenueHttp.Credential fixOff = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.TRADE);
        http.onboardFix(operator, operatorNonce++, new SetFixOnboarding(fixOff.apiKeyId(), false, true, null, null,
            true, 5_000));
        refusals.put("FIX_NOT_PERMITTED", () -> client(fixOff, "order_entry", newStore()));
        final VenueHttp.Credential noEntitlement = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL,
            Scope.TRADE, Scope.DROP_COPY);
        http.onboardFix(operator, operatorNonce++, new SetFixOnboarding(noEntitlement.apiKeyId(), true, false, null,
            null, true, 5_000));
        refusals.put("DROP_COPY_NOT_ENTITLED", () -> client(noEntitlement, "drop_copy", newStore()));
        // an Ed25519 credential has no secret to show: the same answer as a wrong one (spec 5.5)
        final String ed25519 = http.ed25519AgentKeyId(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.TRADE);
        refusals.put("UNAUTHENTICATED (Ed25519)", () -> client(new VenueHttp.Credential(ed25519,
            "sps_" + "1".repeat(64), "spp_" + "1".repeat(32)), "order_entry", newStore()));
        for (final Map.Entry<String, ThrowingSupplier> refusal : refusals.entrySet())
        {
            try (QuickFixClient client = refusal.getValue().get())
            {
                final Message logout = client.await(FixLaneTest::isLogout, WAIT_MS);
                assertTrue(QuickFixClient.text(logout).startsWith(refusal.getKey().split(" ")[0] + ": "),
                    refusal.getKey() + " -> " + QuickFixClient.text(logout));
                assertFalse(client.loggedOn());
            }
        }
        final String metrics = metrics();
        for (final String reason : refusals.keySet().stream().map(r -> r.split(" ")[0]).toList())
        {
            assertTrue(metric(metrics, "venue_fix_logons_refused_total{reason=\"" + reason + "\"}") >= 1,
                reason + "\n" + metrics);
        }
        assertEquals(0, metric(metrics, "venue_fix_logons_accepted_total"));
    }

    @Test
    void theSixthLogonAttemptOfAMinuteIsRefused() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        final Path store = newStore();
        for (int attempt = 1; attempt <= 5; attempt++)
        {
            try (QuickFixClient client = client(agent, "order_entry", store))
            {
                client.awaitLogon(WAIT_MS);
                client.logout();
            }
        }
        final QuickFixClient sixth = client(agent, "order_entry", store);
        final Message logout = sixth.await(FixLaneTest::isLogout, WAIT_MS);
        assertTrue(QuickFixClient.text(logout).startsWith("THROTTLED: "), QuickFixClient.text(logout));
        assertEquals(1, metric(metrics(), "venue_fix_logons_refused_total{reason=\"THROTTLED\"}"));
    }

    @Test
    void sequenceNumbersGoOnAcrossReconnectsAndAResendIsGapFilled() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        final Path store = newStore();
        final int venueNext;
        try (QuickFixClient first = client(agent, "order_entry", store))
        {
            first.awaitLogon(WAIT_MS);
            for (int i = 0; i < 3; i++)
            {
                Session.sendToTarget(new TestRequest(new TestReqID("t" + i)), first.session().getSessionID());
                final String id = "t" + i;
                first.await(m -> id.equals(QuickFixClient.get(m, 112)), WAIT_MS);
            }
            first.logout();
            venueNext = first.session().getExpectedTargetNum();
            // Logon, three Heartbeats, the Logout: the venue's next is 6
            assertEquals(6, venueNext);
            // the client forgets what it received, as after a crash of its own: the next Logon shows a gap
            first.session().getStore().setNextTargetMsgSeqNum(2);
        }
        try (QuickFixClient second = client(agent, "order_entry", store))
        {
            second.awaitLogon(WAIT_MS);
            final Message logon = second.await("A", WAIT_MS);
            assertEquals("6", QuickFixClient.get(logon, 34), "the venue numbers on from the last session");
            final Message gapFill = second.await("4", WAIT_MS);
            assertEquals("Y", QuickFixClient.get(gapFill, 123));
            assertEquals("Y", QuickFixClient.get(gapFill, 43));
            assertEquals("2", QuickFixClient.get(gapFill, 34));
            // QuickFIX/J asks for the gap from 2 on; the Logon was 6, so the gap fill reaches 7 (the Logon's
            // number is past; the venue filled what it had sent before the request)
            assertTrue(Integer.parseInt(QuickFixClient.get(gapFill, 36)) >= 6, gapFill.toString());
            Session.sendToTarget(new TestRequest(new TestReqID("after")), second.session().getSessionID());
            second.await(m -> "after".equals(QuickFixClient.get(m, 112)), WAIT_MS);
            assertTrue(second.loggedOn());
            assertTrue(metric(metrics(), "venue_fix_resend_requests_total") >= 1);
        }
    }

    @Test
    void sequenceNumbersGoOnAcrossRestartsOfTheAppliance() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        final Path store = newStore();
        try (QuickFixClient first = client(agent, "order_entry", store))
        {
            first.awaitLogon(WAIT_MS);
            Session.sendToTarget(new TestRequest(new TestReqID("before")), first.session().getSessionID());
            first.await(m -> "before".equals(QuickFixClient.get(m, 112)), WAIT_MS);
            first.logout();
            // Logon, the Heartbeat, the Logout
            assertEquals(4, first.session().getExpectedTargetNum());
            assertEquals(4, first.session().getExpectedSenderNum());
        }
        appliance.close();
        start(Map.of());
        try (QuickFixClient second = client(agent, "order_entry", store))
        {
            // the journal's LOGOUT mark: the numbers go on exactly, both ways
            second.awaitLogon(WAIT_MS);
            assertEquals("4", QuickFixClient.get(second.await("A", WAIT_MS), 34));
            Session.sendToTarget(new TestRequest(new TestReqID("after")), second.session().getSessionID());
            second.await(m -> "after".equals(QuickFixClient.get(m, 112)), WAIT_MS);
            assertTrue(second.received().stream().noneMatch(m -> QuickFixClient.type(m).equals("4")));
            // QuickFIX/J counts a message after its callback has seen it: wait for the count
            final long counted = System.nanoTime() + WAIT_MS * 1_000_000L;
            while (second.session().getExpectedTargetNum() < 6 && System.nanoTime() < counted)
            {
                Thread.sleep(10);
            }
            assertEquals(6, second.session().getExpectedTargetNum());
            // the appliance stops under the live session: whatever mark the journal kept last, the venue numbers on
            // past everything it sent, and the client takes it (a gap is filled)
            appliance.close();
            start(Map.of());
        }
        try (QuickFixClient third = client(agent, "order_entry", store))
        {
            third.awaitLogon(WAIT_MS);
            final long logonSeq = Long.parseLong(QuickFixClient.get(third.await("A", WAIT_MS), 34));
            assertTrue(logonSeq >= 6, "the venue never numbers back: " + logonSeq);
            Session.sendToTarget(new TestRequest(new TestReqID("third")), third.session().getSessionID());
            third.await(m -> "third".equals(QuickFixClient.get(m, 112)), WAIT_MS);
            assertTrue(third.loggedOn());
        }
        final String dump = http.get("/api/v1/admin/metrics").body();
        assertEquals(0, metric(dump, "venue_fix_marks_not_journaled_total"), dump);
    }

    @Test
    void aResendOverTheCapIsRejectedNamingIt() throws Exception
    {
        start(Map.of("fix.resend.max.messages", "3"));
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        final QuickFixClient client = client(agent, "order_entry", newStore());
        client.awaitLogon(WAIT_MS);
        for (int i = 0; i < 4; i++)
        {
            final String id = "c" + i;
            Session.sendToTarget(new TestRequest(new TestReqID(id)), client.session().getSessionID());
            client.await(m -> id.equals(QuickFixClient.get(m, 112)), WAIT_MS);
        }
        client.clear();
        Session.sendToTarget(new ResendRequest(new BeginSeqNo(1), new EndSeqNo(0)), client.session().getSessionID());
        final Message reject = client.await("3", WAIT_MS);
        assertEquals("5", QuickFixClient.get(reject, 373));
        assertEquals("16", QuickFixClient.get(reject, 371));
        assertTrue(QuickFixClient.text(reject).contains("at most 3 messages (fix.resend.max.messages)"),
            QuickFixClient.text(reject));
        assertTrue(client.loggedOn());
        final String metrics = metrics();
        assertEquals(1, metric(metrics, "venue_fix_resends_refused_total"), metrics);
        assertEquals(1, metric(metrics, "venue_fix_session_rejects_total"), metrics);
    }

    @Test
    void anUnsupportedMessageAndADropCopyOrderAreBusinessRejects() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE, Scope.DROP_COPY);
        final QuickFixClient entry = client(agent, "order_entry", newStore());
        final QuickFixClient dropCopy = client(agent, "drop_copy", newStore());
        entry.awaitLogon(WAIT_MS);
        dropCopy.awaitLogon(WAIT_MS);
        // the order-entry session takes D, F, G, q and H (FixOrderEntryTest); a QuoteRequest is not among them
        final QuoteRequest quote = new QuoteRequest();
        quote.setString(131, "q-1");
        Session.sendToTarget(quote, entry.session().getSessionID());
        final Message unsupported = entry.await("j", WAIT_MS);
        assertEquals("R", QuickFixClient.get(unsupported, 372));
        assertEquals("3", QuickFixClient.get(unsupported, 380), unsupported.toString());
        // a drop-copy session enters no order
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID("ord-1"), new Side(Side.BUY),
            new TransactTime(), new OrdType(OrdType.LIMIT));
        order.set(new Symbol("1"));
        order.set(new OrderQty(1));
        order.set(new Price(100));
        Session.sendToTarget(order, dropCopy.session().getSessionID());
        final Message reject = dropCopy.await("j", WAIT_MS);
        assertEquals("D", QuickFixClient.get(reject, 372));
        assertEquals("ord-1", QuickFixClient.get(reject, 379));
        assertEquals("6", QuickFixClient.get(reject, 380), reject.toString());
        assertTrue(QuickFixClient.text(reject).contains("cannot enter orders"));
        assertTrue(entry.loggedOn() && dropCopy.loggedOn());
    }

    // ----- raw bytes: what no FIX engine would send

    private static String raw(final String fields)
    {
        final String body = fields.replace('|', '\u0001');
        final String head = "8=FIX.4.4" + SOH + "9=" + body.length() + SOH;
        int sum = 0;
        for (final byte b : (head + body).getBytes(StandardCharsets.ISO_8859_1))
        {
            sum += b;
        }
        return head + body + "10=" + String.format("%03d", sum & 0xff) + SOH;
    }

    private static String now()
    {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC).format(Instant.now());
    }

    /** Reads what the venue sends until it closes (or {@code WAIT_MS}), as text with '|' for SOH. */
    private static String readUntilClosed(final Socket socket) throws Exception
    {
        return readUntilClosed(socket, "");
    }

    private static String readUntilClosed(final Socket socket, final String sent) throws Exception
    {
        socket.setSoTimeout(WAIT_MS);
        final InputStream in = socket.getInputStream();
        final StringBuilder text = new StringBuilder();
        final byte[] chunk = new byte[4096];
        try
        {
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk))
            {
                text.append(new String(chunk, 0, n, StandardCharsets.ISO_8859_1));
            }
        }
        catch (final SocketException reset)
        {
            // closed under our feet: what was read is the answer
        }
        catch (final SocketTimeoutException timeout)
        {
            throw new AssertionError("still open after " + sent.replace('\u0001', '|') + "; read " + text, timeout);
        }
        return text.toString().replace('\u0001', '|');
    }

    private static String readSome(final Socket socket, final String until) throws Exception
    {
        socket.setSoTimeout(WAIT_MS);
        final InputStream in = socket.getInputStream();
        final StringBuilder text = new StringBuilder();
        final byte[] chunk = new byte[4096];
        while (!text.toString().replace('\u0001', '|').contains(until))
        {
            final int n = in.read(chunk);
            if (n < 0)
            {
                break;
            }
            text.append(new String(chunk, 0, n, StandardCharsets.ISO_8859_1));
        }
        return text.toString().replace('\u0001', '|');
    }

    private String logon(final VenueHttp.Credential agent, final int seq)
    {
        return logon(agent, seq, 30, "");
    }

    private String logon(final VenueHttp.Credential agent, final int seq, final int heartBtInt, final String extra)
    {
        return raw("35=A|49=" + agent.apiKeyId() + "|56=VENUE|34=" + seq + "|57=order_entry|52=" + now() +
            "|1=" + trader.address() + "|98=0|108=" + heartBtInt + "|553=" + agent.apiKeyId() + "|554=" +
            agent.apiSecret() + ":" + agent.apiPassphrase() + "|" + extra);
    }

    private static void send(final Socket socket, final String message) throws Exception
    {
        socket.getOutputStream().write(message.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void theSessionRulesHoldOverRawBytes() throws Exception
    {
        start(Map.of("fix.logon.attempts.per.minute", "100"));
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        final String head = "49=" + agent.apiKeyId() + "|56=VENUE|";
        try (Socket socket = new Socket("127.0.0.1", appliance.fixPort()))
        {
            // a client ahead of the venue's count: the Logon is taken, then a ResendRequest from 1; the client's
            // gap fill brings the count to its number and the session goes on
            send(socket, logon(agent, 5));
            final String opened = readSome(socket, "|35=2|");
            assertTrue(opened.contains("|35=A|") && opened.contains("|35=2|") && opened.contains("|7=1|16=0|"),
                opened);
            // a ResendRequest past the gap is answered at once (a gap fill of the venue's Logon and ResendRequest);
            // another message past the gap waits for the resend: no answer to it
            send(socket, raw("35=2|" + head + "34=6|52=" + now() + "|7=1|16=0|"));
            final String filled = readSome(socket, "|35=4|");
            assertTrue(filled.contains("|35=4|") && filled.contains("|34=1|") && filled.contains("|43=Y|") &&
                filled.contains("|123=Y|36=3|"), filled);
            send(socket, raw("35=1|" + head + "34=7|52=" + now() + "|112=early|"));
            send(socket, raw("35=4|" + head + "34=1|43=Y|52=" + now() + "|122=" + now() + "|123=Y|36=7|"));
            send(socket, raw("35=1|" + head + "34=7|43=Y|52=" + now() + "|122=" + now() + "|112=again|"));
            final String answered = readSome(socket, "112=again|");
            assertFalse(answered.contains("112=early|"), answered);
            // reset mode: its own number is ignored, the count moves to NewSeqNo
            send(socket, raw("35=4|" + head + "34=999|52=" + now() + "|36=20|"));
            send(socket, raw("35=1|" + head + "34=20|52=" + now() + "|112=twenty|"));
            assertTrue(readSome(socket, "112=twenty|").contains("|35=0|"));
            // a NewSeqNo below the count is a Reject
            send(socket, raw("35=4|" + head + "34=21|52=" + now() + "|123=Y|36=3|"));
            assertTrue(readSome(socket, "|373=5|").contains("|45=21|371=36|372=4|373=5|"));
            // a SendingTime far from the server's clock: a Reject, then a Logout
            send(socket, raw("35=0|" + head + "34=22|52=20200101-00:00:00.000|"));
            final String skewed = readUntilClosed(socket);
            assertTrue(skewed.contains("|45=22|371=52|372=0|373=10|") && skewed.contains("|35=5|"), skewed);
        }
        try (Socket socket = new Socket("127.0.0.1", appliance.fixPort()))
        {
            // the numbers went on (23 in, and out past everything sent); a reset starts both at 1
            send(socket, logon(agent, 1, 30, "141=Y|"));
            final String reset = readSome(socket, "|10=");
            assertTrue(reset.contains("|35=A|") && reset.contains("|34=1|") && reset.contains("|141=Y|"), reset);
            // another credential's CompID on the session: a Reject, then a Logout
            send(socket, raw("35=0|49=spk_0000000000000000|56=VENUE|34=2|52=" + now() + "|"));
            final String wrong = readUntilClosed(socket);
            assertTrue(wrong.contains("|373=9|") && wrong.contains("|35=5|"), wrong);
        }
        try (Socket socket = new Socket("127.0.0.1", appliance.fixPort()))
        {
            // a silent client: a TestRequest after HeartBtInt and a fifth, then a Logout a HeartBtInt later
            send(socket, logon(agent, 3, 1, ""));
            final String silent = readUntilClosed(socket);
            assertTrue(silent.contains("|35=A|"), silent);
            assertTrue(silent.contains("|35=1|") && silent.contains("|112=TEST-1|"), silent);
            assertTrue(silent.contains("|35=5|") && silent.contains("no message within HeartBtInt of a TestRequest"),
                silent);
        }
    }

    @Test
    void bytesThatBreakTheFramingOrTheRulesAreALogoutOrARejectAndChangeNothing() throws Exception
    {
        start(Map.of("fix.logon.attempts.per.minute", "100"));
        final VenueHttp.Credential agent = credential(AgentKind.INSTITUTIONAL, Scope.TRADE);
        final long journaled = metric(metrics(), "venue_sequence{stage=\"journaled\"}");

        // before a logon: garbage, a wrong CheckSum, a body over the limit, another message first
        for (final String bad : List.of("GET / HTTP/1.1\r\n\r\n", logon(agent, 1).replaceFirst("10=...", "10=000"),
            "8=FIX.4.4" + SOH + "9=9999999" + SOH, raw("35=0|49=x|56=VENUE|34=1|52=" + now() + "|")))
        {
            try (Socket socket = new Socket("127.0.0.1", appliance.fixPort()))
            {
                socket.getOutputStream().write(bad.getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
                final String answer = readUntilClosed(socket, bad);
                assertTrue(answer.contains("|35=5|") && answer.contains("|58="), bad + " -> " + answer);
            }
        }

        try (Socket socket = new Socket("127.0.0.1", appliance.fixPort()))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(logon(agent, 1).getBytes(StandardCharsets.ISO_8859_1));
            assertTrue(readSome(socket, "|10=").contains("|35=A|"));
            final String head = "49=" + agent.apiKeyId() + "|56=VENUE|";
            // a tag twice, a header tag in the body, an unknown MsgType, a missing TestReqID: a Reject each, in order
            out.write(raw("35=1|" + head + "34=2|52=" + now() + "|112=a|112=b|").getBytes(StandardCharsets.ISO_8859_1));
            out.write(raw("35=1|" + head + "34=3|52=" + now() + "|112=a|57=order_entry|")
                .getBytes(StandardCharsets.ISO_8859_1));
            out.write(raw("35=ZZ|" + head + "34=4|52=" + now() + "|").getBytes(StandardCharsets.ISO_8859_1));
            out.write(raw("35=1|" + head + "34=5|52=" + now() + "|").getBytes(StandardCharsets.ISO_8859_1));
            final String rejects = readSome(socket, "|45=5|");
            assertTrue(rejects.contains("|45=2|371=112|372=1|373=13|"), rejects);
            assertTrue(rejects.contains("|45=3|371=57|372=1|373=14|"), rejects);
            assertTrue(rejects.contains("|45=4|371=35|372=ZZ|373=11|"), rejects);
            assertTrue(rejects.contains("|45=5|371=112|372=1|373=1|"), rejects);
            // the session goes on: a TestRequest is answered
            out.write(raw("35=1|" + head + "34=6|52=" + now() + "|112=alive|").getBytes(StandardCharsets.ISO_8859_1));
            assertTrue(readSome(socket, "112=alive|").contains("|35=0|"));
            // a MsgSeqNum below the next expected, without PossDup: a Logout, then the close
            out.write(raw("35=0|" + head + "34=3|52=" + now() + "|").getBytes(StandardCharsets.ISO_8859_1));
            final String last = readUntilClosed(socket);
            assertTrue(last.contains("|35=5|") && last.contains("MsgSeqNum too low, expecting 7 but received 3"),
                last);
        }
        try (Socket socket = new Socket("127.0.0.1", appliance.fixPort()))
        {
            // the numbers went on: the next logon of the credential starts at 7, and a garbled stream ends it
            final OutputStream out = socket.getOutputStream();
            out.write(logon(agent, 7).getBytes(StandardCharsets.ISO_8859_1));
            assertTrue(readSome(socket, "|10=").contains("|35=A|"));
            out.write("8=FIX.4.4\u00019=5\u000135=0\u0001xxxxxxx".getBytes(StandardCharsets.ISO_8859_1));
            final String answer = readUntilClosed(socket);
            assertTrue(answer.contains("|35=5|") && answer.contains("cannot be framed"), answer);
        }
        // nothing of it was journaled but the two sessions' numbers (a LOGON and a LOGOUT mark each, and an ADMIN mark
        // for each session message the venue sent: the first session's Logon, four Rejects, Heartbeat and Logout, the
        // second's Logon and Logout) and their cancel-on-disconnect hook (a SessionOpened and a SessionClosed each): no
        // order, no refusal (the logons were the credential's own)
        final long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        long now = metric(metrics(), "venue_sequence{stage=\"journaled\"}");
        while (now < journaled + 17 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            now = metric(metrics(), "venue_sequence{stage=\"journaled\"}");
        }
        assertEquals(journaled + 17, now);
        final String metrics = metrics();
        assertTrue(metric(metrics, "venue_fix_framing_faults_total") >= 3, metrics);
        assertEquals(5, metric(metrics, "venue_fix_session_rejects_total"), metrics);
    }
}
