package io.venue.engine.state;

import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapAbsentEntry;
import net.openhft.chronicle.map.MapEntry;

import java.io.File;
import java.util.function.BiConsumer;

/**
 * The few Chronicle Map operations the stores use, each free of allocation once warm: the value flyweight is
 * pointed at the entry, and removal and checked insertion go through the map's reused query context because
 * {@code ChronicleMap.remove(key)} and {@code put} return a freshly deserialized previous value.
 * <p>
 * Single writer: one thread owns the map. A flyweight returned here stays pointed at the entry after the
 * segment lock is released, so it is valid until the entry is removed or the caller looks up again.
 */
final class FixedMap<K extends Flyweight, V extends Flyweight> implements AutoCloseable
{
    private final ChronicleMap<K, V> map;
    private final long capacity;

    FixedMap(final ChronicleMap<K, V> map, final long capacity)
    {
        this.map = map;
        this.capacity = capacity;
    }

    /** The entry's value, or null when the key is absent. */
    V find(final K key, final V using)
    {
        return map.getUsing(key, using);
    }

    /** The entry's value, inserted as all zero bytes when the key was absent. */
    V acquire(final K key, final V using)
    {
        return map.acquireUsing(key, using);
    }

    /** Inserts an all-zero value and points {@code using} at it; null when the key was already present. */
    V insertNew(final K key, final V using)
    {
        try (ExternalMapQueryContext<K, V, ?> context = map.queryContext(key))
        {
            context.updateLock().lock();
            final MapAbsentEntry<K, V> absent = context.absentEntry();
            if (null == absent)
            {
                return null;
            }
            context.insert(absent, context.defaultValue(absent));
            return context.entry().value().getUsing(using);
        }
    }

    boolean remove(final K key)
    {
        try (ExternalMapQueryContext<K, V, ?> context = map.queryContext(key))
        {
            context.updateLock().lock();
            final MapEntry<K, V> entry = context.entry();
            if (null == entry)
            {
                return false;
            }
            context.remove(entry);
            return true;
        }
    }

    /** Visits every entry in hash order, pointing the two cursors at each entry in turn. */
    void forEach(final K keyCursor, final V valueCursor, final BiConsumer<K, V> visitor)
    {
        map.forEachEntry(
            (entry) ->
            {
                entry.key().getUsing(keyCursor);
                entry.value().getUsing(valueCursor);
                visitor.accept(keyCursor, valueCursor);
            });
    }

    long size()
    {
        return map.longSize();
    }

    long capacity()
    {
        return capacity;
    }

    /** The backing file, or null in memory. */
    File file()
    {
        return map.file();
    }

    @Override
    public void close()
    {
        map.close();
    }
}
