package io.venue.engine.state;

import org.agrona.DirectBuffer;

/**
 * Balances by (account, asset id). Lookups by key; the one iteration, {@link #forEach}, is for start-up.
 * Single-threaded: the store reuses one key, so only the owning thread may call it. Settlement
 * needs several balances at once: give each its own {@link Balance} flyweight.
 */
public final class BalanceStore
{
    /** Receives each entry during {@link #forEach}; both flyweights are re-pointed for the next entry. */
    @FunctionalInterface
    public interface Visitor
    {
        void onBalance(AccountIdKey key, Balance value);
    }

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

    /**
     * Visits every balance in hash order: start-up only (it allocates a little). Each entry is independent of the
     * others, so a caller that only copies them into place needs no sorting.
     */
    public void forEach(final Visitor visitor)
    {
        map.forEach(new AccountIdKey(), new Balance(), visitor::onBalance);
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
