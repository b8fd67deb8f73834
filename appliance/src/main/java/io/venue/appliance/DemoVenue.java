package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.Address;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.entry.Answer;
import io.venue.journal.sbe.RejectCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;

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
    int submitSetUp(final OperatorActions actions, final long from)
    {
        final List<Action> setUp = setUp();
        for (int nonce = (int)Math.min(from, setUp.size()); nonce < setUp.size(); nonce++)
        {
            final Answer response = actions.submit(nonce, setUp.get(nonce));
            if (response.kind == Answer.Kind.REJECTED && response.code == RejectCode.NONCE_REPLAYED)
            {
                continue; // journaled already: the count of what is journaled was behind
            }
            if (!OperatorActions.isOk(response))
            {
                throw new IllegalStateException("demo set-up action " + setUp.get(nonce) + " refused: " + response);
            }
        }
        return (int)Math.max(0, setUp.size() - from);
    }

    private static Secp256k1KeyPair loadOrCreate(final Path file) throws IOException
    {
        return Secp256k1KeyPair.fromPrivateKey(KeyFiles.loadOrCreate(file,
            () -> Secp256k1KeyPair.generate(new SecureRandom()).privateKey()));
    }
}
