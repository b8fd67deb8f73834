package io.venue.verifier;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.ActionDigest;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;

import java.util.Arrays;
import java.util.Random;

/**
 * Builds correctly signed request bodies for tests.
 */
final class SignedActions
{
    static final long CHAIN_ID = 8453;
    static final Address CONTRACT = Address.of("0x" + "11".repeat(20));

    private SignedActions()
    {
    }

    static ActionPayload bid(final Address account, final long nonce)
    {
        return new ActionPayload(account, nonce, null, 1_763_000_000_000L + nonce,
            new SpotPlaceOrder(1, null, Side.BID, 1_000_000, 2_000_000, null, TimeInForce.GTC, false, false,
                SpotPlaceOrder.NO_EXPIRY));
    }

    static byte[] v2Digest(final ActionPayload payload)
    {
        final byte[] json = CanonicalJson.toBytes(payload);
        final byte[] digest = new byte[32];
        new ActionDigest(CHAIN_ID, CONTRACT).v2(json, 0, json.length, digest, 0);
        return digest;
    }

    static byte[] v1Digest(final ActionPayload payload)
    {
        final byte[] json = CanonicalJson.toBytes(payload);
        final byte[] digest = new byte[32];
        new ActionDigest(CHAIN_ID, CONTRACT).v1(json, 0, json.length, digest, 0);
        return digest;
    }

    static byte[] body(final ActionPayload payload, final byte[] signature)
    {
        return CanonicalJson.signedActionBody(new SignedAction(payload, new Signature65(signature)));
    }

    static byte[] signedBody(final Secp256k1KeyPair key, final ActionPayload payload, final PreimageMode mode)
    {
        return body(payload, new Secp256k1Signer(key).sign(v2Digest(payload), mode));
    }

    /**
     * An order of one of the four kinds a typed order carries, its fields drawn from {@code random}, of {@code key}'s
     * account, signed by it in raw mode.
     */
    static SignedAction randomOrder(final Random random, final Secp256k1KeyPair key, final long nonce)
    {
        final byte[] id = new byte[32];
        random.nextBytes(id);
        final Action action = switch (random.nextInt(4))
        {
            case 0 -> new SpotPlaceOrder(random.nextInt(1 << 20), random.nextBoolean() ? null : Book.NO,
                random.nextBoolean() ? Side.BID : Side.ASK, random.nextLong(), random.nextLong(),
                random.nextBoolean() ? null : StpMode.REJECT, TimeInForce.values()[random.nextInt(4)],
                random.nextBoolean(), random.nextBoolean(),
                random.nextBoolean() ? SpotPlaceOrder.NO_EXPIRY : random.nextLong() >>> 1);
            case 1 -> new Cancel(new OrderId(id));
            case 2 -> new Amend(new OrderId(id), random.nextLong(), random.nextLong());
            default -> new CancelByClientOrderId(new ClientOrderId(Arrays.copyOf(id, 16)));
        };
        final ActionPayload payload = new ActionPayload(key.address(), nonce,
            random.nextBoolean() ? null : new ClientOrderId(Arrays.copyOfRange(id, 16, 32)),
            1_763_000_000_000L + nonce, action);
        return new SignedAction(payload,
            new Signature65(new Secp256k1Signer(key).sign(v2Digest(payload), PreimageMode.RAW)));
    }
}
