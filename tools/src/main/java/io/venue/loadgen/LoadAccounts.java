package io.venue.loadgen;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Cancel;
import io.venue.action.Deposit;
import io.venue.action.SetFixOnboarding;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.CredentialDelivery;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.bsltcp.ClientMessages;
import io.venue.transport.http.JsonReader;
import io.venue.transport.http.OwnerIntents;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * The load's traders: fresh keys, funded by the operator over HTTP, and every action they will send signed
 * before the clock starts (signing is the client's cost, not the venue's). Each trader alternates a GTC bid
 * below the market and the cancel of that bid, so the book stays small and every action does real work: the
 * gate, the nonce window, credit, the book, the journal.
 */
public final class LoadAccounts
{
    /** Whole-unit micro scale. */
    static final long UNIT = 1_000_000;
    /** The spec's per-account limit is 50 actions per second; stay under it. */
    public static final int ACTIONS_PER_ACCOUNT_PER_SECOND = 40;

    private final Secp256k1KeyPair[] keys;
    private final long chainId;
    private final Address contract;
    private final long market;
    private final long quoteAsset;
    private final long[] nextNonce;
    private final OrderId[] lastOrder;
    /** Each trader's institutional agent credential, for the compact lane ({@link #createAgents}). */
    private SvcRequestSigner[] agents;
    /** Each trader's agent credential as issued: API key id, secret, passphrase (a FIX logon's). */
    private String[][] credentials;
    private long[] svcNonce;

    public LoadAccounts(final int count, final long chainId, final Address contract, final long market,
        final long quoteAsset)
    {
        final SecureRandom random = new SecureRandom();
        keys = new Secp256k1KeyPair[count];
        for (int i = 0; i < count; i++)
        {
            keys[i] = Secp256k1KeyPair.generate(random);
        }
        this.chainId = chainId;
        this.contract = contract;
        this.market = market;
        this.quoteAsset = quoteAsset;
        this.nextNonce = new long[count];
        this.lastOrder = new OrderId[count];
    }

    public int count()
    {
        return keys.length;
    }

    /**
     * Deposits 1,000,000 quote units to every trader, signed by the operator (EIP-191), paced under the operator's
     * own action limit. The operator's first nonce is found by asking: a refused nonce names the next usable one.
     */
    public void fund(final HttpClient client, final String submitUrl, final Secp256k1KeyPair operator) throws Exception
    {
        operatorActions(client, submitUrl, operator, i -> new Deposit(keys[i].address(), quoteAsset, 1_000_000 * UNIT),
            "funding");
    }

    /**
     * Gives every trader's agent credential ({@link #createAgents} first) a FIX onboarding record granting FIX, the
     * drop copy and every market, with no rate tier (the node's default rate) and cancel on disconnect after 5 s: a
     * FIX session of the credential may then log on (docs/FIX.md, "Onboarding record").
     */
    public void onboardFix(final HttpClient client, final String submitUrl, final Secp256k1KeyPair operator)
        throws Exception
    {
        operatorActions(client, submitUrl, operator,
            i -> new SetFixOnboarding(credentials[i][0], true, true, null, null, true, 5_000), "onboarding");
    }

