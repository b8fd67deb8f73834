package io.venue.crypto;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * The acceptance rules for a 65-byte r || s || v signature, checked on the raw bytes before any curve
 * arithmetic and shared by every {@link Secp256k1Recovery} so they cannot disagree.
 * <p>
 * High s (s &gt; n/2) is rejected. For any valid (r, s) the pair (r, n - s) verifies too, with the
 * other recovery id; accepting both would give one action two distinct signatures. Ethereum signers
 * (EIP-2) and our own {@link Secp256k1Signer} produce low s only.
 */
public final class RecoverableSignature
{
    public static final int LENGTH = 65;
    public static final int V_OFFSET = 64;

    static final BigInteger N = new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
    static final BigInteger HALF_N = N.shiftRight(1);

    private static final byte[] N_BYTES = toBytes32(N);
    private static final byte[] HALF_N_BYTES = toBytes32(HALF_N);

    private RecoverableSignature()
    {
    }

    /**
     * The recovery id for a v byte: 0 or 1 for v of 0, 1, 27 or 28, otherwise -1. Ids 2 and 3 (the x
     * of R was at least n, probability about 2^-127) have no v here and are refused.
     */
    public static int recoveryId(final int v)
    {
        switch (v)
        {
            case 0:
            case 27:
                return 0;
            case 1:
            case 28:
                return 1;
            default:
                return -1;
        }
    }

    /** {@link RecoveryStatus#OK} if the 65 bytes at {@code offset} pass every rule, else the first broken one. */
    public static RecoveryStatus check(final byte[] signature, final int offset)
    {
        if (recoveryId(signature[offset + V_OFFSET] & 0xFF) < 0)
        {
            return RecoveryStatus.V_INVALID;
        }
        if (isZero32(signature, offset) || compare32(signature, offset, N_BYTES) >= 0)
        {
            return RecoveryStatus.R_OUT_OF_RANGE;
        }
        final int sOffset = offset + 32;
        if (isZero32(signature, sOffset) || compare32(signature, sOffset, N_BYTES) >= 0)
        {
            return RecoveryStatus.S_OUT_OF_RANGE;
        }
        if (compare32(signature, sOffset, HALF_N_BYTES) > 0)
        {
            return RecoveryStatus.S_NOT_CANONICAL;
        }
        return RecoveryStatus.OK;
    }

    static byte[] toBytes32(final BigInteger value)
    {
        final byte[] out = new byte[32];
        writeBytes32(value, out, 0);
        return out;
    }

    /** Writes a non-negative value below 2^256 as 32 bytes big-endian. */
    static void writeBytes32(final BigInteger value, final byte[] out, final int offset)
    {
        final byte[] raw = value.toByteArray();
        final int length = raw.length;
        if (length > 33 || (length == 33 && raw[0] != 0) || value.signum() < 0)
        {
            throw new IllegalArgumentException("not a 256-bit unsigned value");
        }
        final int copy = Math.min(length, 32);
        Arrays.fill(out, offset, offset + 32 - copy, (byte)0);
        System.arraycopy(raw, length - copy, out, offset + 32 - copy, copy);
    }

    private static boolean isZero32(final byte[] bytes, final int offset)
    {
        int any = 0;
        for (int i = 0; i < 32; i++)
        {
            any |= bytes[offset + i];
        }
        return any == 0;
    }

    // Unsigned big-endian comparison of 32 bytes at offset with a 32-byte constant.
    private static int compare32(final byte[] bytes, final int offset, final byte[] constant)
    {
        for (int i = 0; i < 32; i++)
        {
            final int a = bytes[offset + i] & 0xFF;
            final int b = constant[i] & 0xFF;
            if (a != b)
            {
                return a < b ? -1 : 1;
            }
        }
        return 0;
    }
}
