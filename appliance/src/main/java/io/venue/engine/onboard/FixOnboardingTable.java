package io.venue.engine.onboard;

import io.venue.engine.StateDigest;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * The FIX onboarding records the engine holds (spec 5.5; docs/FIX.md, "Onboarding record"): per institutional agent
 * credential, the FIX permission, the drop-copy entitlement, the allowed markets (at most {@link #MAX_MARKETS},
 * ascending, or all), a rate tier and the cancel-on-disconnect policy. A table of fixed capacity: a credential takes
 * the next free slot the first time a record is set for it and keeps it (a record is changed, never removed; FIX off
 * is a value), so the slots are a function of the commands and the state hash and store read them slot by slot. A
 * lookup by credential goes through an index that is never iterated.
 * <p>
 * Not thread safe: the engine's thread owns it.
 */
public final class FixOnboardingTable
{
    /** The default capacity ({@code EngineConfig.fixOnboardingCapacity}). */
    public static final int DEFAULT_CAPACITY = 4_096;
    /** The most markets a record lists (the journal's fixed array). */
    public static final int MAX_MARKETS = 16;
    /** The cancel-on-disconnect grace bound (spec 4.3). */
    public static final long MAX_GRACE_MS = 60_000;
    /** {@link #find} of a credential without a record. */
    public static final int MISSING = -1;
    /** The highest rate tier code (the journal's FixRateTier: 0 default, 1 standard, 2 enhanced, 3 premium). */
    public static final int MAX_TIER = 3;

    public static final int FIX = 1;
    public static final int DROP_COPY = 1 << 1;
    public static final int ALL_MARKETS = 1 << 2;
    public static final int CANCEL_ON_DISCONNECT = 1 << 3;

    private final int capacity;
    private final long[] credential;
    private final byte[] flags;
    private final byte[] marketCount;
    private final int[] markets;
    private final byte[] tier;
    private final int[] graceMs;
    private final Long2LongHashMap slotOf = new Long2LongHashMap(MISSING);
    private int used;

    public FixOnboardingTable(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("the FIX onboarding table needs at least one slot: " + capacity);
        }
        this.capacity = capacity;
        credential = new long[capacity];
        flags = new byte[capacity];
        marketCount = new byte[capacity];
        markets = new int[capacity * MAX_MARKETS];
        tier = new byte[capacity];
        graceMs = new int[capacity];
    }

    public int capacity()
    {
        return capacity;
    }

    /** Slots in use: slots 0 to size - 1. */
    public int size()
    {
        return used;
    }

    /** The slot of the credential's record, or {@link #MISSING}. */
    public int find(final long credentialId)
    {
        return (int)slotOf.get(credentialId);
    }

    /** Whether a record for a new credential would not fit. */
    public boolean isFull()
    {
        return used == capacity;
    }

    /**
     * Whether a record's values are within the rules: markets (when not all) 0 to 16 ids strictly ascending as unsigned
     * 32-bit numbers, a known tier and a grace of 0 to 60 s.
     */
    public static boolean valid(final boolean allMarkets, final int count, final int[] ids, final int tierCode,
        final long grace)
    {
        if (tierCode < 0 || tierCode > MAX_TIER || grace < 0 || grace > MAX_GRACE_MS)
        {
            return false;
        }
        if (allMarkets)
        {
            return count == 0;
        }
        if (count < 0 || count > MAX_MARKETS)
        {
            return false;
        }
        for (int i = 1; i < count; i++)
        {
            if (Integer.compareUnsigned(ids[i - 1], ids[i]) >= 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Sets the credential's record (the caller checked {@link #valid} and, for a new credential, {@link #isFull}).
     *
     * @return the slot.
     */
    public int put(final long credentialId, final int flagBits, final int count, final int[] ids, final int tierCode,
        final int grace)
    {
        int slot = find(credentialId);
        if (slot == MISSING)
        {
            slot = used++;
            slotOf.put(credentialId, slot);
            credential[slot] = credentialId;
        }
        write(slot, flagBits, count, ids, tierCode, grace);
        return slot;
    }

    /** Puts a stored record back in its own slot (a restart); false when it breaks the table's rules. */
    public boolean restore(final int slot, final long credentialId, final int flagBits, final int count,
        final int[] ids, final int tierCode, final int grace)
    {
        if (slot != used || slot >= capacity || find(credentialId) != MISSING ||
            !valid((flagBits & ALL_MARKETS) != 0, count, ids, tierCode, grace))
        {
            return false;
        }
        put(credentialId, flagBits, count, ids, tierCode, grace);
        return true;
    }

    private void write(final int slot, final int flagBits, final int count, final int[] ids, final int tierCode,
        final int grace)
    {
        flags[slot] = (byte)flagBits;
        marketCount[slot] = (byte)count;
        final int base = slot * MAX_MARKETS;
        Arrays.fill(markets, base, base + MAX_MARKETS, 0);
        System.arraycopy(ids, 0, markets, base, count);
        tier[slot] = (byte)tierCode;
        graceMs[slot] = grace;
    }

    public long credentialOf(final int slot)
    {
        return credential[slot];
    }

    public int flagsOf(final int slot)
    {
        return flags[slot];
    }

    public boolean fixEnabled(final int slot)
    {
        return (flags[slot] & FIX) != 0;
    }

    public int marketCountOf(final int slot)
    {
        return marketCount[slot];
    }

    /** The i-th allowed market of the slot, an unsigned 32-bit id in an int. */
    public int marketOf(final int slot, final int i)
    {
        return markets[slot * MAX_MARKETS + i];
    }

    public int tierOf(final int slot)
    {
        return tier[slot];
    }

    public int graceOf(final int slot)
    {
        return graceMs[slot];
    }

    /** Whether the slot's record allows {@code marketId}: all markets, or a binary search of its list. */
    public boolean allowsMarket(final int slot, final long marketId)
    {
        if ((flags[slot] & ALL_MARKETS) != 0)
        {
            return true;
        }
        final int base = slot * MAX_MARKETS;
        int low = 0;
        int high = marketCount[slot] - 1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final long id = markets[base + mid] & 0xFFFF_FFFFL;
            if (id == marketId)
            {
                return true;
            }
            if (id < marketId)
            {
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return false;
    }

    /** Every slot in order; nothing when the table is empty, so a state without records hashes as before. */
    public void hashInto(final StateDigest digest)
    {
        if (used == 0)
        {
            return;
        }
        digest.putInt(used);
        for (int slot = 0; slot < used; slot++)
        {
            digest.putLong(credential[slot]).putInt(flags[slot]).putInt(marketCount[slot]);
            for (int i = 0; i < MAX_MARKETS; i++)
            {
                digest.putInt(markets[slot * MAX_MARKETS + i]);
            }
            digest.putInt(tier[slot]).putInt(graceMs[slot]);
        }
    }
}
