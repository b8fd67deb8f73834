package io.venue.entry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;

/**
 * The client address of recent connections (as the per-address limits count it: an IPv6 address by its /64), by
 * connection id, so that the sequencer can count a client's refusals by
 * its address whichever connection they came on (a stranger who opens a connection per request is still one source).
 * <p>
 * Bounded and allocation-free after construction: a fixed table where a connection takes the slot its id hashes to,
 * overwriting an older one, so an entry lives until a later connection lands on its slot (no sooner than
 * {@code capacity} connections of its lane later) (it is not removed at the
 * close: a refusal is often sequenced after its connection closed). A miss is harmless: the sequencer then counts by
 * connection, as before. Lanes write from their I/O threads, the sequencer reads from its own; each slot is a small
 * seqlock (its id set to {@link #WRITING} while the address changes), and two lanes racing for one slot leave it to
 * the first.
 */
public final class ConnectionAddresses
{
    /** Bytes of an address as the journal holds it: IPv6, an IPv4 address as {@code ::ffff:a.b.c.d}. */
    public static final int LENGTH = 16;
    /** Slots by default: more than the HTTP lane's connection cap, so an address outlives its connection's close. */
    public static final int DEFAULT_CAPACITY = 1 << 16;

    private static final long EMPTY = 0;
    /** Never an id: a lane code is at most 0x7F, so an id's top bit is clear. */
    private static final long WRITING = -1;
    private static final VarHandle IDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] ids;
    private final long[] high;
    private final long[] low;
    private final int mask;

    public ConnectionAddresses(final int capacity)
    {
        if (capacity < 1 || capacity > 1 << 24)
        {
            throw new IllegalArgumentException("capacity must be 1 to 16,777,216 slots: " + capacity);
        }
        final int slots = Integer.highestOneBit(capacity * 2 - 1);
        ids = new long[slots];
        high = new long[slots];
        low = new long[slots];
        mask = slots - 1;
    }

    /** Records {@code connectionId}'s client address; a lane calls it once it knows it (after a PROXY header). */
    public void record(final long connectionId, final InetAddress address)
    {
        if (connectionId <= EMPTY)
        {
            return;
        }
        final byte[] raw = address.getAddress();
        final long hi;
        final long lo;
        if (raw.length == 4)
        {
            hi = 0;
            lo = 0xFFFF_0000_0000L | (readInt(raw, 0) & 0xFFFF_FFFFL);
        }
        else
        {
            hi = readLong(raw, 0);
            lo = readLong(raw, 8);
        }
        final int slot = slot(connectionId);
        final long current = (long)IDS.getAcquire(ids, slot);
        // acquire and release both: the plain writes below stay between this and the release
        if (current == WRITING || !IDS.compareAndSet(ids, slot, current, WRITING))
        {
            return;
        }
        high[slot] = hi;
        low[slot] = lo;
        IDS.setRelease(ids, slot, connectionId);
    }

    /**
     * Copies {@code connectionId}'s address into {@code into} ({@code [0]} the high 8 bytes, {@code [1]} the low 8,
     * both big-endian) and answers true; false when it is not known (never recorded, overwritten, being written now).
     */
    public boolean find(final long connectionId, final long[] into)
    {
        if (connectionId <= EMPTY)
        {
            return false;
        }
        final int slot = slot(connectionId);
        if ((long)IDS.getAcquire(ids, slot) != connectionId)
        {
            return false;
        }
        final long hi = high[slot];
        final long lo = low[slot];
        VarHandle.loadLoadFence();
        if ((long)IDS.getOpaque(ids, slot) != connectionId)
        {
            return false;
        }
        into[0] = hi;
        into[1] = lo;
        return true;
    }

    /** Writes an address found by {@link #find} as its 16 bytes, network order, at {@code offset}. */
    public static void toBytes(final long high, final long low, final byte[] into, final int offset)
    {
        for (int i = 0; i < 8; i++)
        {
            into[offset + i] = (byte)(high >>> (56 - 8 * i));
            into[offset + 8 + i] = (byte)(low >>> (56 - 8 * i));
        }
    }

    /**
     * An odd multiplier is a bijection on the low bits, so a lane's last {@code slots} connections (consecutive ids)
     * never share a slot; the lane's code, in the top byte, is mixed in so that lanes do not line up.
     */
    private int slot(final long connectionId)
    {
        return (int)(connectionId * 0x9E3779B97F4A7C15L ^ (connectionId >>> 56) * 0x632BE5ABL) & mask;
    }

    private static int readInt(final byte[] raw, final int offset)
    {
        return (raw[offset] & 0xFF) << 24 | (raw[offset + 1] & 0xFF) << 16 | (raw[offset + 2] & 0xFF) << 8 |
            raw[offset + 3] & 0xFF;
    }

    private static long readLong(final byte[] raw, final int offset)
    {
        return (long)readInt(raw, offset) << 32 | readInt(raw, offset + 4) & 0xFFFF_FFFFL;
    }
}
