package io.venue.engine;

import io.venue.crypto.Blake3;

/**
 * A blake3 digest of engine state, fed field by field in a fixed order (dense numbers, price-time order,
 * never hash order), so two engines hold the same state exactly when their digests are equal.
 */
public final class StateDigest
{
    private final Blake3 blake3 = new Blake3();
    private final byte[] scratch = new byte[8];

    public StateDigest reset()
    {
        blake3.reset();
        return this;
    }

    public StateDigest putLong(final long value)
    {
        for (int i = 0; i < 8; i++)
        {
            scratch[i] = (byte)(value >>> (56 - 8 * i));
        }
        blake3.update(scratch, 0, 8);
        return this;
    }

    public StateDigest putInt(final int value)
    {
        return putLong(value);
    }

    public StateDigest putBoolean(final boolean value)
    {
        blake3.update((byte)(value ? 1 : 0));
        return this;
    }

    /** Finishes the digest into 32 bytes and resets. */
    public byte[] digest()
    {
        final byte[] out = new byte[32];
        blake3.digest(out, 0);
        return out;
    }
}
