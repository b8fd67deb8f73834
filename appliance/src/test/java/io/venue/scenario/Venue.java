package io.venue.scenario;

import io.venue.action.Action;
import io.venue.action.Address;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.HaltMarket;
import io.venue.action.KillScope;
import io.venue.action.SetKillSwitch;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.appliance.Appliance;
import io.venue.appliance.ApplianceConfigFile;
import io.venue.appliance.ApplianceContext;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.CredentialDelivery;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.AgentRevocationText;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.svc.SvcRequestSigner;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real appliance in this JVM (HTTP on a loopback port, journals and state in a temporary folder) and what the
 * scenarios need of it besides a lane: the operator's set-up (fresh markets, funded traders, halts, kill switches) over
 * the operator's route, delegated agents over the agent routes, and the lane-independent reads (where an order stands,
 * an account's nonce window). Every scenario makes its own traders and markets, so scenarios share a venue without
 * seeing each other's orders.
 */
public final class Venue implements AutoCloseable
{
    public static final long UNIT = 1_000_000;
    /** The demo venue's assets (DemoVenue): USDC and BTC. */
    public static final long USDC = 1;
    public static final long BTC = 2;
    /** The demo venue's own spot market, listed from the start. */
    public static final long DEMO_SPOT_MARKET = 1;
    /** What {@link #newTrader} deposits. */
    public static final long TRADER_USDC = 100_000 * UNIT;
    public static final long TRADER_BTC = 10 * UNIT;
    /** A fresh spot market's rules: BTC in USDC, tick 0.01 USDC, lot and minimum 0.001 BTC. */
    public static final long SPOT_TICK = 10_000;
    public static final long SPOT_LOT = 1_000;
    /** A fresh outcome market's rules: tick 0.01, whole shares. */
    public static final long OUTCOME_TICK = 10_000;
    public static final long OUTCOME_LOT = UNIT;

    /** The configurations the scenarios run on; each a set of appliance settings (docs/OPERATIONS.md) over the demo. */
    public enum Profile
    {
        /**
         * Limits small enough for a scenario to reach, and far above what a scenario's fresh trader does otherwise: 5
         * open orders per account and market, 20 actions per account a minute on the trading route, 30 a minute on the
         * MM lane.
         */
        MAIN(Map.of("limits.open.orders.account.market", "5", "limits.account.actions", "20",
            "limits.account.window.ms", "60000", "mm.account.actions", "30", "mm.window.ms", "60000")),
        /** Two matching shards with spec 8.6's admission: a 10% haircut, 50,000 USDC per account, 20,000 per market. */
        CROSS_SHARD(Map.of("engine.shards", "2", "mm.cross.shard.credit.enabled", "true",
            "mm.cross.shard.credit.haircut.ppm", "100000",
            "mm.cross.shard.credit.max.account.locked", Long.toString(50_000 * UNIT),
            "mm.cross.shard.credit.max.market.locked", Long.toString(20_000 * UNIT))),
        /** Two matching shards with the cross-shard credit kill switch on. */
        CROSS_SHARD_KILL_SWITCH(Map.of("engine.shards", "2", "mm.cross.shard.credit.enabled", "true",
            "mm.cross.shard.credit.kill.switch", "true")),
        /** Loopback not exempt from the edge throttle: 1 request a second, a burst of 5. */
        EDGE(Map.of("edge.ip.exempt", "192.0.2.1", "edge.ip.rate", "1", "edge.ip.burst", "5")),
        /**
         * A shard is busy as soon as it is one command behind the journal; books deep enough to keep it busy a while.
         */
        BUSY(Map.of("shard.busy.backlog", "0", "limits.orders.per.book", "16384")),
        /**
         * One pre-batched request at a time, every request of more than one order pre-batched; windows out of the way.
         */
        BACKLOG(Map.of("mm.low.latency.max.actions", "1", "mm.prebatched.max.batches", "1", "mm.account.actions",
            "100000000", "mm.key.actions", "100000000", "mm.ip.actions", "100000000", "mm.market.actions", "100000000",
            "mm.shard.actions", "100000000")),
        /** Answers time out after 1 ms (the lane sweeps for late answers every 100 ms). */
        IMPATIENT(Map.of("answer.timeout.ms", "1", "mm.account.actions", "100000000", "mm.key.actions", "100000000",
            "mm.ip.actions", "100000000", "mm.market.actions", "100000000", "mm.shard.actions", "100000000"));

        final Map<String, String> settings;

        Profile(final Map<String, String> settings)
        {
            this.settings = settings;
        }
    }

