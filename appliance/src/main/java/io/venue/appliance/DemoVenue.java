package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.PreimageMode;
import io.venue.signing.ActionSigner;
import io.venue.transport.http.PendingSubmits;
import io.venue.transport.http.SubmitResponse;
import io.venue.verifier.VerifierPool;
import io.venue.action.Address;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.crypto.Secp256k1KeyPair;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The embedded default's venue: an operator key and a demo account key (made once, kept in {@code keys/} of the
 * data folder, readable by the owner only), and the operator actions that list two markets and fund the account.
 * Amounts are micro-units (1e6 = one unit).
 */
final class DemoVenue
{
    static final long UNIT = 1_000_000;
    static final long USDC = 1;
    static final long BTC = 2;
    static final long SPOT_MARKET = 1;
    static final long OUTCOME_MARKET = 2;
    static final long DEMO_USDC = 100_000 * UNIT;
    static final long DEMO_BTC = 10 * UNIT;

    final Secp256k1KeyPair operator;
    final Secp256k1KeyPair account;
    final Path operatorKeyFile;
    final Path accountKeyFile;

    private DemoVenue(final Path keys) throws IOException
    {
        operatorKeyFile = keys.resolve("operator.key");
        accountKeyFile = keys.resolve("demo-account.key");
        operator = loadOrCreate(operatorKeyFile);
        account = loadOrCreate(accountKeyFile);
    }

    static DemoVenue open(final Path dataDir) throws IOException
    {
        final Path keys = dataDir.resolve("keys");
        Files.createDirectories(keys);
        return new DemoVenue(keys);
    }

    /** The set-up, applied once to an empty journal: nonces 0 to 5 of the operator. */
    List<Action> setUp()
    {
        final Address demo = account.address();
        return List.of(
            new CreateAsset(USDC, "USDC"),
            new CreateAsset(BTC, "BTC"),
            // BTC priced in USDC: tick 0.01 USDC, lot and minimum 0.001 BTC
            new CreateSpotMarket(SPOT_MARKET, BTC, USDC, 10_000, 1_000, 1_000),
            // YES/NO shares settled in USDC: tick 0.01, whole shares
            new CreateOutcomeMarket(OUTCOME_MARKET, USDC, 10_000, UNIT, UNIT),
            new Deposit(demo, USDC, DEMO_USDC),
            new Deposit(demo, BTC, DEMO_BTC));
    }

    /**
     * Signs the set-up's operator actions (EIP-191) from nonce {@code from} on and submits them through the verifier
     * pool like any client, one at a time, each waiting for its answer; fails if any is refused. Action i always
     * has nonce i, so a set-up cut short by a crash is finished by submitting from the operator's next nonce.
     *
     * @return how many were submitted.
     */
    int submitSetUp(final VerifierPool pool, final PendingSubmits pending, final long chainId, final Address contract,
        final long from)
    {
        final ActionSigner signer = new ActionSigner(chainId, contract, operator);
        final List<Action> actions = setUp();
        for (int nonce = (int)Math.min(from, actions.size()); nonce < actions.size(); nonce++)
        {
            final byte[] body = CanonicalJson.signedActionBody(signer.sign(new ActionPayload(operator.address(), nonce, null,
                System.currentTimeMillis(), actions.get(nonce)), PreimageMode.PERSONAL));
            final CompletableFuture<SubmitResponse> answer = new CompletableFuture<>();
            final long correlation = pending.register(answer::complete);
            while (!pool.offer(0, correlation, body, 0, body.length))
            {
                Thread.onSpinWait();
            }
            final SubmitResponse response;
            try
            {
                response = answer.orTimeout(30, TimeUnit.SECONDS).join();
            }
            catch (final java.util.concurrent.CompletionException timedOut)
            {
                pending.forget(correlation);
                throw new IllegalStateException("demo set-up action " + actions.get(nonce) + ": no answer within 30 s", timedOut);
            }
            if (response.body().contains("\"code\":\"nonce_replayed\""))
            {
                continue; // journaled already: the count of what is journaled was behind
            }
            if (response.status() != 200 || !response.body().startsWith("{\"ok\":true"))
            {
                throw new IllegalStateException("demo set-up action " + actions.get(nonce) + " refused: " + response.body());
            }
        }
        return (int)Math.max(0, actions.size() - from);
    }

    private static Secp256k1KeyPair loadOrCreate(final Path file) throws IOException
    {
        return Secp256k1KeyPair.fromPrivateKey(KeyFiles.loadOrCreate(file,
            () -> Secp256k1KeyPair.generate(new SecureRandom()).privateKey()));
    }
}
