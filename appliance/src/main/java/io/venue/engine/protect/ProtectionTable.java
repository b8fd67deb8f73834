package io.venue.engine.protect;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Arrays;

/**
 * The engine's protections (docs/ENGINE.md, "Protections"): the order-entry sessions it knows open, the sweeps a
 * closed session left pending until its grace window ends, the dead-man timers and the explicit cancel-on-disconnect
 * arms, in one table of fixed capacity. Slots are taken lowest first and freed in place, so the table's contents, slot
 * by slot, are a function of the commands applied: the state hash and the state store read it slot by slot.
 * <p>
 * Deadlines are stamped command times. {@link #nextDue} hands out the due entries in the order of their deadline, then
 * their key (kind, account bytes, market, credential, session), so that fires are ordered the same way on every node
 * whatever their slots. Lookups scan the table: they happen on protection commands, never on the order path, which
 * only compares the stamped time with {@link #nextDeadline()}.
 * <p>
 * Not thread safe: the engine's thread owns it.
 */
public final class ProtectionTable
{
    /** An unused slot. */
    public static final byte FREE = 0;
    /** A session the engine knows open. */
    public static final byte SESSION = 1;
    /** A closed session's sweep, due at the end of its grace window. */
    public static final byte DISCONNECT = 2;
    /** A dead-man timer. */
    public static final byte DEAD_MAN = 3;
    /** An explicit cancel-on-disconnect arm of an account (or of an account and market). */
    public static final byte CANCEL_ON_DISCONNECT = 4;
    /** Kinds are 1 to 4; a restored record holding any other value is refused. */
    public static final byte MAX_KIND = CANCEL_ON_DISCONNECT;
    /** The market of an entry that covers every market. */
    public static final long ALL_MARKETS = -1L;
    /** {@link #nextDeadline()} when nothing is pending. */
    public static final long NONE = Long.MAX_VALUE;
    /** The default capacity of the table ({@code EngineConfig.protectionCapacity}). */
    public static final int DEFAULT_CAPACITY = 4_096;
    private static final int ADDRESS = 20;

    private final int capacity;
    private final byte[] kind;
    private final byte[] account;
    private final long[] market;
    private final long[] credential;
    private final long[] session;
    private final long[] deadline;
    private final long[] graceMs;
    /** SESSION: its policy sweeps on close; SESSION: 1 = wallet kind in {@link #sessionKind}. */
    private final boolean[] sweeps;
    private final byte[] sessionKind;
    private int used;
    /** A lower bound of the earliest deadline pending; {@link #NONE} when none is. */
    private long nextDeadline = NONE;

