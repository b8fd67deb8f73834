package io.venue.engine.state;

import org.agrona.DirectBuffer;

/**
 * Balances by (account, asset id). Lookups by key only; nothing here iterates, so no output can depend on
 * hash order. Single-threaded: the store reuses one key, so only the owning thread may call it. Settlement
 * needs several balances at once: give each its own {@link Balance} flyweight.
 */
public final class BalanceStore
{
    private final FixedMap<AccountIdKey, Balance> map;
    private final AccountIdKey key = new AccountIdKey();

    BalanceStore(final FixedMap<AccountIdKey, Balance> map)
    {
        this.map = map;
    }

    /** Points {@code into} at the balance; null (and {@code into} untouched) when there is none. */
    public Balance find(final DirectBuffer account, final int offset, final int asset, final Balance into)
    {
        return map.find(key.set(account, offset, asset), into);
    }

    public Balance find(final byte[] account, final int asset, final Balance into)
    {
        return map.find(key.set(account, asset), into);
    }

    /** Points {@code into} at the balance, creating it with zero available and locked when absent. */
    public Balance acquire(final DirectBuffer account, final int offset, final int asset, final Balance into)
    {
        return map.acquire(key.set(account, offset, asset), into);
    }

    public Balance acquire(final byte[] account, final int asset, final Balance into)
    {
        return map.acquire(key.set(account, asset), into);
    }

    public boolean remove(final DirectBuffer account, final int offset, final int asset)
    {
        return map.remove(key.set(account, offset, asset));
    }

    public boolean remove(final byte[] account, final int asset)
    {
        return map.remove(key.set(account, asset));
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
