package io.venue.feed;

import java.util.Arrays;

/** A fixed-length byte string as a map key (an address, an order id); a mutable one serves as a lookup probe. */
final class ByteKey
{
    private final byte[] bytes;
    private int hash;

    ByteKey(final int length)
    {
        bytes = new byte[length];
    }

    private ByteKey(final byte[] bytes, final int hash)
    {
        this.bytes = bytes;
        this.hash = hash;
    }

    /** The probe's bytes, to fill; call {@link #rehash} after. */
    byte[] bytes()
    {
        return bytes;
    }

    ByteKey rehash()
    {
        hash = Arrays.hashCode(bytes);
        return this;
    }

    /** An immutable copy, to store in a map. */
    ByteKey copy()
    {
        return new ByteKey(bytes.clone(), hash);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ByteKey && Arrays.equals(bytes, ((ByteKey)other).bytes);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }
}
