package io.venue.verifier;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.ActionDigest;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;

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
            new SpotPlaceOrder(1, null, Side.BID, 1_000_000, 2_000_000, null, TimeInForce.GTC, false, false, SpotPlaceOrder.NO_EXPIRY));
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
}
