package io.venue.crypto;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;

/**
 * Pure-Java signer recovery on BouncyCastle's curve arithmetic: the fallback where libsecp256k1 cannot
 * load, and the cross-check of the native path in tests. About 3x slower than native and allocates
 * (BigInteger, points), which is acceptable for a fallback.
 */
public final class BouncyCastleSecp256k1Recovery implements Secp256k1Recovery
{
    public static final String NAME = "bouncycastle";

    private final Keccak256 keccak = new Keccak256();
    private final byte[] publicKey = new byte[64];
    private final byte[] keyHash = new byte[Keccak256.DIGEST_LENGTH];

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public RecoveryStatus recover(
        final byte[] hash,
        final int hashOffset,
        final byte[] signature,
        final int signatureOffset,
        final byte[] addressOut,
        final int addressOffset)
    {
        final RecoveryStatus status = RecoverableSignature.check(signature, signatureOffset);
        if (RecoveryStatus.OK != status)
        {
            return status;
        }

        final BigInteger r = new BigInteger(1, signature, signatureOffset, 32);
        final BigInteger s = new BigInteger(1, signature, signatureOffset + 32, 32);
        final BigInteger e = new BigInteger(1, hash, hashOffset, 32);
        final int recoveryId = RecoverableSignature.recoveryId(
            signature[signatureOffset + RecoverableSignature.V_OFFSET] & 0xFF);

        final ECPoint q = Secp256k1Curve.recoverPublicKey(r, s, recoveryId, e);
        if (null == q)
        {
            return RecoveryStatus.NO_POINT;
        }

        Secp256k1Curve.encodeXY(q, publicKey, 0);
        keccak.hash(publicKey, 0, publicKey.length, keyHash, 0);
        System.arraycopy(keyHash, Keccak256.DIGEST_LENGTH - ADDRESS_LENGTH, addressOut, addressOffset, ADDRESS_LENGTH);

        return RecoveryStatus.OK;
    }
}
