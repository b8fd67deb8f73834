package io.venue.appliance;

import io.venue.action.Address;
import io.venue.action.SetVaultOwner;
import io.venue.action.Side;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.AgentRevocationText;
import io.venue.auth.AgentRotationText;
import io.venue.auth.CredentialDelivery;
import io.venue.auth.Credentials;
import io.venue.auth.OwnerRevokeText;
import io.venue.auth.OwnerSignedText;
import io.venue.auth.Scope;
import io.venue.auth.WsTokenText;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.codec.JsonWriter;
import io.venue.svc.SvcRequestSigner;
import io.venue.transport.http.OwnerIntents;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.OUTCOME_MARKET;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent routes of a running appliance (spec 3.3, 5.8), with owner intents signed by the demo account's wallet:
 * create, trading by the agent within its scopes, rotation with the overlap, revoking one credential, owner-revoke,
 * and the refusals (a signature by another wallet, a replayed intent, a wallet given as account id, a stale issue
 * time) which change nothing.
 */
class AgentRoutesTest
{
    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair owner;
    /** The owner's action nonces: the demo set-up used none of the demo account's; intents and actions share them. */
    private long nonce;
    /** This client's delivery key: the new HMAC credentials' secrets are sealed to it. */
    private final CredentialDelivery.Requester requester = new CredentialDelivery.Requester(new SecureRandom());

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        owner = VenueHttp.key(appliance.demoAccountKeyFile());
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    private static String sign(final Secp256k1KeyPair wallet, final OwnerSignedText text)
    {
        return Hex.to0x(new Secp256k1Signer(wallet).sign(Eip191.personalHash(text.text()), PreimageMode.RAW));
    }

    private String createBody(final Secp256k1KeyPair wallet, final AgentKey agent, final long intentNonce,
        final long issuedAtMs, final String accountIdHex, final Scope... scopes)
    {
        final AgentAuthorizationText text = AgentAuthorizationText.builder().owner(owner.address()).agent(agent)
            .kind(AgentKind.API).scopes(scopes).policy("").deliveryKey(agent.isEd25519() ? null : requester.keyText())
            .nonce(intentNonce).issuedAtMs(issuedAtMs).expiresAtMs(issuedAtMs + AgentKind.DAY_MS).chainId(DEMO_CHAIN_ID)
            .verifyingContract(DEMO_CONTRACT).build();
        final JsonWriter authorization = new JsonWriter().field("signature", sign(wallet, text));
        if (accountIdHex != null)
        {
            authorization.field("accountIdHex", accountIdHex);
        }
        final List<String> scopeNames = new ArrayList<>();
        for (final Scope scope : scopes)
        {
            scopeNames.add(JsonWriter.quote(scope.wire()));
        }
        return new JsonWriter().field("userWalletAddress", owner.address().toString()).field("agent", agent.text())
            .field("agentKind", "api").raw("scopes", JsonWriter.array(scopeNames)).field("policy", "")
            .field("deliveryKey", text.deliveryKey()).field("nonce", intentNonce).field("issuedAtMs", issuedAtMs)
            .field("expiresAtMs", issuedAtMs + AgentKind.DAY_MS)
            .raw("authorization", authorization.toJson()).toJson();
    }

    private HttpResponse<String> create(final AgentKey agent, final Scope... scopes) throws Exception
    {
        return post("/api/agents/create", createBody(owner, agent, nonce++, System.currentTimeMillis(), null, scopes));
    }

    /** The new credential of a create or rotate answer, opened with this client's delivery key. */
    private CredentialDelivery.Opened opened(final HttpResponse<String> created)
    {
        assertNull(field(created.body(), "apiSecret"), "the secret is only sealed: " + created.body());
        return requester.open(field(created.body(), "sealedCredential"), field(created.body(), "apiKeyId"));
    }

    private SvcRequestSigner credential(final HttpResponse<String> created)
    {
        final CredentialDelivery.Opened opened = opened(created);
        return SvcRequestSigner.hmac(field(created.body(), "apiKeyId"), opened.apiSecret(), opened.apiPassphrase());
    }

    private HttpResponse<String> post(final String path, final String body) throws Exception
    {
        return http.post(path, body.getBytes(StandardCharsets.UTF_8));
    }

    /** An order for the owner's account signed by {@code signer}. */
    private HttpResponse<String> trade(final Secp256k1KeyPair signer) throws Exception
    {
        return http.post("/api/v1/trading/actions", VenueHttp.body(signer, owner.address(), nonce++,
            new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, 10_000 * UNIT, 1_000, null, TimeInForce.GTC, false, false,
                -1),
            PreimageMode.RAW));
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    private static void refused(final HttpResponse<String> response, final int status, final String code)
    {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(code, field(response.body(), "code"), response.body());
    }

