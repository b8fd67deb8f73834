package io.venue.engine.account;

import io.venue.engine.index.FixedKeyIndex;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Arrays;

/**
 * Gives every 20-byte account address a dense number, in the order the command stream first names it, so
 * that numbering is the same on every replay. Per-account state elsewhere is indexed by that number.
 */
public final class Accounts
{
    private static final int KEY_LONGS = AddressKeys.LONGS;

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
    public void addressInto(final int account, final MutableDirectBuffer buffer, final int offset)
    {
        AddressKeys.store(addresses, account * KEY_LONGS, buffer, offset);
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
        AddressKeys.load(buffer, offset, key);
    }
}
