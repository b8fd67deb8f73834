package io.venue.loadgen;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Cancel;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.signing.ActionSigner;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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

    public LoadAccounts(final int count, final long chainId, final Address contract, final long market, final long quoteAsset)
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
        final ActionSigner signer = new ActionSigner(chainId, contract, operator);
        long nonce = -1;
        for (int i = 0; i < keys.length; )
        {
            final long tryNonce = nonce < 0 ? 0 : nonce;
            final byte[] body = CanonicalJson.signedActionBody(signer.sign(new ActionPayload(operator.address(), tryNonce, null,
                System.currentTimeMillis(), new Deposit(keys[i].address(), quoteAsset, 1_000_000 * UNIT)), PreimageMode.PERSONAL));
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
                throw new IllegalStateException("funding trader " + i + " refused (HTTP " + answer.statusCode() + "): " + text);
            }
        }
    }

    /**
     * The next {@code count} signed bodies, round-robin over the traders; signed on {@code threads} threads, each
     * trader on one of them (a signer is not thread safe).
     */
    public byte[][] sign(final int count, final int threads) throws Exception
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
                            bodies[i] = next(a, signer, random);
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

    private byte[] next(final int account, final ActionSigner signer, final SplittableRandom random)
    {
        final long nonce = nextNonce[account]++;
        final ActionPayload payload;
        if (lastOrder[account] == null)
        {
            // a bid at one of 200 prices from 1,000.00 to 1,019.90 quote units for 0.001 base: it rests (far below the
            // demo's trading) and the levels stay under the book's 1,000 per side, so none is pruned
            final long price = (100_000 + 10 * random.nextInt(200)) * 10_000L;
            payload = new ActionPayload(keys[account].address(), nonce, null, System.currentTimeMillis(),
                new SpotPlaceOrder(market, null, Side.BID, price, 1_000, null, TimeInForce.GTC, false, false, -1));
            lastOrder[account] = OrderId.of(Hex.to0x(signer.digestV2(payload)));
        }
        else
        {
            payload = new ActionPayload(keys[account].address(), nonce, null, System.currentTimeMillis(), new Cancel(lastOrder[account]));
            lastOrder[account] = null;
        }
        return CanonicalJson.signedActionBody(signer.sign(payload, PreimageMode.RAW));
    }
}