    private long nextUsableNonce() throws Exception
    {
        final HttpResponse<String> status = http.get("/api/v1/trading/accounts/" + owner.address() + "/nonce");
        return Long.parseLong(field(status.body(), "nextUsableNonce"));
    }

    @Test
    void createTradeRotateRevokeAndOwnerRevoke() throws Exception
    {
        final Secp256k1KeyPair agent = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> created = create(AgentKey.secp256k1(agent.address()), Scope.TRADE, Scope.CANCEL);
        ok(created);
        final String agentId = field(created.body(), "agentId");
        assertTrue(agentId.matches("spk_[0-9a-f]{16}"), created.body());
        assertEquals(agentId, field(created.body(), "apiKeyId"), "the first credential's id is the agent's");
        assertTrue(opened(created).apiSecret().matches("sps_[0-9a-f]{64}"), created.body());
        assertTrue(opened(created).apiPassphrase().matches("spp_[0-9a-f]{32}"), created.body());

        ok(trade(agent));
        // the verifiers know the agent from the event journal: its raw-mode signatures cost one recovery
        assertTrue(appliance.delegates().signsFor(owner.address().toBytes(), agent.address().toBytes()));
        // the agent holds trade and cancel, not mint_redeem
        refused(http.post("/api/v1/trading/actions", VenueHttp.body(agent, owner.address(), nonce++,
            new Split(OUTCOME_MARKET, UNIT), PreimageMode.RAW)), 403, "SCOPE_DENIED");

        final Secp256k1KeyPair rotated = Secp256k1KeyPair.generate(new SecureRandom());
        final AgentRotationText rotation = AgentRotationText.builder().owner(owner.address()).agentId(agentId)
            .newAgent(AgentKey.secp256k1(rotated.address())).deliveryKey(requester.keyText()).nonce(nonce++)
            .issuedAtMs(System.currentTimeMillis())
            .chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        final String rotateBody = new JsonWriter()
            .field("userWalletAddress", owner.address().toString()).field("newAgent", rotation.newAgent().text())
            .field("deliveryKey", rotation.deliveryKey()).field("nonce", rotation.nonce())
            .field("issuedAtMs", rotation.issuedAtMs())
            .field("signature", sign(owner, rotation))
            .toJson();
        final HttpResponse<String> rotate = post("/api/agents/" + agentId + "/rotate", rotateBody);
        ok(rotate);
        final String newCredential = field(rotate.body(), "apiKeyId");
        // the rotation's answer lost on its way: the same body again delivers the same new credential
        final HttpResponse<String> rotateAgain = post("/api/agents/" + agentId + "/rotate", rotateBody);
        ok(rotateAgain);
        assertEquals("true", field(rotateAgain.body(), "deliveredAgain"), rotateAgain.body());
        assertEquals(newCredential, field(rotateAgain.body(), "apiKeyId"));
        assertEquals(opened(rotate), opened(rotateAgain));
        assertFalse(newCredential.equals(agentId), rotate.body());
        assertTrue(opened(rotate).apiSecret().matches("sps_[0-9a-f]{64}"), "sealed like a create's: " + rotate.body());
        assertEquals(rotation.issuedAtMs() + 24 * AgentKind.HOUR_MS,
            Long.parseLong(field(rotate.body(), "validUntilMs")),
            "the old credential stays valid 24 hours after the rotation");
        ok(trade(agent));
        ok(trade(rotated));
        assertTrue(appliance.delegates().signsFor(owner.address().toBytes(), rotated.address().toBytes()));

        final AgentRevocationText revocation = AgentRevocationText.builder().owner(owner.address()).agentId(agentId)
            .credentialId(newCredential).nonce(nonce++).issuedAtMs(System.currentTimeMillis())
            .chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        ok(post("/api/agents/revoke", new JsonWriter().field("userWalletAddress", owner.address().toString())
            .field("agentId", agentId).field("credentialId", newCredential).field("nonce", revocation.nonce())
            .field("issuedAtMs", revocation.issuedAtMs()).field("signature", sign(owner, revocation)).toJson()));
        // still a known delegate to the verifiers, whose answer only saves a recovery: the gate refuses it
        refused(trade(rotated), 401, "UNAUTHORIZED_SIGNER");
        ok(trade(agent));

        final OwnerRevokeText revokeAll = OwnerRevokeText.builder().owner(owner.address()).nonce(nonce++)
            .issuedAtMs(System.currentTimeMillis()).chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        ok(post("/api/v1/trading/accounts/owner-revoke",
            new JsonWriter().field("userWalletAddress", owner.address().toString())
            .field("nonce", revokeAll.nonce()).field("issuedAtMs", revokeAll.issuedAtMs())
            .field("signature", sign(owner, revokeAll))
            .toJson()));
        refused(trade(agent), 401, "UNAUTHORIZED_SIGNER");
        ok(trade(owner));
    }

