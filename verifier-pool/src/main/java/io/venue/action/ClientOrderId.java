package io.venue.action;

import io.venue.codec.Hex;

/**
 * A 16-byte id the client chooses for its own order; part of the signed payload when present.
 */
public final class ClientOrderId extends FixedBytes
{
    public static final int LENGTH = 16;

    public ClientOrderId(final byte[] bytes)
    {
        super(bytes, LENGTH, "ClientOrderId");
    }

    /** Parses 0x-prefixed lowercase hex; for tools and tests. */
    public static ClientOrderId of(final String hex)
    {
        return new ClientOrderId(Hex.fromHex(hex));
    }
}
