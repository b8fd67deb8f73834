package io.venue.crypto;

import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECFieldElement;
import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;

/**
 * secp256k1 arithmetic on BouncyCastle's custom (fast) curve: public-key recovery and point encoding.
 * Allocates freely; used by the pure-Java fallback, the signer and key tools, not by the native path.
 */
final class Secp256k1Curve
{
    static final X9ECParameters PARAMETERS = CustomNamedCurves.getByName("secp256k1");
    static final ECCurve CURVE = PARAMETERS.getCurve();
    static final ECPoint G = PARAMETERS.getG();
    static final BigInteger N = PARAMETERS.getN();
    static final BigInteger P = CURVE.getField().getCharacteristic();
    static final ECDomainParameters DOMAIN = new ECDomainParameters(CURVE, G, N, PARAMETERS.getH());

    static
    {
        if (!N.equals(RecoverableSignature.N))
        {
            throw new IllegalStateException("secp256k1 order mismatch");
        }
    }

    private Secp256k1Curve()
    {
    }

    /**
     * Public-key recovery of SEC1 v2 section 4.1.6: Q = r^-1 (sR - eG), where R is the point with
     * x = r + (recoveryId / 2) n and y parity recoveryId % 2.
     *
     * @param r          in [1, n-1].
     * @param s          in [1, n-1].
     * @param recoveryId 0 to 3.
     * @param e          the 32-byte hash read as an unsigned integer (n is 256 bits, so no truncation).
     * @return the normalized public key, or null when no such R exists or Q is infinity.
     */
    static ECPoint recoverPublicKey(final BigInteger r, final BigInteger s, final int recoveryId, final BigInteger e)
    {
        BigInteger x = r;
        if ((recoveryId & 2) != 0)
        {
            x = r.add(N);
            if (x.compareTo(P) >= 0)
            {
                return null;
            }
        }

        final ECPoint bigR = liftX(x, (recoveryId & 1) != 0);
        if (null == bigR)
        {
            return null;
        }
        // The cofactor is 1, so every curve point has order n and the n*R = infinity check of SEC1 holds.

        final BigInteger rInverse = r.modInverse(N);
        final BigInteger u1 = e.negate().multiply(rInverse).mod(N);
        final BigInteger u2 = s.multiply(rInverse).mod(N);
        final ECPoint q = ECAlgorithms.sumOfTwoMultiplies(G, u1, bigR, u2).normalize();

        return q.isInfinity() ? null : q;
    }

    /** The 64 bytes x || y of a normalized, finite point. */
    static void encodeXY(final ECPoint point, final byte[] out, final int offset)
    {
        RecoverableSignature.writeBytes32(point.getAffineXCoord().toBigInteger(), out, offset);
        RecoverableSignature.writeBytes32(point.getAffineYCoord().toBigInteger(), out, offset + 32);
    }

    // The curve point with this x (below p) and y parity, or null when x^3 + 7 is not a square mod p.
    private static ECPoint liftX(final BigInteger x, final boolean oddY)
    {
        final ECFieldElement fx = CURVE.fromBigInteger(x);
        final ECFieldElement ySquared = fx.square().multiply(fx).add(CURVE.getB());
        ECFieldElement y = ySquared.sqrt();
        if (null == y)
        {
            return null;
        }
        if (y.testBitZero() != oddY)
        {
            y = y.negate();
        }
        return CURVE.createPoint(x, y.toBigInteger());
    }
}