    @Test
    void ed25519AgentGetsAKeyIdAndNoSecret() throws Exception
    {
        final byte[] publicKey = new Ed25519PrivateKeyParameters(new SecureRandom())
            .generatePublicKey().getEncoded();
        final HttpResponse<String> created = create(AgentKey.ed25519(publicKey), Scope.READ);
        ok(created);
        assertTrue(field(created.body(), "apiKeyId").startsWith("spk_"), created.body());
        assertNull(field(created.body(), "apiSecret"), created.body());
        assertNull(field(created.body(), "sealedCredential"), created.body());
    }

    @Test
    void refusedIntentsChangeNothing() throws Exception
    {
        final AgentKey agent = AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address());
        final long now = System.currentTimeMillis();
        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());

        final HttpResponse<String> forged = post("/api/agents/create",
            createBody(stranger, agent, 0, now, null, Scope.TRADE));
        refused(forged, 401, "OWNER_SIGNATURE_INVALID");
        assertTrue(forged.body().contains(stranger.address().toString()),
            "names the wallet that signed: " + forged.body());
        assertEquals(0, nextUsableNonce(), "a forged intent consumes no nonce");

        final HttpResponse<String> wallet = post("/api/agents/create",
            createBody(owner, agent, 0, now, owner.address().toString(), Scope.TRADE));
        refused(wallet, 400, "BAD_REQUEST");
        assertEquals("authorization.accountIdHex", field(wallet.body(), "field"), wallet.body());

        final HttpResponse<String> stale = post("/api/agents/create",
            createBody(owner, agent, 0, now - 120_000, null, Scope.TRADE));
        refused(stale, 400, "BAD_REQUEST");
        assertEquals("issuedAtMs", field(stale.body(), "field"), stale.body());
        assertTrue(stale.body().contains("\"serverTimeMs\":"), stale.body());

        refused(post("/api/agents/create", "{\"userWalletAddress\":1}"), 400, "BAD_REQUEST");
        refused(post("/api/agents/create", "[not json"), 400, "BAD_REQUEST");
        refused(post("/api/agents/spk_0123456789abcdef/rotate", "{}"), 400, "BAD_REQUEST");
        assertEquals(405, http.get("/api/agents/create").statusCode());
        assertEquals(0, nextUsableNonce());

        final String body = createBody(owner, agent, 0, System.currentTimeMillis(),
            OwnerIntents.accountIdOf(owner.address()), Scope.TRADE);
        final HttpResponse<String> created = post("/api/agents/create", body);
        ok(created);
        // another body with the used nonce (here: another agent key) is refused and delivers nothing
        final HttpResponse<String> replayed = post("/api/agents/create", createBody(owner,
            AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()), 0, System.currentTimeMillis(),
            null, Scope.TRADE));
        refused(replayed, 200, "nonce_below_floor");
        assertNull(field(replayed.body(), "sealedCredential"), "a refused create returns no credential");
        // the same body again is the same intent: its credential, delivered again, changing nothing
        final HttpResponse<String> again = post("/api/agents/create", body);
        ok(again);
        assertEquals("true", field(again.body(), "deliveredAgain"), again.body());
        assertEquals(field(created.body(), "apiKeyId"), field(again.body(), "apiKeyId"));
        assertEquals(requester.open(field(created.body(), "sealedCredential"), field(created.body(), "apiKeyId")),
            requester.open(field(again.body(), "sealedCredential"), field(again.body(), "apiKeyId")));
        assertEquals(1, nextUsableNonce());
        assertFalse(Files.readString(folder.resolve("keys").resolve("credentials.key")).isBlank());
    }

    @Test
    void aCreateBodyTakenByAnotherClientDeliversTheSecretToItsRequesterOnly() throws Exception
    {
        final SecureRandom random = new SecureRandom();
        final long now = System.currentTimeMillis();
        final String body = createBody(owner, AgentKey.secp256k1(Secp256k1KeyPair.generate(random).address()),
            nonce++, now, null, Scope.TRADE, Scope.READ);
        // another client (one that saw the body on its way: a proxy, a log) submits it first, on its own connection
        final VenueHttp replayer = new VenueHttp(appliance.baseUrl());
        final CredentialDelivery.Requester replayersKey = new CredentialDelivery.Requester(random);
        refused(replayer.post("/api/agents/create",
            body.replace(requester.keyText(), replayersKey.keyText()).getBytes(StandardCharsets.UTF_8)),
            401, "OWNER_SIGNATURE_INVALID");
        final HttpResponse<String> taken = replayer.post("/api/agents/create", body.getBytes(StandardCharsets.UTF_8));
        ok(taken);
        final String apiKeyId = field(taken.body(), "apiKeyId");
        assertNull(field(taken.body(), "apiSecret"), taken.body());
        assertNull(field(taken.body(), "apiPassphrase"), taken.body());
        final String sealed = field(taken.body(), "sealedCredential");
        assertThrows(IllegalArgumentException.class, () -> replayersKey.open(sealed, apiKeyId),
            "only the delivery key the owner signed opens the credential");
        final CredentialDelivery.Opened opened = requester.open(sealed, apiKeyId);
        assertFalse(taken.body().contains(opened.apiSecret().substring(4)), taken.body());
        assertFalse(taken.body().contains(opened.apiPassphrase().substring(4)), taken.body());

        // the requester's own submission comes second: the same intent, so the same credential is delivered again,
        // sealed to the requester's key, and nothing changes in the engine
        final long nonceBefore = nextUsableNonce();
        final HttpResponse<String> late = post("/api/agents/create", body);
        ok(late);
        assertEquals("true", field(late.body(), "deliveredAgain"), late.body());
        assertEquals(apiKeyId, field(late.body(), "apiKeyId"));
        assertEquals(opened, requester.open(field(late.body(), "sealedCredential"), apiKeyId));
        assertThrows(IllegalArgumentException.class,
            () -> replayersKey.open(field(late.body(), "sealedCredential"), apiKeyId));
        assertEquals(nonceBefore, nextUsableNonce());
        // what the replayer was answered is the real credential, for the requester's key alone
        ok(token(SvcRequestSigner.hmac(apiKeyId, opened.apiSecret(), opened.apiPassphrase()), 1,
            System.currentTimeMillis(), ""));
        // a revoked credential is never delivered again: the body is then an old nonce like any other
        final OwnerRevokeText revokeAll = OwnerRevokeText.builder().owner(owner.address()).nonce(nonce++)
            .issuedAtMs(System.currentTimeMillis()).chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        ok(post("/api/v1/trading/accounts/owner-revoke", new JsonWriter()
            .field("userWalletAddress", owner.address().toString()).field("nonce", revokeAll.nonce())
            .field("issuedAtMs", revokeAll.issuedAtMs()).field("signature", sign(owner, revokeAll)).toJson()));
        final HttpResponse<String> afterRevoke = post("/api/agents/create", body);
        refused(afterRevoke, 200, "nonce_below_floor");
        assertNull(field(afterRevoke.body(), "sealedCredential"), afterRevoke.body());

    }

    /** POST /api/v1/ws/token with SVC-* headers from {@code signer}. */
    private HttpResponse<String> token(final SvcRequestSigner signer, final long svcNonce, final long timestampMs,
        final String body) throws Exception
    {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        final HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create(appliance.baseUrl() + "/api/v1/ws/token")).POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        signer.sign(svcNonce, timestampMs, "POST", "/api/v1/ws/token", null, bytes.length == 0 ? null : bytes)
            .forEach(request::header);
        return http.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> executions(final String account, final String query, final String token)
        throws Exception
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(
            appliance.baseUrl() + "/api/v1/bsl/accounts/" + account + "/executions" + query)).GET();
        if (token != null)
        {
            request.header("Authorization", "Bearer " + token);
        }
        return http.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void hmacCredentialObtainsATokenThatReadsTheAccountsExecutions() throws Exception
    {
        final HttpResponse<String> created = create(
            AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()),
            Scope.TRADE, Scope.READ);
        ok(created);
        final SvcRequestSigner signer = credential(created);

        final long now = System.currentTimeMillis();
        final HttpResponse<String> issued = token(signer, 1, now, "{\"ttlMs\":1000}");
        ok(issued);
        assertEquals(owner.address().toString(), field(issued.body(), "account"));
        assertEquals("private_ws:read", field(issued.body(), "scope"));
        assertEquals("Bearer", field(issued.body(), "tokenType"));
        assertEquals("60000", field(issued.body(), "ttlMs"), "a TTL below 60 s is raised to 60 s");
        final String bearer = field(issued.body(), "token");
        assertTrue(bearer.startsWith("spws1."), bearer);

        refused(token(signer, 1, now, "{\"ttlMs\":1000}"), 409, "NONCE_REPLAYED");
        refused(token(signer, 2, now - 60_000, ""), 401, "SKEW");
        refused(token(SvcRequestSigner.hmac(field(created.body(), "apiKeyId"), opened(created).apiSecret(),
            "spp_" + "0".repeat(32)), 2, now, ""), 401, "BAD_PASSPHRASE");
        // neither refusal used nonce 2 up: only a request that passes every check takes its nonce
        final HttpResponse<String> defaults = token(signer, 2, now, "");
        ok(defaults);
        assertEquals("180000", field(defaults.body(), "ttlMs"));

        // the owner trades with itself: one trade, two executions of its account (maker and taker)
        ok(trade(owner));
        ok(http.post("/api/v1/trading/actions", VenueHttp.body(owner, owner.address(), nonce++,
            new SpotPlaceOrder(SPOT_MARKET, null, Side.ASK, 10_000 * UNIT, 1_000, null, TimeInForce.GTC, false, false,
                -1),
            PreimageMode.RAW)));

        final String account = owner.address().toString();
        final long asked = System.currentTimeMillis();
        final HttpResponse<String> anonymous = executions(account, "", null);
        final long answered = System.currentTimeMillis();
        refused(anonymous, 401, "UNAUTHORIZED");
        // the server's time, to tell an expired token from a revoked one: this machine's clock while it answered
        final long serverTimeMs = Long.parseLong(field(anonymous.body(), "serverTimeMs"));
        assertTrue(serverTimeMs >= asked && serverTimeMs <= answered,
            serverTimeMs + " not within " + asked + ".." + answered);
        assertTrue(anonymous.headers().firstValue("www-authenticate").isPresent());
        refused(executions(account, "", "spws1.forged.token"), 401, "UNAUTHORIZED");
        refused(executions(Secp256k1KeyPair.generate(new SecureRandom()).address().toString(), "", bearer),
            403, "FORBIDDEN");
        refused(executions(account, "?cursor=-1", bearer), 400, "BAD_REQUEST");
        // a query that does not decode is a 400 too, not a dropped connection (HttpClient will not send one: a
        // socket does)
        try (Socket socket = new Socket("127.0.0.1", URI.create(appliance.baseUrl()).getPort()))
        {
            socket.setSoTimeout(5_000);
            socket.getOutputStream()
                .write(("GET /api/v1/bsl/accounts/" + account + "/executions?cursor=%zz HTTP/1.1\r\nHost: x\r\n" +
                "Authorization: Bearer " + bearer + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            final String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(raw.startsWith("HTTP/1.1 400") && raw.contains("\"code\":\"BAD_REQUEST\""), raw);
        }

        final HttpResponse<String> page = executions(account, "", bearer);
        ok(page);
        assertTrue(
            page.body().contains("\"role\":\"maker\"") && page.body().contains("\"role\":\"taker\""), page.body());
        assertTrue(page.body().contains("\"end\":true"), page.body());
        final HttpResponse<String> after = executions(account, "?cursor=" + field(page.body(), "nextCursor"), bearer);
        ok(after);
        assertTrue(after.body().contains("\"executions\":[]"), after.body());

        final OwnerRevokeText revokeAll = OwnerRevokeText.builder().owner(owner.address()).nonce(nonce++)
            .issuedAtMs(System.currentTimeMillis()).chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        ok(post("/api/v1/trading/accounts/owner-revoke", new JsonWriter().field("userWalletAddress", account)
            .field("nonce", revokeAll.nonce()).field("issuedAtMs", revokeAll.issuedAtMs())
            .field("signature", sign(owner, revokeAll))
            .toJson()));
        refused(executions(account, "", bearer), 401, "UNAUTHORIZED");
        refused(token(signer, 5, System.currentTimeMillis(), ""), 401, "UNAUTHENTICATED");
    }

    /**
     * A stranger probing key ids learns nothing: an unknown key is answered as a known key's bad signature, and as a
     * known key signed with the other version; and with a stale timestamp, both are a SKEW.
     */
    @Test
    void anUnknownKeyIsAnsweredAsAKnownKeysBadSignature() throws Exception
    {
        final SecureRandom random = new SecureRandom();
        final HttpResponse<String> hmac = create(AgentKey.secp256k1(Secp256k1KeyPair.generate(random).address()),
            Scope.READ);
        ok(hmac);
        final String hmacId = field(hmac.body(), "apiKeyId");
        final Ed25519PrivateKeyParameters reader = new Ed25519PrivateKeyParameters(random);
        final HttpResponse<String> ed25519 = create(AgentKey.ed25519(reader.generatePublicKey().getEncoded()),
            Scope.READ);
        ok(ed25519);
        final String ed25519Id = field(ed25519.body(), "apiKeyId");
        final String unknownId = Credentials.newApiKeyId(random);
        final long now = System.currentTimeMillis();
        final String secret = Credentials.newApiSecret(random);
        final String passphrase = Credentials.newPassphrase(random);
        final byte[] otherSeed = new Ed25519PrivateKeyParameters(random).getEncoded();

        final HttpResponse<String> unknown = token(SvcRequestSigner.hmac(unknownId, secret, passphrase), 1, now, "");
        assertEquals(401, unknown.statusCode(), unknown.body());
        final List<HttpResponse<String>> sameAnswer = List.of(
            token(SvcRequestSigner.hmac(hmacId, secret, opened(hmac).apiPassphrase()), 1, now, ""),
            token(SvcRequestSigner.ed25519(unknownId, otherSeed), 1, now, ""),
            token(SvcRequestSigner.ed25519(ed25519Id, otherSeed), 1, now, ""),
            token(SvcRequestSigner.hmac(ed25519Id, secret, passphrase), 1, now, ""),
            token(SvcRequestSigner.ed25519(hmacId, otherSeed), 1, now, ""));
        for (final HttpResponse<String> answer : sameAnswer)
        {
            assertEquals(unknown.statusCode(), answer.statusCode(), answer.body());
            assertEquals(withoutServerTime(unknown.body()), withoutServerTime(answer.body()));
        }
        assertEquals("UNAUTHENTICATED", field(unknown.body(), "code"), unknown.body());
        assertEquals("SVC-Signature", field(unknown.body(), "field"), unknown.body());

        final HttpResponse<String> staleUnknown = token(SvcRequestSigner.hmac(unknownId, secret, passphrase), 2,
            now - 60_000, "");
        final HttpResponse<String> staleKnown = token(SvcRequestSigner.hmac(hmacId, secret, passphrase), 2,
            now - 60_000, "");
        refused(staleUnknown, 401, "SKEW");
        assertEquals(withoutServerTime(staleUnknown.body()), withoutServerTime(staleKnown.body()));
        // none of it used a nonce of the real credentials
        ok(token(credential(hmac), 1, now, ""));
        ok(token(SvcRequestSigner.ed25519(ed25519Id, reader.getEncoded()), 1, now, ""));
    }

    private static String withoutServerTime(final String body)
    {
        return body.replaceAll("\"serverTimeMs\":[0-9]+", "");
    }

    @Test
    void ed25519CredentialSignsVersionThreeAndNeedsTheReadScope() throws Exception
    {
        final Ed25519PrivateKeyParameters reader =
            new Ed25519PrivateKeyParameters(new SecureRandom());
        final HttpResponse<String> created = create(
            AgentKey.ed25519(reader.generatePublicKey().getEncoded()), Scope.READ);
        ok(created);
        final long now = System.currentTimeMillis();
        ok(token(SvcRequestSigner.ed25519(field(created.body(), "apiKeyId"), reader.getEncoded()), 7, now, ""));
        refused(token(SvcRequestSigner.ed25519(field(created.body(), "apiKeyId"),
            new Ed25519PrivateKeyParameters(new SecureRandom()).getEncoded()), 8, now, ""),
            401, "UNAUTHENTICATED");

        final Ed25519PrivateKeyParameters trader =
            new Ed25519PrivateKeyParameters(new SecureRandom());
        final HttpResponse<String> tradeOnly = create(
            AgentKey.ed25519(trader.generatePublicKey().getEncoded()), Scope.TRADE);
        ok(tradeOnly);
        refused(token(SvcRequestSigner.ed25519(field(tradeOnly.body(), "apiKeyId"), trader.getEncoded()), 1, now, ""),
            403, "SCOPE_DENIED");
    }

    private HttpResponse<String> walletToken(final Secp256k1KeyPair wallet, final long tokenNonce,
        final long issuedAtMs) throws Exception
    {
        return walletToken(wallet, owner.address(), tokenNonce, issuedAtMs);
    }

    private HttpResponse<String> walletToken(final Secp256k1KeyPair wallet, final Address account,
        final long tokenNonce, final long issuedAtMs) throws Exception
    {
        final WsTokenText text = WsTokenText.builder().owner(account).nonce(tokenNonce)
            .issuedAtMs(issuedAtMs).chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        return post("/api/v1/ws/token", new JsonWriter().field("account", account.toString()).field("nonce", tokenNonce)
            .field("issuedAtMs", issuedAtMs).field("signature", sign(wallet, text)).toJson());
    }

    @Test
    void aVaultOwnersTokenEndsWhenTheOwnerChangesAndAnAgentSignsOnlyForItsAccount() throws Exception
    {
        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // texts are taken from a second after the lane started
        final Secp256k1KeyPair operator = VenueHttp.key(appliance.operatorKeyFile());
        final Secp256k1KeyPair vaultOwner = Secp256k1KeyPair.generate(new SecureRandom());
        final String account = owner.address().toString();
        ok(http.operator(operator, 6, new SetVaultOwner(owner.address(), vaultOwner.address())));
        assertTrue(appliance.delegates().signsFor(owner.address().toBytes(), vaultOwner.address().toBytes()),
            "a vault owner is a delegate signer of its vault");
        assertFalse(appliance.delegates().signsFor(vaultOwner.address().toBytes(), owner.address().toBytes()));
        final HttpResponse<String> owned = walletToken(vaultOwner, 1, System.currentTimeMillis());
        ok(owned);
        ok(executions(account, "", field(owned.body(), "token")));
        ok(http.operator(operator, 7, new SetVaultOwner(owner.address(), null)));
        refused(executions(account, "", field(owned.body(), "token")), 401, "UNAUTHORIZED");

        // a read agent of the demo account signs for it, not for another account
        final Secp256k1KeyPair reader = Secp256k1KeyPair.generate(new SecureRandom());
        ok(create(AgentKey.secp256k1(reader.address()), Scope.READ));
        final Address other = Secp256k1KeyPair.generate(new SecureRandom()).address();
        refused(walletToken(reader, other, 2, System.currentTimeMillis()), 401, "UNAUTHORIZED_SIGNER");
        ok(walletToken(reader, owner.address(), 3, System.currentTimeMillis()));
    }

    @Test
    void aWalletSignatureObtainsATokenWithoutMachineHeaders() throws Exception
    {
        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // texts are taken from a second after the lane started
        final long now = System.currentTimeMillis();
        final HttpResponse<String> own = walletToken(owner, 1, now);
        ok(own);
        final String account = owner.address().toString();
        ok(executions(account, "", field(own.body(), "token")));
        refused(walletToken(owner, 1, now), 400, "BAD_REQUEST"); // each signed text obtains one token
        refused(walletToken(owner, 2, now - 120_000), 400, "BAD_REQUEST");

        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> foreign = walletToken(stranger, 3, now);
        refused(foreign, 401, "UNAUTHORIZED_SIGNER");
        assertEquals(stranger.address().toString(), field(foreign.body(), "recoveredSigner"));

        final Secp256k1KeyPair reader = Secp256k1KeyPair.generate(new SecureRandom());
        ok(create(AgentKey.secp256k1(reader.address()), Scope.READ));
        final HttpResponse<String> delegated = walletToken(reader, 4, now);
        ok(delegated);
        final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(new SecureRandom());
        ok(create(AgentKey.secp256k1(trader.address()), Scope.TRADE));
        refused(walletToken(trader, 5, now), 403, "SCOPE_DENIED");

        final OwnerRevokeText revokeAll = OwnerRevokeText.builder().owner(owner.address()).nonce(nonce++)
            .issuedAtMs(System.currentTimeMillis()).chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        ok(post("/api/v1/trading/accounts/owner-revoke", new JsonWriter().field("userWalletAddress", account)
            .field("nonce", revokeAll.nonce()).field("issuedAtMs", revokeAll.issuedAtMs())
            .field("signature", sign(owner, revokeAll))
            .toJson()));
        refused(executions(account, "", field(delegated.body(), "token")), 401, "UNAUTHORIZED");
        ok(executions(account, "", field(own.body(), "token")));
        refused(walletToken(reader, 6, System.currentTimeMillis()), 401, "UNAUTHORIZED_SIGNER");
    }

    @Test
    void aRefusalBeforeTheEngineCarriesTheAccountsLimiterWhichOwnerIntentsDoNotTouch() throws Exception
    {
        appliance.close();
        final Path slow = folder.resolve("slow");
        final ApplianceContext context = new ApplianceContext().dataDir(slow).httpPort(0).edgeExempt("127.0.0.1");
        ApplianceConfigFile.apply(context, "limits.account.actions", "2", slow);
        ApplianceConfigFile.apply(context, "limits.account.window.ms", "60000", slow);
        appliance = Appliance.start(context,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        owner = VenueHttp.key(appliance.demoAccountKeyFile());
        ok(trade(owner));
        ok(trade(owner));

        // signature bytes that cannot be a signature: the engine never sees it, the answer still names the bucket
        final HttpResponse<String> bad = badSignature();
        refused(bad, 401, "BAD_SIGNATURE");
        assertEquals("2", bad.headers().firstValue("x-ratelimit-limit").orElse(null));
        assertEquals("0", bad.headers().firstValue("x-ratelimit-remaining").orElse(null), "two of two taken");
        final long resetMs = Long.parseLong(bad.headers().firstValue("x-ratelimit-reset-ms").orElseThrow());
        assertTrue(resetMs > 55_000 && resetMs <= 60_000, "reset " + resetMs);

        // an owner intent does not use the limiter, and its answer must not be taken for the bucket's state
        ok(create(AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()), Scope.TRADE));
        assertEquals("0", badSignature().headers().firstValue("x-ratelimit-remaining").orElse(null));
        refused(trade(owner), 429, "rate_limited");
    }

    /** An order for the owner whose signature bytes cannot be a signature. */
    private HttpResponse<String> badSignature() throws Exception
    {
        final String good = new String(
            VenueHttp.body(owner, owner.address(), nonce++, new SpotPlaceOrder(SPOT_MARKET, null,
            Side.BID, 10_000 * UNIT, 1_000, null, TimeInForce.GTC, false, false, -1), PreimageMode.RAW),
            StandardCharsets.US_ASCII);
        return post("/api/v1/trading/actions",
            good.substring(0, good.indexOf("\"bytes\":[") + 9) + "255,".repeat(64) + "27]}}");
    }

    @Test
    void agentsAndTheirCredentialsSurviveARestart() throws Exception
    {
        final Secp256k1KeyPair agent = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> created = create(AgentKey.secp256k1(agent.address()), Scope.TRADE, Scope.READ);
        ok(created);
        final SvcRequestSigner signer = credential(created);
        final long beforeRestart = System.currentTimeMillis();
        ok(token(signer, 1, beforeRestart, ""));
        // dated ahead, within the 30 s skew: still after the restart below
        ok(token(signer, 2, beforeRestart + 20_000, ""));

        appliance.close();
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());

        // a captured request dated before the restart is refused for its date
        final HttpResponse<String> replayed = token(signer, 1, beforeRestart, "");
        refused(replayed, 401, "SKEW");
        assertEquals("SVC-Timestamp", field(replayed.body(), "field"));
        assertTrue(field(replayed.body(), "message").contains("before this node started serving"), replayed.body());
        assertTrue(Long.parseLong(field(replayed.body(), "acceptsTimestampsFromMs")) > beforeRestart, replayed.body());
        // one dated after it is a replay all the same: the key's highest nonce was kept in the node's SVC-Nonce file
        final HttpResponse<String> ahead = token(signer, 2, beforeRestart + 20_000, "");
        assertEquals(409, ahead.statusCode(), ahead.body());
        assertEquals("NONCE_REPLAYED", field(ahead.body(), "code"), ahead.body());
        // the credential is read back from the event journal and its secret derived from the same key file
        ok(token(signer, 3, System.currentTimeMillis(), ""));
        ok(trade(agent));

        // a start whose SVC-Nonce file is gone while the journal holds credentials refuses requests dated before it
        // plus the 30 s skew: a request taken before, dated ahead of the clock, cannot pass again
        final HttpResponse<String> aheadOfClock = token(signer, 4, System.currentTimeMillis() + 25_000, "");
        ok(aheadOfClock);
        appliance.close();
        Files.delete(folder.resolve("lane").resolve("svc-nonces.dat"));
        final long restartedAt = System.currentTimeMillis();
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        final HttpResponse<String> replayedAhead = token(signer, 4, restartedAt + 20_000, "");
        refused(replayedAhead, 401, "SKEW");
        assertTrue(Long.parseLong(field(replayedAhead.body(), "acceptsTimestampsFromMs")) >= restartedAt + 30_000,
            replayedAhead.body());
    }
}
