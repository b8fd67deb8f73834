package io.venue.crypto;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;

/**
 * Deterministic (RFC 6979, HMAC-SHA256) secp256k1 signing into the 65-byte r || s || v form the venue
 * accepts: s normalized to the low half, v = 27 + recovery id. Same key and hash give the same bytes
 * as other RFC 6979 Ethereum signers. For tools and tests, not the hot path.
 * <p>
 * Not thread safe.
 */
public final class Secp256k1Signer
{
    private final Secp256k1KeyPair keyPair;
    private final ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
    private final Keccak256 keccak = new Keccak256();
    private final byte[] digest = new byte[32];

    public Secp256k1Signer(final Secp256k1KeyPair keyPair)
    {
        this.keyPair = keyPair;
        signer.init(true, new ECPrivateKeyParameters(keyPair.privateKeyValue(), Secp256k1Curve.DOMAIN));
    }

    public Secp256k1KeyPair keyPair()
    {
        return keyPair;
    }

    /** Signs the 32-byte hash directly ({@link PreimageMode#RAW}); returns 65 bytes. */
    public byte[] sign(final byte[] hash)
    {
        return sign(hash, PreimageMode.RAW);
    }

    /** Signs the 32-byte hash in the given preimage mode; returns 65 bytes. */
    public byte[] sign(final byte[] hash, final PreimageMode mode)
    {
        if (hash.length != 32)
        {
            throw new IllegalArgumentException("hash must be 32 bytes, got " + hash.length);
        }
        final byte[] signature = new byte[RecoverableSignature.LENGTH];
        sign(hash, 0, mode, signature, 0);
        return signature;
    }

    /** Signs 32 bytes at {@code hashOffset} in the given mode, writing 65 bytes to {@code out}. */
    public void sign(final byte[] hash, final int hashOffset, final PreimageMode mode, final byte[] out,
        final int outOffset)
    {
        mode.signedDigest(keccak, hash, hashOffset, digest, 0);

        final BigInteger[] rs = signer.generateSignature(digest);
        final BigInteger r = rs[0];
        BigInteger s = rs[1];
        if (s.compareTo(RecoverableSignature.HALF_N) > 0)
        {
            s = Secp256k1Curve.N.subtract(s);
        }

        final int recoveryId = recoveryId(r, s, new BigInteger(1, digest));
        RecoverableSignature.writeBytes32(r, out, outOffset);
        RecoverableSignature.writeBytes32(s, out, outOffset + 32);
        out[outOffset + RecoverableSignature.V_OFFSET] = (byte)(27 + recoveryId);
    }

    // The recovery id is whichever of 0 and 1 gives back our own key. Ids 2 and 3 (the x of R was at
    // least n) occur with probability about 2^-127 and have no v the venue accepts.
    private int recoveryId(final BigInteger r, final BigInteger s, final BigInteger e)
    {
        final ECPoint own = keyPair.publicPoint();
        for (int id = 0; id < 2; id++)
        {
            final ECPoint candidate = Secp256k1Curve.recoverPublicKey(r, s, id, e);
            if (null != candidate && candidate.equals(own))
            {
                return id;
            }
        }
        throw new IllegalStateException("no recovery id 0 or 1 for this signature");
    }
}
