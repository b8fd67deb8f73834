package io.venue.engine.index;

/**
 * Maps fixed-size binary keys (a few longs: a 20-byte address, a 32-byte order id) to non-negative ints,
 * with open addressing, linear probing and backward-shift deletion, over one primitive array: no allocation
 * per operation (only when it grows), no boxing. Each slot holds its key's longs followed by its value, so a
 * probe reads one place in memory, not a key array and a value array. Iteration is not offered, so hash order can
 * never reach the engine's output.
 * <p>
 * The caller fills a key into a long array and passes it with an offset; {@link #MISSING} means absent.
 */
public final class FixedKeyIndex
{
    public static final int MISSING = -1;

    private final int keyLongs;
    /** The longs of one slot: the key's, then the value ({@link #MISSING} in an empty slot). */
    private final int stride;
    private final long seed;
    private long[] slots;
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
        this.stride = keyLongs + 1;
        this.seed = seed;
        allocate(capacityFor(expectedEntries));
    }

    public int size()
    {
        return size;
    }

    /** Removes every entry, keeping the capacity: a pass over the slots, so for small indexes cleared often. */
    public void clear()
    {
        if (size > 0)
        {
            for (int slot = 0; slot <= mask; slot++)
            {
                valueAt(slot, MISSING);
            }
            size = 0;
        }
    }

    public int get(final long[] key, final int offset)
    {
        int slot = slotOf(key, offset);
        while (valueAt(slot) != MISSING)
        {
            if (equalsAt(slot, key, offset))
            {
                return valueAt(slot);
            }
            slot = (slot + 1) & mask;
        }
        return MISSING;
    }

    private int valueAt(final int slot)
    {
        return (int)slots[slot * stride + keyLongs];
    }

    private void valueAt(final int slot, final int value)
    {
        slots[slot * stride + keyLongs] = value;
    }

    /** Associates the key with a non-negative value; returns the previous value or {@link #MISSING}. */
    public int put(final long[] key, final int offset, final int value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("values must be non-negative, got " + value);
        }
        int slot = slotOf(key, offset);
        while (valueAt(slot) != MISSING)
        {
            if (equalsAt(slot, key, offset))
            {
                final int previous = valueAt(slot);
                valueAt(slot, value);
                return previous;
            }
            slot = (slot + 1) & mask;
        }
        System.arraycopy(key, offset, slots, slot * stride, keyLongs);
        valueAt(slot, value);
        if (++size > resizeThreshold)
        {
            rehash((mask + 1) * 2);
        }
        return MISSING;
    }

    /** Removes the key; returns its value or {@link #MISSING}. */
    public int remove(final long[] key, final int offset)
    {
        int slot = slotOf(key, offset);
        while (valueAt(slot) != MISSING)
        {
            if (equalsAt(slot, key, offset))
            {
                final int previous = valueAt(slot);
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
        while (valueAt(slot) != MISSING)
        {
            final int home = slotOf(slots, slot * stride);
            // move the entry into the hole unless its home lies cyclically in (hole, slot]
            final boolean homeBetween = hole <= slot ? (hole < home && home <= slot) : (hole < home || home <= slot);
            if (!homeBetween)
            {
                // the key and its value together
                System.arraycopy(slots, slot * stride, slots, hole * stride, stride);
                hole = slot;
            }
            slot = (slot + 1) & mask;
        }
        valueAt(hole, MISSING);
    }

    private boolean equalsAt(final int slot, final long[] key, final int offset)
    {
        final int base = slot * stride;
        for (int i = 0; i < keyLongs; i++)
        {
            if (slots[base + i] != key[offset + i])
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
        final long[] old = slots;
        final int oldCapacity = mask + 1;
        allocate(capacity);
        for (int slot = 0; slot < oldCapacity; slot++)
        {
            if ((int)old[slot * stride + keyLongs] != MISSING)
            {
                int target = slotOf(old, slot * stride);
                while (valueAt(target) != MISSING)
                {
                    target = (target + 1) & mask;
                }
                System.arraycopy(old, slot * stride, slots, target * stride, stride);
            }
        }
    }

    private void allocate(final int capacity)
    {
        slots = new long[Math.multiplyExact(capacity, stride)];
        for (int slot = 0; slot < capacity; slot++)
        {
            slots[slot * stride + keyLongs] = MISSING;
        }
        mask = capacity - 1;
        resizeThreshold = capacity / 2;
    }

    private static int capacityFor(final int expectedEntries)
    {
        final int wanted = Math.max(16, expectedEntries * 2);
        return Integer.highestOneBit(wanted - 1) << 1;
    }
}
