package io.venue.action;

import io.venue.codec.Hex;

/**
 * A 32-byte order id: the v2 digest of the action that placed the order (docs/SIGNING.md).
 */
public final class OrderId extends FixedBytes
{
    public static final int LENGTH = 32;

    public OrderId(final byte[] bytes)
    {
        super(bytes, LENGTH, "OrderId");
    }

    /** Parses 0x-prefixed lowercase hex; for tools and tests. */
    public static OrderId of(final String hex)
    {
        return new OrderId(Hex.fromHex(hex));
    }
}
