package io.venue.responder;

import io.venue.codec.Hex;

import java.util.Arrays;

/**
 * An id of fixed length (an account's 20 bytes, an order's 32) as a hash key, hashed once when set: a read model's
 * thread probes its map with one reused key and stores a copy only for an id new to it, so that an event of an id
 * already known allocates nothing for its key.
 */
final class BytesKey
{
    static final int ACCOUNT = 20;
    static final int ORDER = 32;

    private final byte[] bytes;
    private int hash;

    BytesKey(final int length)
    {
        bytes = new byte[length];
    }

    BytesKey set(final byte[] id)
    {
        System.arraycopy(id, 0, bytes, 0, bytes.length);
        hash = Arrays.hashCode(bytes);
        return this;
    }

    /** A new key with the same bytes (a probe's, to be stored). */
    BytesKey copy()
    {
        return new BytesKey(bytes.length).set(bytes);
    }

    /**
     * The key of an id of {@code length} bytes written {@code 0x} and lowercase hex digits, as the events' ids are
     * written out, or null for any other text: a reader's way in from a route's path.
     */
    static BytesKey parse(final String text, final int length)
    {
        if (text == null || text.length() != 2 + 2 * length || !text.startsWith("0x"))
        {
            return null;
        }
        final byte[] parsed = new byte[length];
        for (int i = 0; i < length; i++)
        {
            final int high = Hex.lowerDigit(text.charAt(2 + 2 * i));
            final int low = Hex.lowerDigit(text.charAt(3 + 2 * i));
            if (high < 0 || low < 0)
            {
                return null;
            }
            parsed[i] = (byte)((high << 4) | low);
        }
        return new BytesKey(length).set(parsed);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof BytesKey key && Arrays.equals(bytes, key.bytes);
    }

    @Override
    public String toString()
    {
        return Hex.to0x(bytes);
    }
}
