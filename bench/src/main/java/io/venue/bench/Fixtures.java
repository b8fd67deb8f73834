package io.venue.bench;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.signing.ActionSigner;

/**
 * Realistic inputs shared by the benchmarks: a spot order payload of the reference-vector shape and its
 * signed request body.
 */
final class Fixtures
{
    static final long CHAIN_ID = 8453;
    static final Address CONTRACT = Address.of("0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e");
    static final Secp256k1KeyPair KEY =
        Secp256k1KeyPair.fromPrivateKey(
            Hex.fromHex("0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));

    /** A delegated agent of {@link #KEY}'s account. */
    static final Secp256k1KeyPair AGENT =
        Secp256k1KeyPair.fromPrivateKey(
            Hex.fromHex("0x1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));

    private Fixtures()
    {
    }

    static ActionPayload order(final long nonce)
    {
        return new ActionPayload(KEY.address(), nonce, null, 1_763_000_000_000L + nonce,
            new SpotPlaceOrder(7, null, Side.BID, 1_500_000 + nonce % 100, 2_000_000, StpMode.CANCEL_TAKER,
                TimeInForce.GTC, false, false, SpotPlaceOrder.NO_EXPIRY));
    }

    /** Signed request bodies with distinct nonces, so no two recoveries see the same input. */
    static byte[][] signedBodies(final int count)
    {
        return signedBodies(count, KEY);
    }

    /**
     * As {@link #signedBodies(int)}, each order of {@link #KEY}'s account signed by {@code by} (an agent), in raw mode.
     */
    static byte[][] signedBodies(final int count, final Secp256k1KeyPair by)
    {
        return signedBodies(count, by, PreimageMode.RAW);
    }

    /** As {@link #signedBodies(int, Secp256k1KeyPair)}, in the given preimage mode. */
    static byte[][] signedBodies(final int count, final Secp256k1KeyPair by, final PreimageMode mode)
    {
        final ActionSigner signer = new ActionSigner(CHAIN_ID, CONTRACT, by);
        final byte[][] bodies = new byte[count][];
        for (int i = 0; i < count; i++)
        {
            bodies[i] = CanonicalJson.signedActionBody(signer.sign(order(i + 1), mode));
        }
        return bodies;
    }
}
