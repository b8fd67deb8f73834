package io.venue.engine.state;

import org.agrona.DirectBuffer;

/**
 * Nonce windows (and the rest of an account's gate state, see {@link NonceWindow}) by account address. Lookups
 * by key; the one iteration, {@link #forEach}, is for start-up and its hash order must be sorted away.
 * Single-threaded: the store reuses one key, so only the owning thread may call it.
 */
public final class NonceWindowStore
{
    /** Receives each entry during {@link #forEach}; both flyweights are re-pointed for the next entry. */
    @FunctionalInterface
    public interface Visitor
    {
        void onWindow(AddressKey account, NonceWindow window);
    }

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

    /**
     * Visits every account's window in hash order: start-up only (it allocates a little), and the caller must
     * sort what it collects (by {@link NonceWindow#account()}, which is unique) before anything reaches an output.
     */
    public void forEach(final Visitor visitor)
    {
        map.forEach(new AddressKey(), new NonceWindow(), visitor::onWindow);
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