    public ProtectionTable(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("the protection table needs at least one slot: " + capacity);
        }
        this.capacity = capacity;
        kind = new byte[capacity];
        account = new byte[capacity * ADDRESS];
        market = new long[capacity];
        credential = new long[capacity];
        session = new long[capacity];
        deadline = new long[capacity];
        graceMs = new long[capacity];
        sweeps = new boolean[capacity];
        sessionKind = new byte[capacity];
    }

    public int capacity()
    {
        return capacity;
    }

    /** Slots in use. */
    public int size()
    {
        return used;
    }

    /**
     * A lower bound of the earliest pending deadline ({@link #NONE} for none): nothing is due before it. A renewal may
     * leave it early; {@link #nextDue} then finds nothing and makes it exact.
     */
    public long nextDeadline()
    {
        return nextDeadline;
    }

    /** Whether an entry may be due at {@code nowMs}: the only check on the order path. */
    public boolean mayBeDue(final long nowMs)
    {
        return nowMs >= nextDeadline;
    }

    /**
     * The due entry ({@code deadline <= nowMs}) that fires first: the earliest deadline, then the smallest key; -1 when
     * none is due, and the next deadline is then exact.
     */
    public int nextDue(final long nowMs)
    {
        int best = -1;
        long earliest = NONE;
        for (int slot = 0; slot < capacity; slot++)
        {
            if (!hasDeadline(kind[slot]))
            {
                continue;
            }
            final long due = deadline[slot];
            if (due <= nowMs && (best < 0 || due < deadline[best] || due == deadline[best] && keyBefore(slot, best)))
            {
                best = slot;
            }
            if (due > nowMs && due < earliest)
            {
                earliest = due;
            }
        }
        if (best < 0)
        {
            nextDeadline = earliest;
        }
        return best;
    }

    private static boolean hasDeadline(final byte kind)
    {
        return kind == DISCONNECT || kind == DEAD_MAN;
    }

    /** Whether slot a's key sorts before slot b's: kind, account bytes (unsigned), market, credential, session. */
    private boolean keyBefore(final int a, final int b)
    {
        if (kind[a] != kind[b])
        {
            return kind[a] < kind[b];
        }
        final int bytes = Arrays.compareUnsigned(account, a * ADDRESS, (a + 1) * ADDRESS, account, b * ADDRESS,
            (b + 1) * ADDRESS);
        if (bytes != 0)
        {
            return bytes < 0;
        }
        if (market[a] != market[b])
        {
            return market[a] < market[b];
        }
        if (credential[a] != credential[b])
        {
            return Long.compareUnsigned(credential[a], credential[b]) < 0;
        }
        return Long.compareUnsigned(session[a], session[b]) < 0;
    }

    /** The slot of the open session {@code sessionId}, or -1. */
    public int findSession(final long sessionId)
    {
        for (int slot = 0; slot < capacity; slot++)
        {
            if (kind[slot] == SESSION && session[slot] == sessionId)
            {
                return slot;
            }
        }
        return -1;
    }

    /** The slot of the entry of {@code kind} for this account and market ({@link #ALL_MARKETS}), or -1. */
    public int find(final byte kind, final DirectBuffer accountBuffer, final int accountOffset, final long market)
    {
        for (int slot = 0; slot < capacity; slot++)
        {
            if (this.kind[slot] == kind && this.market[slot] == market &&
                sameAccount(slot, accountBuffer, accountOffset))
            {
                return slot;
            }
        }
        return -1;
    }

    /**
     * The first slot from {@code from} holding an entry of {@code kind} for this account (any market, any credential
     * unless {@code matchCredential}), or -1.
     */
    public int next(final int from, final byte kind, final DirectBuffer accountBuffer, final int accountOffset,
        final boolean matchCredential, final long credentialId)
    {
        for (int slot = Math.max(0, from); slot < capacity; slot++)
        {
            if (this.kind[slot] == kind && sameAccount(slot, accountBuffer, accountOffset) &&
                (!matchCredential || credential[slot] == credentialId))
            {
                return slot;
            }
        }
        return -1;
    }

    /** The first slot from {@code from} holding an entry of {@code kind}, or -1. */
    public int next(final int from, final byte kind)
    {
        for (int slot = Math.max(0, from); slot < capacity; slot++)
        {
            if (this.kind[slot] == kind)
            {
                return slot;
            }
        }
        return -1;
    }

    private boolean sameAccount(final int slot, final DirectBuffer buffer, final int offset)
    {
        final int base = slot * ADDRESS;
        for (int i = 0; i < ADDRESS; i++)
        {
            if (account[base + i] != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes the lowest free slot for an entry of {@code kind}; -1 when the table is full (the caller refuses). A
     * deadline of {@link #NONE} means none.
     */
    public int add(final byte kind, final DirectBuffer accountBuffer, final int accountOffset, final long market,
        final long credentialId, final long sessionId, final long deadlineMs, final long grace)
    {
        if (used == capacity)
        {
            return -1;
        }
        for (int slot = 0; slot < capacity; slot++)
        {
            if (this.kind[slot] == FREE)
            {
                used++;
                this.kind[slot] = kind;
                accountBuffer.getBytes(accountOffset, account, slot * ADDRESS, ADDRESS);
                this.market[slot] = market;
                credential[slot] = credentialId;
                session[slot] = sessionId;
                graceMs[slot] = grace;
                sweeps[slot] = false;
                sessionKind[slot] = 0;
                deadline(slot, deadlineMs);
                return slot;
            }
        }
        throw new IllegalStateException("protection table count " + used + " below capacity but no free slot");
    }

    /** Sets a slot's deadline ({@link #NONE}: none), keeping {@link #nextDeadline()} a lower bound. */
    public void deadline(final int slot, final long deadlineMs)
    {
        deadline[slot] = deadlineMs;
        if (hasDeadline(kind[slot]) && deadlineMs < nextDeadline)
        {
            nextDeadline = deadlineMs;
        }
    }

    /** Turns an entry into another kind in place (a session into its pending sweep), keeping its slot. */
    public void kind(final int slot, final byte kind, final long deadlineMs)
    {
        this.kind[slot] = kind;
        deadline(slot, deadlineMs);
    }

    /** A session's or an arm's grace window, or a dead-man timer's last countdown. */
    public void grace(final int slot, final long grace)
    {
        graceMs[slot] = grace;
    }

    /** A session's policy: whether it sweeps on close, and its kind (0 session key, 1 wallet). */
    public void sessionPolicy(final int slot, final boolean sweepsOnClose, final byte kindOfSession)
    {
        sweeps[slot] = sweepsOnClose;
        sessionKind[slot] = kindOfSession;
    }

    public void remove(final int slot)
    {
        if (kind[slot] != FREE)
        {
            used--;
        }
        kind[slot] = FREE;
        Arrays.fill(account, slot * ADDRESS, (slot + 1) * ADDRESS, (byte)0);
        market[slot] = 0;
        credential[slot] = 0;
        session[slot] = 0;
        deadline[slot] = 0;
        graceMs[slot] = 0;
        sweeps[slot] = false;
        sessionKind[slot] = 0;
    }

    public byte kindOf(final int slot)
    {
        return kind[slot];
    }

    public void accountInto(final int slot, final MutableDirectBuffer into, final int offset)
    {
        into.putBytes(offset, account, slot * ADDRESS, ADDRESS);
    }

    public long marketOf(final int slot)
    {
        return market[slot];
    }

    public long credentialOf(final int slot)
    {
        return credential[slot];
    }

    public long sessionOf(final int slot)
    {
        return session[slot];
    }

    public long deadlineOf(final int slot)
    {
        return deadline[slot];
    }

    public long graceOf(final int slot)
    {
        return graceMs[slot];
    }

    public boolean sweepsOf(final int slot)
    {
        return sweeps[slot];
    }

    public byte sessionKindOf(final int slot)
    {
        return sessionKind[slot];
    }

    /**
     * Puts a stored entry back in its slot (a restart from the state store or a snapshot): the slot must be free.
     *
     * @return false (and nothing changed) for a slot outside the table, taken already, or a kind not defined.
     */
    public boolean restore(final int slot, final byte kind, final byte[] accountBytes, final long market,
        final long credentialId, final long sessionId, final long deadlineMs, final long grace,
        final boolean sweepsOnClose, final byte kindOfSession)
    {
        if (slot < 0 || slot >= capacity || this.kind[slot] != FREE || kind < SESSION || kind > MAX_KIND ||
            accountBytes.length != ADDRESS)
        {
            return false;
        }
        used++;
        this.kind[slot] = kind;
        System.arraycopy(accountBytes, 0, account, slot * ADDRESS, ADDRESS);
        this.market[slot] = market;
        credential[slot] = credentialId;
        session[slot] = sessionId;
        graceMs[slot] = grace;
        sweeps[slot] = sweepsOnClose;
        sessionKind[slot] = kindOfSession;
        deadline(slot, deadlineMs);
        return true;
    }
}
