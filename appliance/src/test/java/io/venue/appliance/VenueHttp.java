package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.SetFixOnboarding;
import io.venue.action.ActionPayload;
import io.venue.action.Deposit;
import io.venue.action.Address;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.CredentialDelivery;
import io.venue.auth.Scope;
import io.venue.crypto.Eip191;
import io.venue.crypto.Secp256k1Signer;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import io.venue.codec.JsonWriter;
import io.venue.testing.ChildJvm;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.junit.jupiter.api.Assertions;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** A client of the appliance's HTTP lane for tests: Java's HttpClient, real signatures. */
final class VenueHttp
{
    final String baseUrl;
    final HttpClient client;

    VenueHttp(final String baseUrl)
    {
        this(baseUrl, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    /** Over a client of the caller's (one trusting a test's TLS certificate). */
    VenueHttp(final String baseUrl, final HttpClient client)
    {
        this.baseUrl = baseUrl;
        this.client = client;
    }

    /** The base URL an appliance started as a child process prints once it serves. */
    static String servingUrl(final ChildJvm child) throws InterruptedException
    {
        return child.awaitLine("venue appliance serving on ", 60).substring("venue appliance serving on ".length());
    }

    static Secp256k1KeyPair key(final Path file) throws IOException
    {
        return Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(Files.readString(file, StandardCharsets.US_ASCII).trim()));
    }

    /** The signed body of {@code action} for {@code account}, signed by {@code signer}. */
    static byte[] body(final Secp256k1KeyPair signer, final Address account, final long nonce, final Action action,
        final PreimageMode mode)
    {
        final ActionSigner s = new ActionSigner(ApplianceContext.DEMO_CHAIN_ID, ApplianceContext.DEMO_CONTRACT, signer);
        return CanonicalJson.signedActionBody(
            s.sign(new ActionPayload(account, nonce, null, System.currentTimeMillis(), action), mode));
    }

    HttpResponse<String> submit(final Secp256k1KeyPair key, final long nonce, final Action action) throws Exception
    {
        return post("/api/v1/trading/actions", body(key, key.address(), nonce, action, PreimageMode.RAW));
    }

    /** Operator actions are signed in EIP-191 personal mode (DESIGN.md section 6). */
    HttpResponse<String> operator(final Secp256k1KeyPair key, final long nonce, final Action action) throws Exception
    {
        return post("/api/v1/trading/actions", body(key, key.address(), nonce, action, PreimageMode.PERSONAL));
    }

    /**
     * A new trader holding 100,000 USDC and 10 BTC, deposited by {@code operator} with the nonces {@code nonce} and
     * {@code nonce + 1}; each deposit must be accepted.
     */
    Secp256k1KeyPair fundedTrader(final Secp256k1KeyPair operator, final long nonce) throws Exception
    {
        final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(new SecureRandom());
        accepted(operator(operator, nonce, new Deposit(trader.address(), DemoVenue.USDC, 100_000 * DemoVenue.UNIT)));
        accepted(operator(operator, nonce + 1, new Deposit(trader.address(), DemoVenue.BTC, 10 * DemoVenue.UNIT)));
        return trader;
    }

    /**
     * Sets the credential's FIX onboarding record (the operator's SetFixOnboarding, docs/FIX.md "Onboarding record"),
     * signed by {@code operator} with {@code nonce}; it must be accepted.
     */
    void onboardFix(final Secp256k1KeyPair operator, final long nonce, final SetFixOnboarding record) throws Exception
    {
        accepted(operator(operator, nonce, record));
    }

    /** A record granting FIX, drop copy and every market, the node's default rate, the policy with this grace. */
    static SetFixOnboarding fullFix(final Credential credential, final long graceMs)
    {
        return new SetFixOnboarding(credential.apiKeyId(), true, true, null, null, true, graceMs);
    }

    private static void accepted(final HttpResponse<String> response)
    {
        Assertions.assertEquals(200, response.statusCode(), response.body());
        Assertions.assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    HttpResponse<String> post(final String path, final byte[] body) throws Exception
    {
        return client.send(postRequest(path, body), HttpResponse.BodyHandlers.ofString());
    }

    /** As {@link #post}, without waiting for the answer: for requests that must reach the appliance together. */
    CompletableFuture<HttpResponse<String>> postAsync(final String path, final byte[] body)
    {
        return client.sendAsync(postRequest(path, body), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest postRequest(final String path, final byte[] body)
    {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    /** A new HMAC credential as its requester reads it: the id, and the secret and passphrase it opened. */
    record Credential(String apiKeyId, String apiSecret, String apiPassphrase)
    {
        SvcRequestSigner signer()
        {
            return SvcRequestSigner.hmac(apiKeyId, apiSecret, apiPassphrase);
        }
    }

    /** An HMAC credential of a new agent of {@code owner}, of this kind and scopes, created over the agent route. */
    SvcRequestSigner agentCredential(final Secp256k1KeyPair owner, final long nonce, final AgentKind kind,
        final Scope... scopes) throws Exception
    {
        return newCredential(owner, nonce, kind, scopes).signer();
    }

    /** As {@link #agentCredential}, the credential's parts. */
    Credential newCredential(final Secp256k1KeyPair owner, final long nonce, final AgentKind kind,
        final Scope... scopes) throws Exception
    {
        final long now = System.currentTimeMillis();
        final CredentialDelivery.Requester requester = new CredentialDelivery.Requester(new SecureRandom());
        final AgentAuthorizationText text = AgentAuthorizationText.builder().owner(owner.address())
            .agent(AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()))
            .kind(kind).scopes(scopes).policy("").deliveryKey(requester.keyText()).nonce(nonce).issuedAtMs(now)
            .expiresAtMs(now + AgentKind.DAY_MS)
            .chainId(ApplianceContext.DEMO_CHAIN_ID)
            .verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        final StringBuilder scopeList = new StringBuilder();
        for (final Scope scope : scopes)
        {
            scopeList.append(scopeList.length() == 0 ? "" : ",").append('"').append(scope.wire()).append('"');
        }
        final String signature = Hex.to0x(
            new Secp256k1Signer(owner).sign(Eip191.personalHash(text.text()), PreimageMode.RAW));
        final HttpResponse<String> created = post("/api/agents/create", new JsonWriter()
            .field("userWalletAddress", owner.address().toString()).field("agent", text.agent().text())
            .field("agentKind", kind.wire()).raw("scopes", "[" + scopeList + "]").field("policy", "")
            .field("deliveryKey", requester.keyText()).field("nonce", text.nonce()).field("issuedAtMs", now)
            .field("expiresAtMs", text.expiresAtMs())
            .raw("authorization", new JsonWriter().field("signature", signature).toJson())
            .toJson().getBytes(StandardCharsets.UTF_8));
        if (created.statusCode() != 200)
        {
            throw new IllegalStateException("agent not created: " + created.body());
        }
        final CredentialDelivery.Opened opened =
            requester.open(field(created.body(), "sealedCredential"), field(created.body(), "apiKeyId"));
        return new Credential(field(created.body(), "apiKeyId"), opened.apiSecret(), opened.apiPassphrase());
    }

    /** Creates an agent with an Ed25519 key (no secret, no passphrase: spec 2.5) and returns its API key id. */
    String ed25519AgentKeyId(final Secp256k1KeyPair owner, final long nonce, final AgentKind kind,
        final Scope... scopes) throws Exception
    {
        final long now = System.currentTimeMillis();
        final AgentKey key = AgentKey.ed25519(new Ed25519PrivateKeyParameters(new SecureRandom()).generatePublicKey()
            .getEncoded());
        final AgentAuthorizationText text = AgentAuthorizationText.builder().owner(owner.address()).agent(key)
            .kind(kind).scopes(scopes).policy("").deliveryKey(null).nonce(nonce).issuedAtMs(now)
            .expiresAtMs(now + AgentKind.DAY_MS).chainId(ApplianceContext.DEMO_CHAIN_ID)
            .verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        final StringBuilder scopeList = new StringBuilder();
        for (final Scope scope : scopes)
        {
            scopeList.append(scopeList.length() == 0 ? "" : ",").append('"').append(scope.wire()).append('"');
        }
        final String signature = Hex.to0x(
            new Secp256k1Signer(owner).sign(Eip191.personalHash(text.text()), PreimageMode.RAW));
        final HttpResponse<String> created = post("/api/agents/create", new JsonWriter()
            .field("userWalletAddress", owner.address().toString()).field("agent", key.text())
            .field("agentKind", kind.wire()).raw("scopes", "[" + scopeList + "]").field("policy", "")
            .field("deliveryKey", text.deliveryKey()).field("nonce", text.nonce()).field("issuedAtMs", now)
            .field("expiresAtMs", text.expiresAtMs())
            .raw("authorization", new JsonWriter().field("signature", signature).toJson())
            .toJson().getBytes(StandardCharsets.UTF_8));
        if (created.statusCode() != 200)
        {
            throw new IllegalStateException("agent not created: " + created.body());
        }
        return field(created.body(), "apiKeyId");
    }

    /** POST with the SVC-* headers of {@code signer} over the route and body, and {@code headers}. */
    HttpResponse<String> svcPost(final SvcRequestSigner signer, final long svcNonce, final String route,
        final byte[] body, final Map<String, String> headers) throws Exception
    {
        return client.send(svcPostRequest(signer, svcNonce, route, body, headers),
            HttpResponse.BodyHandlers.ofString());
    }

    /** As {@link #svcPost}, without waiting for the answer. */
    CompletableFuture<HttpResponse<String>> svcPostAsync(final SvcRequestSigner signer, final long svcNonce,
        final String route, final byte[] body, final Map<String, String> headers)
    {
        return client.sendAsync(svcPostRequest(signer, svcNonce, route, body, headers),
            HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest svcPostRequest(final SvcRequestSigner signer, final long svcNonce, final String route,
        final byte[] body, final Map<String, String> headers)
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + route))
            .timeout(Duration.ofSeconds(30)) .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        signer.sign(svcNonce, System.currentTimeMillis(), "POST", route, null, body).forEach(request::header);
        headers.forEach(request::header);
        return request.build();
    }

    /** Polls GET /api/v1/bsl/sessions until it lists none or {@code waitMs} pass; the last body read. */
    String awaitNoBslSessions(final long waitMs) throws Exception
    {
        final String none = "{\"ok\":true,\"sessions\":[]}";
        final long deadline = System.nanoTime() + waitMs * 1_000_000L;
        String body = get("/api/v1/bsl/sessions").body();
        while (!body.equals(none) && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            body = get("/api/v1/bsl/sessions").body();
        }
        return body;
    }

    HttpResponse<String> get(final String path) throws Exception
    {
        return client.send(
            HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }

    /** The value of a top-level string or number field, by text search (bodies are flat JSON we wrote). */
    static String field(final String json, final String name)
    {
        final String key = "\"" + name + "\":";
        final int at = json.indexOf(key);
        if (at < 0)
        {
            return null;
        }
        int start = at + key.length();
        if (json.charAt(start) == '"')
        {
            return json.substring(start + 1, json.indexOf('"', start + 1));
        }
        int end = start;
        while (end < json.length() && ",}]".indexOf(json.charAt(end)) < 0)
        {
            end++;
        }
        return json.substring(start, end);
    }
}
