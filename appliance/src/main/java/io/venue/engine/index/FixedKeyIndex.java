package io.venue.engine.index;

import java.util.Arrays;

/**
 * Maps fixed-size binary keys (a few longs: a 20-byte address, a 32-byte order id) to non-negative ints,
 * with open addressing, linear probing and backward-shift deletion, over primitive arrays: no allocation
 * per operation (only when it grows), no boxing. Iteration is not offered, so hash order can never reach
 * the engine's output.
 * <p>
 * The caller fills a key into a long array and passes it with an offset; {@link #MISSING} means absent.
 */
public final class FixedKeyIndex
{
    public static final int MISSING = -1;

    private final int keyLongs;
    private final long seed;
    private long[] keys;
    private int[] values;
    private int mask;
    private int size;
    private int resizeThreshold;

    public FixedKeyIndex(final int keyLongs, final int expectedEntries)
    {
        this(keyLongs, expectedEntries, 0);
    }

    /**
     * @param seed mixed into the hash. Where clients choose the keys (order ids, client order ids), a
     *             per-deployment secret seed keeps them from grinding keys into one long probe run. It changes
     *             only where entries sit, never what a lookup returns, so it cannot change any output.
     */
    public FixedKeyIndex(final int keyLongs, final int expectedEntries, final long seed)
    {
        if (keyLongs < 1)
        {
            throw new IllegalArgumentException("keyLongs must be positive");
        }
        this.keyLongs = keyLongs;
        this.seed = seed;
        allocate(capacityFor(expectedEntries));
    }

    public int size()
    {
        return size;
    }

    public int get(final long[] key, final int offset)
    {
        int slot = slotOf(key, offset);
        while (values[slot] != MISSING)
        {
            if (equalsAt(slot, key, offset))
            {
                return values[slot];
            }
            slot = (slot + 1) & mask;
        }
        return MISSING;
    }

    /** Associates the key with a non-negative value; returns the previous value or {@link #MISSING}. */
    public int put(final long[] key, final int offset, final int value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("values must be non-negative, got " + value);
        }
        int slot = slotOf(key, offset);
        while (values[slot] != MISSING)
        {
            if (equalsAt(slot, key, offset))
            {
                final int previous = values[slot];
                values[slot] = value;
                return previous;
            }
            slot = (slot + 1) & mask;
        }
        System.arraycopy(key, offset, keys, slot * keyLongs, keyLongs);
        values[slot] = value;
        if (++size > resizeThreshold)
        {
            rehash(values.length * 2);
        }
        return MISSING;
    }

    /** Removes the key; returns its value or {@link #MISSING}. */
    public int remove(final long[] key, final int offset)
    {
        int slot = slotOf(key, offset);
        while (values[slot] != MISSING)
        {
            if (equalsAt(slot, key, offset))
            {
                final int previous = values[slot];
                deleteAt(slot);
                size--;
                return previous;
            }
            slot = (slot + 1) & mask;
        }
        return MISSING;
    }

    /** Shifts later members of the probe run back so that no lookup ever stops early at the hole. */
    private void deleteAt(final int removed)
    {
        int hole = removed;
        int slot = (hole + 1) & mask;
        while (values[slot] != MISSING)
        {
            final int home = slotOf(keys, slot * keyLongs);
            // move the entry into the hole unless its home lies cyclically in (hole, slot]
            final boolean homeBetween = hole <= slot ? (hole < home && home <= slot) : (hole < home || home <= slot);
            if (!homeBetween)
            {
                System.arraycopy(keys, slot * keyLongs, keys, hole * keyLongs, keyLongs);
                values[hole] = values[slot];
                hole = slot;
            }
            slot = (slot + 1) & mask;
        }
        values[hole] = MISSING;
    }

    private boolean equalsAt(final int slot, final long[] key, final int offset)
    {
        final int base = slot * keyLongs;
        for (int i = 0; i < keyLongs; i++)
        {
            if (keys[base + i] != key[offset + i])
            {
                return false;
            }
        }
        return true;
    }

    private int slotOf(final long[] key, final int offset)
    {
        long hash = 0x9E3779B97F4A7C15L ^ seed;
        for (int i = 0; i < keyLongs; i++)
        {
            hash = (hash ^ key[offset + i]) * 0xff51afd7ed558ccdL;
            hash ^= hash >>> 32;
        }
        return (int)hash & mask;
    }

    private void rehash(final int capacity)
    {
        final long[] oldKeys = keys;
        final int[] oldValues = values;
        allocate(capacity);
        for (int slot = 0; slot < oldValues.length; slot++)
        {
            if (oldValues[slot] != MISSING)
            {
                int target = slotOf(oldKeys, slot * keyLongs);
                while (values[target] != MISSING)
                {
                    target = (target + 1) & mask;
                }
                System.arraycopy(oldKeys, slot * keyLongs, keys, target * keyLongs, keyLongs);
                values[target] = oldValues[slot];
            }
        }
    }

    private void allocate(final int capacity)
    {
        keys = new long[capacity * keyLongs];
        values = new int[capacity];
        Arrays.fill(values, MISSING);
        mask = capacity - 1;
        resizeThreshold = capacity / 2;
    }

    private static int capacityFor(final int expectedEntries)
    {
        final int wanted = Math.max(16, expectedEntries * 2);
        return Integer.highestOneBit(wanted - 1) << 1;
    }
}
