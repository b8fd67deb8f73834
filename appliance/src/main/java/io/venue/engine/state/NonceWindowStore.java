package io.venue.engine.state;

import org.agrona.DirectBuffer;

/**
 * Nonce windows by account address. Lookups by key only; nothing here iterates, so no output can depend on
 * hash order. Single-threaded: the store reuses one key, so only the owning thread may call it.
 */
public final class NonceWindowStore
{
    private final FixedMap<AddressKey, NonceWindow> map;
    private final AddressKey key = new AddressKey();

    NonceWindowStore(final FixedMap<AddressKey, NonceWindow> map)
    {
        this.map = map;
    }

    /** Points {@code into} at the account's window; null (and {@code into} untouched) when there is none. */
    public NonceWindow find(final DirectBuffer account, final int offset, final NonceWindow into)
    {
        return map.find(key.address(account, offset), into);
    }

    public NonceWindow find(final byte[] account, final NonceWindow into)
    {
        return map.find(key.address(account), into);
    }

    /** Points {@code into} at the account's window, creating it all zero (floor 0, no bits) when absent. */
    public NonceWindow acquire(final DirectBuffer account, final int offset, final NonceWindow into)
    {
        return map.acquire(key.address(account, offset), into);
    }

    public NonceWindow acquire(final byte[] account, final NonceWindow into)
    {
        return map.acquire(key.address(account), into);
    }

    public boolean remove(final DirectBuffer account, final int offset)
    {
        return map.remove(key.address(account, offset));
    }

    public boolean remove(final byte[] account)
    {
        return map.remove(key.address(account));
    }

    public long size()
    {
        return map.size();
    }

    /** The entry count the map was sized for; Chronicle may take a little more, never rely on it. */
    public long capacity()
    {
        return map.capacity();
    }
}
