package io.venue.engine.state;

import org.agrona.DirectBuffer;

/**
 * Outcome-market positions by (account, market id). Lookups by key; the one iteration, {@link #forEach}, is
 * for start-up. Single-threaded: the store reuses one key, so only the owning thread may call it.
 */
public final class PositionStore
{
    /** Receives each entry during {@link #forEach}; both flyweights are re-pointed for the next entry. */
    @FunctionalInterface
    public interface Visitor
    {
        void onPosition(AccountIdKey key, Position value);
    }

    private final FixedMap<AccountIdKey, Position> map;
    private final AccountIdKey key = new AccountIdKey();

    PositionStore(final FixedMap<AccountIdKey, Position> map)
    {
        this.map = map;
    }

    /** Points {@code into} at the position; null (and {@code into} untouched) when there is none. */
    public Position find(final DirectBuffer account, final int offset, final int market, final Position into)
    {
        return map.find(key.set(account, offset, market), into);
    }

    public Position find(final byte[] account, final int market, final Position into)
    {
        return map.find(key.set(account, market), into);
    }

    /** Points {@code into} at the position, creating it with zero shares when absent. */
    public Position acquire(final DirectBuffer account, final int offset, final int market, final Position into)
    {
        return map.acquire(key.set(account, offset, market), into);
    }

    public Position acquire(final byte[] account, final int market, final Position into)
    {
        return map.acquire(key.set(account, market), into);
    }

    public boolean remove(final DirectBuffer account, final int offset, final int market)
    {
        return map.remove(key.set(account, offset, market));
    }

    public boolean remove(final byte[] account, final int market)
    {
        return map.remove(key.set(account, market));
    }

    /**
     * Visits every position in hash order: start-up only (it allocates a little). Each entry is independent of the
     * others, so a caller that only copies them into place needs no sorting.
     */
    public void forEach(final Visitor visitor)
    {
        map.forEach(new AccountIdKey(), new Position(), visitor::onPosition);
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
