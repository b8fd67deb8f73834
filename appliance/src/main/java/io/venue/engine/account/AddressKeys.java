package io.venue.engine.account;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * A 20-byte address as the three longs the engine's indexes use as a key: bytes 0-7 and 8-15
 * big-endian, then bytes 16-19 as an unsigned int.
 */
public final class AddressKeys
{
    public static final int LONGS = 3;

    private AddressKeys()
    {
    }

    /** Writes the address held in {@code key[base, base + 3)} back as 20 bytes. */
    public static void store(final long[] key, final int base, final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putLong(offset, key[base], ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + 8, key[base + 1], ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + 16, (int)key[base + 2], ByteOrder.BIG_ENDIAN);
    }

    public static void load(final DirectBuffer buffer, final int offset, final long[] key)
    {
        key[0] = buffer.getLong(offset, ByteOrder.BIG_ENDIAN);
        key[1] = buffer.getLong(offset + 8, ByteOrder.BIG_ENDIAN);
        key[2] = buffer.getInt(offset + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }
}