    /** Settings every venue of the scenarios has: room for a fresh market per scenario, small books. */
    private static final Map<String, String> COMMON = Map.of("limits.markets", "200", "limits.orders.per.book", "64",
        "limits.levels.per.side", "64", "lanes", "http,bsl-tcp", "bsl.tcp.port", "0", "bsl.tcp.heartbeat.ms", "60000");

    final Appliance appliance;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Trader operator;
    private final Path data;
    /** This client's delivery key: the new HMAC credentials' secrets are sealed to it. */
    private final CredentialDelivery.Requester deliveryKey = new CredentialDelivery.Requester(new SecureRandom());
    private final AtomicLong nextMarket = new AtomicLong(3); // the demo lists markets 1 and 2

    private Venue(final Appliance appliance, final Path data) throws Exception
    {
        this.appliance = appliance;
        this.data = data;
        final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(
            Files.readString(appliance.operatorKeyFile(), StandardCharsets.US_ASCII).trim()));
        // operator actions are signed in EIP-191 personal mode (DESIGN.md section 6), from the operator's next nonce
        operator = Trader.of(key, nonceWindow(key.address()).nextUsable(), PreimageMode.PERSONAL);
    }

    /**
     * The demo venue with this profile's settings (over {@link #COMMON}), loopback exempt from the edge throttle unless
     * the profile says otherwise, in a new temporary folder deleted when it closes.
     */
    static Venue start(final Profile profile) throws Exception
    {
        final Path folder = Files.createTempDirectory("venue-" + profile.name().toLowerCase(Locale.ROOT) + "-");
        final Map<String, String> settings = new LinkedHashMap<>(COMMON);
        settings.putAll(profile.settings);
        final ApplianceContext context = new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1");
        settings.forEach((key, value) -> ApplianceConfigFile.apply(context, key, value, folder));
        final Appliance appliance = Appliance.start(context, new PrintStream(OutputStream.nullOutputStream()));
        try
        {
            return new Venue(appliance, folder);
        }
        catch (final Exception | AssertionError ex)
        {
            appliance.close();
            deleteTree(folder);
            throw ex;
        }
    }

    String baseUrl()
    {
        return appliance.baseUrl();
    }

    // ---- the operator's set-up ----

    /**
     * An operator action over the operator's route, signed by the operator key. An answer that timed out (504, on a
     * venue that answers impatiently) is asked for again on the action status route, as docs/API.md tells a client to.
     */
    Result admin(final Action action) throws Exception
    {
        final SignedAction signed = operator.sign(action);
        final Result answer = Result.of(setUp("/api/v1/admin/actions", CanonicalJson.signedActionBody(signed)));
        return answer.status() == 504 ? decided(operator.digest(signed)) : answer;
    }

    /**
     * A set-up request: sent again while the venue refuses it 503 SHARD_BUSY (refused before verification, so nothing
     * of it was used), as a client would after its Retry-After; on a venue whose shard is busy one command behind, even
     * a request sent after the last answer can find the engine not yet done with its command.
     */
    private HttpResponse<String> setUp(final String path, final byte[] body) throws Exception
    {
        HttpResponse<String> response = post(path, body, Map.of());
        for (int tries = 0;
            tries < 100 && response.statusCode() == 503 && response.body().contains("\"SHARD_BUSY\""); tries++)
        {
            Thread.sleep(5);
            response = post(path, body, Map.of());
        }
        return response;
    }

    /**
     * The answer the venue kept for the action with this digest (GET /api/v1/trading/actions/{digest}), once decided.
     */
    @SuppressWarnings("unchecked")
    Result decided(final String digest) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true)
        {
            final HttpResponse<String> status = get("/api/v1/trading/actions/" + digest);
            if (status.statusCode() == 200)
            {
                final Map<String, Object> found = Result.parse(status.body());
                return Result.of(((Long)found.get("httpStatus")).intValue(), (Map<String, Object>)found.get("answer"),
                    status.body(), Map.of());
            }
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no answer kept for " + digest + ": " + status.body());
            }
            Thread.sleep(10);
        }
    }

    private void adminOk(final Action action) throws Exception
    {
        final Result result = admin(action);
        assertTrue(result.accepted(), () -> "set-up action " + action + " refused: " + result);
    }

    /** A fresh wallet with {@link #TRADER_USDC} and {@link #TRADER_BTC} deposited. */
    Trader newTrader() throws Exception
    {
        final Trader trader = Trader.fresh();
        adminOk(new Deposit(trader.account, USDC, TRADER_USDC));
        adminOk(new Deposit(trader.account, BTC, TRADER_BTC));
        return trader;
    }

    /** A fresh BTC-USDC spot market nobody else trades on. */
    long newSpotMarket() throws Exception
    {
        final long market = nextMarket.getAndIncrement();
        adminOk(new CreateSpotMarket(market, BTC, USDC, SPOT_TICK, SPOT_LOT, SPOT_LOT));
        return market;
    }

    /** A fresh YES/NO outcome market settled in USDC. */
    long newOutcomeMarket() throws Exception
    {
        final long market = nextMarket.getAndIncrement();
        adminOk(new CreateOutcomeMarket(market, USDC, OUTCOME_TICK, OUTCOME_LOT, OUTCOME_LOT));
        return market;
    }

    void halt(final long market) throws Exception
    {
        adminOk(new HaltMarket(market));
    }

    void killSwitch(final Address account, final boolean on) throws Exception
    {
        adminOk(new SetKillSwitch(KillScope.ACCOUNT, account, SetKillSwitch.NO_MARKET, on));
    }

    /** Splits {@code qty} of the trader's collateral into YES and NO shares, on the trading route (a set-up step). */
    void split(final Trader trader, final long market, final long qty) throws Exception
    {
        setUp(trader, new Split(market, qty));
    }

    /**
     * Rests {@code orders} bids of one lot at one tick on the market (batches of 1,000 on the trading route; a
     * set-up step).
     */
    void rest(final Trader trader, final long market, final int orders) throws Exception
    {
        for (int placed = 0; placed < orders; placed += 1_000)
        {
            final List<BatchLeg> legs = new ArrayList<>();
            for (int i = placed; i < Math.min(orders, placed + 1_000); i++)
            {
                legs.add(new SpotPlaceOrder(market, null, Side.BID, SPOT_TICK, SPOT_LOT, null,
                    TimeInForce.GTC, false, false, -1));
            }
            final Result batch = setUp(trader, new Batch(legs));
            assertTrue(batch.legRejects().isEmpty(), () -> "orders not rested: " + batch);
        }
    }

    /** The trader's {@code action} on the trading route, which must be accepted (a set-up step). */
    Result setUp(final Trader trader, final Action action) throws Exception
    {
        final Result answer = Result.of(setUp(JsonLane.ROUTE, CanonicalJson.signedActionBody(trader.sign(action))));
        assertTrue(answer.accepted(), () -> "set-up action " + action + " refused: " + answer);
        return answer;
    }

    /** Sends the trader's {@code action} on the trading route without waiting for its answer (a set-up step). */
    java.util.concurrent.CompletableFuture<HttpResponse<String>> sendAsync(final Trader trader, final Action action)
    {
        return http.sendAsync(
            postRequest(JsonLane.ROUTE, CanonicalJson.signedActionBody(trader.sign(action)), Map.of()),
            HttpResponse.BodyHandlers.ofString());
    }

    // ---- delegated agents (docs/API.md, "Agents") ----

    /**
     * The answer to an agent create for {@code owner}, signed by {@code signedBy} (the owner's wallet, unless testing
     * a forgery).
     */
    Result createAgent(final Trader owner, final Secp256k1KeyPair signedBy, final AgentKey agent, final AgentKind kind,
        final Scope... scopes) throws Exception
    {
        final long now = System.currentTimeMillis();
        final AgentAuthorizationText text = AgentAuthorizationText.builder().owner(owner.account)
            .agent(agent).kind(kind).deliveryKey(agent.isEd25519() ? null : deliveryKey.keyText())
            .scopes(scopes).policy("").nonce(owner.nextNonce()).issuedAtMs(now).expiresAtMs(now + AgentKind.DAY_MS)
            .chainId(ApplianceContext.DEMO_CHAIN_ID).verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        final StringBuilder scopeList = new StringBuilder();
        for (final Scope scope : scopes)
        {
            scopeList.append(scopeList.length() == 0 ? "" : ",").append('"').append(scope.wire()).append('"');
        }
        return Result.of(
            setUp("/api/agents/create", new JsonWriter().field("userWalletAddress", owner.account.toString())
            .field("agent", agent.text()).field("agentKind", kind.wire()).raw("scopes", "[" + scopeList + "]")
            .field("policy", "").field("deliveryKey", text.deliveryKey())
            .field("nonce", text.nonce()).field("issuedAtMs", now).field("expiresAtMs", text.expiresAtMs())
            .raw("authorization", new JsonWriter().field("signature", ownerSignature(signedBy, text.text())).toJson())
            .toJson().getBytes(StandardCharsets.UTF_8)));
    }

    /** A new secp256k1 agent of {@code owner} holding {@code scopes}: its key signs actions for the owner's account. */
    Secp256k1KeyPair newAgentKey(final Trader owner, final Scope... scopes) throws Exception
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final Result created = createAgent(owner, owner.wallet, AgentKey.secp256k1(key.address()),
            AgentKind.API, scopes);
        assertTrue(created.accepted(), () -> "agent not created: " + created);
        return key;
    }

    /** A new agent's HMAC machine credential (SVC-* headers, auth version 2) of this kind and scopes. */
    SvcRequestSigner newCredential(final Trader owner, final AgentKind kind, final Scope... scopes) throws Exception
    {
        Result created;
        int tries = 0;
        do
        {
            // a credential is in the create's answer only: one that timed out (504) is lost, so another agent is made
            final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
            created = createAgent(owner, owner.wallet, AgentKey.secp256k1(key.address()), kind, scopes);
        }
        while (created.status() == 504 && ++tries < 5);
        final Result answer = created;
        assertTrue(answer.accepted(), () -> "agent not created: " + answer);
        final String apiKeyId = (String)answer.answer().get("apiKeyId");
        final CredentialDelivery.Opened opened =
            deliveryKey.open((String)answer.answer().get("sealedCredential"), apiKeyId);
        return SvcRequestSigner.hmac(apiKeyId, opened.apiSecret(), opened.apiPassphrase());
    }

    /** The answer to revoking {@code agentId} of {@code owner}. */
    Result revokeAgent(final Trader owner, final String agentId) throws Exception
    {
        final long now = System.currentTimeMillis();
        final AgentRevocationText text = AgentRevocationText.builder().owner(owner.account).agentId(agentId)
            .nonce(owner.nextNonce()).issuedAtMs(now).chainId(ApplianceContext.DEMO_CHAIN_ID)
            .verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        return Result.of(
            setUp("/api/agents/revoke", new JsonWriter().field("userWalletAddress", owner.account.toString())
            .field("agentId", agentId).field("nonce", text.nonce()).field("issuedAtMs", now)
            .field("signature", ownerSignature(owner.wallet, text.text())).toJson().getBytes(StandardCharsets.UTF_8)));
    }

    private static String ownerSignature(final Secp256k1KeyPair key, final String text)
    {
        return Hex.to0x(new Secp256k1Signer(key).sign(Eip191.personalHash(text), PreimageMode.RAW));
    }

    // ---- the lane-independent reads ----

    /** Where an order stands (GET /api/v1/trading/orders/{id}), as the events last reported it. */
    public record OrderView(String status, long price, long qty, long remaining, long filled, String side, long market,
        String book, String account)
    {
    }

    /** An account's nonce window (GET /api/v1/trading/accounts/{account}/nonce). */
    public record NonceView(long floor, long window, long nextUsable, boolean seen)
    {
    }

    OrderView order(final String orderId) throws Exception
    {
        final HttpResponse<String> response = get("/api/v1/trading/orders/" + orderId);
        if (response.statusCode() != 200)
        {
            throw new AssertionError(
                "order " + orderId + " not known: " + response.statusCode() + " " + response.body());
        }
        @SuppressWarnings("unchecked") final Map<String, Object> order =
            (Map<String, Object>)Result.parse(response.body())
            .get("order");
        return new OrderView((String)order.get("status"), (Long)order.get("price"), (Long)order.get("qty"),
            (Long)order.get("remaining"), (Long)order.get("filled"), (String)order.get("side"),
            (Long)order.get("market"), (String)order.get("book"), (String)order.get("account"));
    }

    NonceView nonceWindow(final Address account) throws Exception
    {
        final Map<String, Object> window = Result.parse(get("/api/v1/trading/accounts/" + account + "/nonce").body());
        return new NonceView((Long)window.get("nonceFloor"), (Long)window.get("nonceWindow"),
            (Long)window.get("nextUsableNonce"), (Boolean)window.get("seen"));
    }

    // ---- HTTP ----

    HttpResponse<String> get(final String path) throws Exception
    {
        return http.send(
            HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(30)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(final String path, final byte[] body, final Map<String, String> headers) throws Exception
    {
        return http.send(postRequest(path, body, headers), HttpResponse.BodyHandlers.ofString());
    }

    HttpRequest postRequest(final String path, final byte[] body, final Map<String, String> headers)
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
            .timeout(Duration.ofSeconds(30)) .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (!headers.containsKey("Content-Type"))
        {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        return request.build();
    }

    /**
     * Sends every request at once (each on a connection of its own, as the client opens them) and waits for
     * all answers.
     */
    List<HttpResponse<String>> postAll(final List<HttpRequest> requests) throws Exception
    {
        final List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (final HttpRequest request : requests)
        {
            sent.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        final List<HttpResponse<String>> answers = new ArrayList<>();
        for (final CompletableFuture<HttpResponse<String>> answer : sent)
        {
            answers.add(answer.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    @Override
    public void close() throws IOException
    {
        appliance.close();
        deleteTree(data);
    }

    static void deleteTree(final Path root) throws IOException
    {
        if (!Files.exists(root))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
