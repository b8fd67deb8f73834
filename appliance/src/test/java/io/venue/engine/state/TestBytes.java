package io.venue.engine.state;

import org.agrona.concurrent.UnsafeBuffer;

/** Distinct, non-trivial byte strings for keys, so a swapped or truncated copy cannot pass by accident. */
final class TestBytes
{
    private TestBytes()
    {
    }

    static byte[] bytes(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        int x = seed * 0x9E3779B1 + 0x7F4A7C15;
        for (int i = 0; i < length; i++)
        {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            bytes[i] = (byte)(x >>> 24);
        }
        return bytes;
    }

    static byte[] address(final int seed)
    {
        return bytes(20, seed);
    }

    static byte[] orderId(final int seed)
    {
        return bytes(32, seed + 1_000_003);
    }

    /** The bytes at an odd offset inside a larger buffer, as a decoder would hand them over. */
    static UnsafeBuffer inBuffer(final byte[] bytes, final int offset)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + bytes.length + 7]);
        buffer.putBytes(offset, bytes);
        return buffer;
    }
}
