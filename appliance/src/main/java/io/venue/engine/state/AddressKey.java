package io.venue.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Map key: a 20-byte EVM address (a trading account, or the signer address of a delegated agent).
 * <pre>
 *   0  address  20 bytes
 * </pre>
 * A store fills its own instance before each lookup; a cursor instance can also point at a key in the map.
 */
public final class AddressKey extends Flyweight
{
    public static final int ADDRESS = 0;
    public static final int ADDRESS_LENGTH = 20;
    public static final int SIZE = 20;

    /** A key with its own scratch bytes; Chronicle also calls this to make instances it fills itself. */
    public AddressKey()
    {
        bytesStore(scratch(SIZE), 0, SIZE);
    }

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public AddressKey address(final DirectBuffer src, final int offset)
    {
        putBytes(ADDRESS, src, offset, ADDRESS_LENGTH);
        return this;
    }

    public AddressKey address(final byte[] src)
    {
        putBytes(ADDRESS, src, 0, ADDRESS_LENGTH);
        return this;
    }

    public void getAddress(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(ADDRESS, dst, offset, ADDRESS_LENGTH);
    }

    public void getAddress(final byte[] dst, final int offset)
    {
        getBytes(ADDRESS, dst, offset, ADDRESS_LENGTH);
    }
}