    /** One operator action per trader, signed EIP-191, paced under the operator's own action limit. */
    private void operatorActions(final HttpClient client, final String submitUrl, final Secp256k1KeyPair operator,
        final IntFunction<Action> action, final String what) throws Exception
    {
        final ActionSigner signer = new ActionSigner(chainId, contract, operator);
        long nonce = -1;
        for (int i = 0; i < keys.length; )
        {
            final long tryNonce = nonce < 0 ? 0 : nonce;
            final byte[] body = CanonicalJson.signedActionBody(
                signer.sign(new ActionPayload(operator.address(), tryNonce, null,
                System.currentTimeMillis(), action.apply(i)),
                PreimageMode.PERSONAL));
            final HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(submitUrl))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
            final String text = answer.body();
            if (text.startsWith("{\"ok\":true"))
            {
                nonce = tryNonce + 1;
                i++;
                Thread.sleep(1_000 / ACTIONS_PER_ACCOUNT_PER_SECOND);
            }
            else if (text.contains("\"nextUsableNonce\":"))
            {
                nonce = Long.parseLong(text.replaceAll(".*\"nextUsableNonce\":(\\d+).*", "$1"));
            }
            else if (text.contains("\"code\":\"rate_limited\""))
            {
                Thread.sleep(1_000);
            }
            else
            {
                throw new IllegalStateException(
                    what + " trader " + i + " refused (HTTP " + answer.statusCode() + "): " + text);
            }
        }
    }

    /**
     * Makes each trader an institutional agent holding quote (POST /api/agents/create, the trader's EIP-191 intent at
     * its next nonce), whose SVC-* credential signs the trader's compact requests ({@link #svcHeaders}).
     */
    public void createAgents(final HttpClient client, final String baseUrl) throws Exception
    {
        createAgents(client, baseUrl, Scope.QUOTE);
    }

    /** As {@link #createAgents(HttpClient, String)}, the agents holding {@code scopes} (a FIX session's: trade). */
    public void createAgents(final HttpClient client, final String baseUrl, final Scope... scopes) throws Exception
    {
        agents = new SvcRequestSigner[keys.length];
        credentials = new String[keys.length][];
        svcNonce = new long[keys.length];
        for (int i = 0; i < keys.length; i++)
        {
            final long now = System.currentTimeMillis();
            final CredentialDelivery.Requester requester = new CredentialDelivery.Requester(new SecureRandom());
            final AgentAuthorizationText text = AgentAuthorizationText.builder()
                .owner(keys[i].address()).agent(AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom())
                    .address())).kind(AgentKind.INSTITUTIONAL).scopes(scopes).policy("")
                .deliveryKey(requester.keyText()).nonce(nextNonce[i]++).issuedAtMs(now)
                .expiresAtMs(now + AgentKind.DAY_MS).chainId(chainId)
                .verifyingContract(contract).build();
            final String signature = Hex.to0x(new Secp256k1Signer(keys[i])
                .sign(Eip191.personalHash(text.text()), PreimageMode.RAW));
            final String body = OwnerIntents.createBody(text, signature);
            final HttpResponse<String> answer = client.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/api/agents/create"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
            if (!answer.body().startsWith("{\"ok\":true"))
            {
                throw new IllegalStateException(
                    "agent of trader " + i + " refused (HTTP " + answer.statusCode() + "): " + answer.body());
            }
            final Map<?, ?> created = (Map<?, ?>)JsonReader.read(
                answer.body().getBytes(StandardCharsets.UTF_8));
            final String apiKeyId = (String)created.get("apiKeyId");
            final CredentialDelivery.Opened credential =
                requester.open((String)created.get("sealedCredential"), apiKeyId);
            agents[i] = SvcRequestSigner.hmac(apiKeyId, credential.apiSecret(), credential.apiPassphrase());
            credentials[i] = new String[] {apiKeyId, credential.apiSecret(), credential.apiPassphrase()};
        }
    }

    /** Trader {@code trader}'s agent credential: API key id, secret, passphrase ({@link #createAgents} first). */
    public String[] credential(final int trader)
    {
        return credentials[trader].clone();
    }

    /** Trader {@code trader}'s account, {@code 0x} and 40 hex digits. */
    public String account(final int trader)
    {
        return keys[trader].address().toString();
    }

    /** The SVC-* headers of trader {@code trader}'s next compact request (call in the order the requests are sent). */
    public Map<String, String> svcHeaders(final int trader, final String route, final byte[] body)
    {
        final Map<String, String> headers = new HashMap<>(
            agents[trader].sign(++svcNonce[trader], System.currentTimeMillis(), "POST", route, null, body));
        headers.put("Content-Type", "application/octet-stream");
        return headers;
    }

    /** Trader {@code trader}'s BSL Direct TCP login with its agent's credential, at the credential's next SVC nonce. */
    public byte[] bslLogin(final int trader)
    {
        return ClientMessages.sessionKeyLogin(agents[trader], ++svcNonce[trader], System.currentTimeMillis(), false);
    }

    /** Signatures a second this machine makes on {@code threads} threads, measured on a throwaway key. */
    public double signaturesPerSecond(final int threads)
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final ActionSigner signer = new ActionSigner(chainId, contract, key);
        final int count = 400;
        final long begin = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            signer.sign(new ActionPayload(key.address(), i, null, 0, new Cancel(OrderId.of("0x" + "00".repeat(32)))),
                PreimageMode.RAW);
        }
        return count * 1e9 / (System.nanoTime() - begin) * threads;
    }

    /**
     * The next {@code count} compact bodies of {@code orders} orders each (bid, cancel of that bid, and again),
     * round-robin over the traders. Request i's orders carry the time it is due,
     * {@code firstMs + i / requestsPerSecond}, so they are within the lane's 15 s of the server's clock however long
     * the signing takes before the run.
     */
    public byte[][] signCompact(final int count, final int orders, final int threads, final long firstMs,
        final double requestsPerSecond) throws Exception
    {
        return signEach(count, threads, (a, signer, random, i) ->
        {
            final long ts = firstMs + (long)(i * 1_000 / requestsPerSecond);
            final List<SignedAction> signed = new ArrayList<>(orders);
            for (int o = 0; o < orders; o++)
            {
                signed.add(signer.sign(next(a, signer, random, ts), PreimageMode.RAW));
            }
            return CompactOrders.encode(market, signed);
        });
    }

    /**
     * The next {@code count} signed bodies, round-robin over the traders; signed on {@code threads} threads, each
     * trader on one of them (a signer is not thread safe).
     */
    public byte[][] sign(final int count, final int threads) throws Exception
    {
        return signEach(count, threads, (a, signer, random, i) ->
            CanonicalJson.signedActionBody(
                signer.sign(next(a, signer, random, System.currentTimeMillis()), PreimageMode.RAW)));
    }

    /** Body i of trader a (i mod the traders), made with the trader's signer on the thread that owns the trader. */
    private interface BodyMaker
    {
        byte[] make(int account, ActionSigner signer, SplittableRandom random, int index) throws Exception;
    }

    private byte[][] signEach(final int count, final int threads, final BodyMaker maker) throws Exception
    {
        final int accounts = keys.length;
        final byte[][] bodies = new byte[count][];
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try
        {
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int thread = t;
                done.add(pool.submit(() ->
                {
                    final SplittableRandom random = new SplittableRandom(thread);
                    for (int a = thread; a < accounts; a += threads)
                    {
                        final ActionSigner signer = new ActionSigner(chainId, contract, keys[a]);
                        for (int i = a; i < count; i += accounts)
                        {
                            bodies[i] = maker.make(a, signer, random, i);
                        }
                    }
                    return null;
                }));
            }
            for (final Future<?> f : done)
            {
                f.get();
            }
        }
        finally
        {
            pool.shutdown();
        }
        return bodies;
    }

    /** The trader's next action: a bid, or the cancel of its last bid. */
    private ActionPayload next(final int account, final ActionSigner signer,
        final SplittableRandom random, final long ts)
    {
        final long nonce = nextNonce[account]++;
        final ActionPayload payload;
        if (lastOrder[account] == null)
        {
            // a bid at one of 200 prices from 1,000.00 to 1,019.90 quote units for 0.001 base: it rests (far below the
            // demo's trading) and the levels stay under the book's 1,000 per side, so none is pruned
            final long price = (100_000 + 10 * random.nextInt(200)) * 10_000L;
            payload = new ActionPayload(keys[account].address(), nonce, null, ts,
                new SpotPlaceOrder(market, null, Side.BID, price, 1_000, null, TimeInForce.GTC, false, false, -1));
            lastOrder[account] = OrderId.of(Hex.to0x(signer.digestV2(payload)));
        }
        else
        {
            payload = new ActionPayload(keys[account].address(), nonce, null, ts, new Cancel(lastOrder[account]));
            lastOrder[account] = null;
        }
        return payload;
    }
}
