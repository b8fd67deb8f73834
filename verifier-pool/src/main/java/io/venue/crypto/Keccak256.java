package io.venue.crypto;

import org.bouncycastle.crypto.digests.KeccakDigest;

/**
 * Ethereum's keccak256 (the original Keccak padding, not SHA3-256), reusable and allocation free.
 * <p>
 * Either one shot with {@link #hash(byte[], int, int, byte[], int)}, or streamed with the update
 * methods and {@link #digest(byte[], int)}, which also resets. Not thread safe: one instance per thread.
 */
public final class Keccak256
{
    public static final int DIGEST_LENGTH = 32;

    private final KeccakDigest digest = new KeccakDigest(256);

    public void hash(final byte[] src, final int offset, final int length, final byte[] out, final int outOffset)
    {
        digest.reset();
        digest.update(src, offset, length);
        digest.doFinal(out, outOffset);
    }

    public void reset()
    {
        digest.reset();
    }

    public void update(final byte b)
    {
        digest.update(b);
    }

    public void update(final byte[] src, final int offset, final int length)
    {
        digest.update(src, offset, length);
    }

    /** Writes the 32-byte hash of everything since the last reset, then resets. */
    public void digest(final byte[] out, final int outOffset)
    {
        digest.doFinal(out, outOffset);
    }
}
