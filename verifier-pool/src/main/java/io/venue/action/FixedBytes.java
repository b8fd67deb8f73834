package io.venue.action;

import io.venue.codec.Hex;

import java.util.Arrays;

/**
 * An immutable byte string of a fixed length, written on the wire as 0x-prefixed lowercase hex.
 */
public abstract class FixedBytes
{
    private final byte[] bytes;

    protected FixedBytes(final byte[] bytes, final int expectedLength, final String what)
    {
        if (bytes.length != expectedLength)
        {
            throw new IllegalArgumentException(what + " must be " + expectedLength + " bytes, got " + bytes.length);
        }
        this.bytes = bytes.clone();
    }

    /** A copy of the bytes. */
    public final byte[] toBytes()
    {
        return bytes.clone();
    }

    /** Copies the bytes into {@code dst}. */
    public final void copyTo(final byte[] dst, final int offset)
    {
        System.arraycopy(bytes, 0, dst, offset, bytes.length);
    }

    public final int length()
    {
        return bytes.length;
    }

    /** Writes "0x" and the lowercase hex digits; returns the new offset. */
    public final int write0x(final byte[] dst, final int offset)
    {
        dst[offset] = '0';
        dst[offset + 1] = 'x';
        return Hex.encode(bytes, 0, bytes.length, dst, offset + 2);
    }

    @Override
    public final boolean equals(final Object other)
    {
        return other != null && other.getClass() == getClass() && Arrays.equals(bytes, ((FixedBytes)other).bytes);
    }

    @Override
    public final int hashCode()
    {
        return Arrays.hashCode(bytes);
    }

    @Override
    public final String toString()
    {
        return Hex.to0x(bytes);
    }
}
