package io.venue.action;

import io.venue.codec.Hex;

/**
 * A 20-byte EVM address: a trading account, a wallet or an operator key.
 */
public final class Address extends FixedBytes
{
    public static final int LENGTH = 20;

    public Address(final byte[] bytes)
    {
        super(bytes, LENGTH, "Address");
    }

    /** Parses 0x-prefixed lowercase hex; for tools and tests. */
    public static Address of(final String hex)
    {
        return new Address(Hex.fromHex(hex));
    }
}
