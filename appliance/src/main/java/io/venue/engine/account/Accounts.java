package io.venue.engine.account;

import io.venue.engine.index.FixedKeyIndex;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Gives every 20-byte account address a dense number, in the order the command stream first names it, so
 * that numbering is the same on every replay. Per-account state elsewhere is indexed by that number.
 */
public final class Accounts
{
    /** An address as three longs: bytes 0-7, 8-15 (big-endian) and 16-19. */
    private static final int KEY_LONGS = 3;

    private final FixedKeyIndex index;
    private final long[] key = new long[KEY_LONGS];
    private long[] addresses;
    private int count;

    public Accounts(final int expectedAccounts)
    {
        index = new FixedKeyIndex(KEY_LONGS, expectedAccounts);
        addresses = new long[KEY_LONGS * Math.max(16, expectedAccounts)];
    }

    public int count()
    {
        return count;
    }

    /** The number of the address at {@code buffer[offset, offset + 20)}, or {@link FixedKeyIndex#MISSING}. */
    public int find(final DirectBuffer buffer, final int offset)
    {
        loadKey(buffer, offset);
        return index.get(key, 0);
    }

    /** The number of the address, numbering it now if it is new. */
    public int findOrAdd(final DirectBuffer buffer, final int offset)
    {
        loadKey(buffer, offset);
        final int existing = index.get(key, 0);
        if (existing != FixedKeyIndex.MISSING)
        {
            return existing;
        }
        final int account = count++;
        if ((account + 1) * KEY_LONGS > addresses.length)
        {
            addresses = Arrays.copyOf(addresses, addresses.length * 2);
        }
        System.arraycopy(key, 0, addresses, account * KEY_LONGS, KEY_LONGS);
        index.put(key, 0, account);
        return account;
    }

    /** Writes the address of an account number into {@code buffer} at {@code offset}. */
    public void addressInto(final int account, final org.agrona.MutableDirectBuffer buffer, final int offset)
    {
        final int base = account * KEY_LONGS;
        buffer.putLong(offset, addresses[base], ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + 8, addresses[base + 1], ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + 16, (int)addresses[base + 2], ByteOrder.BIG_ENDIAN);
    }

    /** True if the account number has the address at {@code buffer[offset, offset + 20)}. */
    public boolean hasAddress(final int account, final DirectBuffer buffer, final int offset)
    {
        loadKey(buffer, offset);
        final int base = account * KEY_LONGS;
        return addresses[base] == key[0] && addresses[base + 1] == key[1] && addresses[base + 2] == key[2];
    }

    private void loadKey(final DirectBuffer buffer, final int offset)
    {
        key[0] = buffer.getLong(offset, ByteOrder.BIG_ENDIAN);
        key[1] = buffer.getLong(offset + 8, ByteOrder.BIG_ENDIAN);
        key[2] = buffer.getInt(offset + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }
}
