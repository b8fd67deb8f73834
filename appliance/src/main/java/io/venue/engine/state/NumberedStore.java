package io.venue.engine.state;

/**
 * Records keyed by one of the engine's dense numbers (agents, credentials, ledger assets, markets). Numbers
 * are given from 0 up and never reused, so a store of {@code size()} entries holds exactly 0 to size - 1 and
 * start-up reads them back in number order by key, never in hash order.
 * <p>
 * Single-threaded: the store reuses one key, so only the owning thread may call it.
 */
public final class NumberedStore<V extends Flyweight>
{
    private final FixedMap<NumberKey, V> map;
    private final NumberKey key = new NumberKey();

    NumberedStore(final FixedMap<NumberKey, V> map)
    {
        this.map = map;
    }

    /** Points {@code into} at the record; null (and {@code into} untouched) when there is none. */
    public V find(final int number, final V into)
    {
        return map.find(key.number(number), into);
    }

    /** Points {@code into} at the record, creating it all zero when absent. */
    public V acquire(final int number, final V into)
    {
        return map.acquire(key.number(number), into);
    }

    public boolean remove(final int number)
    {
        return map.remove(key.number(number));
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
