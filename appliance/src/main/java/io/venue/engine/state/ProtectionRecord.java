package io.venue.engine.state;

/**
 * Map value: one slot of the engine's protection table (a session, a pending sweep, a dead-man timer or a
 * cancel-on-disconnect arm), keyed by its slot number. A free slot has no entry.
 * <pre>
 *   0  kind          i8    1 session, 2 pending sweep, 3 dead-man timer, 4 cancel-on-disconnect arm
 *   1  sweeps        i8    a session: 1 when its policy sweeps on close
 *   2  sessionKind   i8    a session: 0 session key, 1 wallet
 *   3  (reserved)    5 bytes
 *   8  market        i64   the market id, or -1 for every market
 *  16  credential    i64   the credential id (8 bytes, big-endian), 0 for none
 *  24  session       i64   the session id (the lane's connection id), 0 for none
 *  32  deadline      i64   a sweep's or timer's deadline (stamped ms); Long.MAX_VALUE for none
 *  40  grace         i64   a session's or arm's grace window, a timer's countdown (ms)
 *  48  account       20 bytes
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class ProtectionRecord extends Flyweight
{
    public static final int KIND = 0;
    public static final int SWEEPS = 1;
    public static final int SESSION_KIND = 2;
    public static final int MARKET = 8;
    public static final int CREDENTIAL = 16;
    public static final int SESSION = 24;
    public static final int DEADLINE = 32;
    public static final int GRACE = 40;
    public static final int ACCOUNT = 48;
    public static final int SIZE = 68;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public byte kind()
    {
        return getByte(KIND);
    }

    public boolean sweeps()
    {
        return getByte(SWEEPS) != 0;
    }

    public byte sessionKind()
    {
        return getByte(SESSION_KIND);
    }

    public long market()
    {
        return getLong(MARKET);
    }

    public long credential()
    {
        return getLong(CREDENTIAL);
    }

    public long session()
    {
        return getLong(SESSION);
    }

    public long deadline()
    {
        return getLong(DEADLINE);
    }

    public long grace()
    {
        return getLong(GRACE);
    }

    public void getAccount(final byte[] into)
    {
        for (int i = 0; i < 20; i++)
        {
            into[i] = getByte(ACCOUNT + i);
        }
    }

    public ProtectionRecord set(final byte kind, final boolean sweeps, final byte sessionKind, final long market,
        final long credential, final long session, final long deadline, final long grace, final byte[] account)
    {
        putByte(KIND, kind);
        putByte(SWEEPS, (byte)(sweeps ? 1 : 0));
        putByte(SESSION_KIND, sessionKind);
        putLong(MARKET, market);
        putLong(CREDENTIAL, credential);
        putLong(SESSION, session);
        putLong(DEADLINE, deadline);
        putLong(GRACE, grace);
        for (int i = 0; i < 20; i++)
        {
            putByte(ACCOUNT + i, account[i]);
        }
        return this;
    }
}
