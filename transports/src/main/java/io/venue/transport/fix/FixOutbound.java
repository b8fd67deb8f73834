package io.venue.transport.fix;

import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * One FIX session key's numbers (credential and sub-session; docs/FIX.md, "Sequence numbers" and "ResendRequest"),
 * kept from one connection to the next. The outbound MsgSeqNum is shared by two threads: the reports' thread numbers
 * every journal-derived report routed to the key, logged on or not, in journal order ({@link #report}); the session's
 * event loop numbers its session-level and lane-made messages ({@link #admin}) and journals each such number as an
 * ADMIN mark naming the last report numbered before it. So the numbers are a function of the journal: a replay that
 * numbers the reports in journal order and applies each mark after the report it names gives every report the number
 * it had ({@link #replayReport}). The last {@code storeCapacity} reports are kept with their numbers, which a
 * ResendRequest sends again; and while a session is logged on, what is numbered but not yet written waits here, written
 * by its event loop in number order ({@link #nextToWrite}). Every method holds this object's lock.
 */
final class FixOutbound
{
    static final int LOGON = 0;
    static final int LOGOUT = 1;
    static final int RESERVE = 2;
    static final int ADMIN = 3;
    /**
     * Outbound MsgSeqNums reserved by one journaled mark: a node that stops without a LOGOUT mark numbers on past the
     * block, so no number is sent twice; a new block is journaled when half of the current one is used.
     */
    static final long RESERVE_BLOCK = 1_000;

    /** Where marks are journaled (the order-entry core's lanes' ring). */
    @FunctionalInterface
    interface Marks
    {
        boolean mark(long connectionId, long credentialId, int subSession, int kind, long nextIn, long nextOut,
            long reserved, long reportKey);
    }

    /** A message numbered for the live session: a report (written by the session) or a session message's bytes. */
    record Pending(long seq, FixReport report, ByteBuf bytes)
    {
    }

    final String key;
    final long credentialId;
    final boolean dropCopy;
    /** The account whose reports a drop-copy key gets (null: none known). */
    final String account;
    /** Reports with a key up to this one were routed before the key was known: not this key's (-1: not routed yet). */
    long registeredAfter = -1;
    /** Whether the key is in the routes (its sequences' lock guards both). */
    boolean routed;

    private final Marks marks;
    private final int storeCapacity;
    private long[] storeSeqs = new long[0];
    private FixReport[] storeReports = new FixReport[0];
    private int storeHead;
    private int storeCount;

    private long nextIn = 1;
    private long nextOut = 1;
    private long reservedThrough;
    private long lastReportKey;
    private boolean live;
    private long connectionId;
    private FixSession session;
    private long nextToWrite;
    private final PriorityQueue<Pending> pending = new PriorityQueue<>((a, b) -> Long.compare(a.seq, b.seq));

    /** Marks read from the journal at the start, applied as the replay reaches the reports they name. */
    private final List<FixJournalMarks.Mark> replay;
    private int replayIndex;
    /** Whether the replay's last LOGON had no LOGOUT after it (RESERVE marks also come while logged off). */
    private boolean replayLoggedOn;

    FixOutbound(final String key, final long credentialId, final boolean dropCopy, final String account,
        final Marks marks, final int storeCapacity, final List<FixJournalMarks.Mark> replay)
    {
        this.key = key;
        this.credentialId = credentialId;
        this.dropCopy = dropCopy;
        this.account = account;
        this.marks = marks;
        this.storeCapacity = storeCapacity;
        this.replay = replay == null ? List.of() : replay;
    }

    /** The key is routed the reports after {@code reportKey} (its sequences' lock held). */
    synchronized void registerAfter(final long reportKey)
    {
        registeredAfter = reportKey;
        lastReportKey = Math.max(lastReportKey, reportKey);
    }

    /** A replayed report of the journal (the node starting): numbered as it was, not sent. */
    synchronized void replayReport(final FixReport report, final long reportKey)
    {
        applyReplayMarks(reportKey);
        numberReport(report, reportKey, false);
    }

    /**
     * The replay reached the journal's end: the last marks apply; a session the node stopped under (a LOGON with no
     * LOGOUT) numbers on past its reserved block, as its last messages' marks may not have been journaled.
     */
    synchronized void replayDone()
    {
        applyReplayMarks(Long.MAX_VALUE);
        if (replayLoggedOn)
        {
            nextOut = Math.max(nextOut, reservedThrough + 1);
        }
    }

    private void applyReplayMarks(final long beforeKey)
    {
        while (replayIndex < replay.size() && replay.get(replayIndex).reportKey() < beforeKey)
        {
            final FixJournalMarks.Mark mark = replay.get(replayIndex++);
            if (mark.nextOut() < nextOut)
            {
                // a logon with ResetSeqNumFlag: the numbers start again, the stored ones are of the last run
                storeCount = 0;
            }
            nextOut = mark.nextOut();
            nextIn = mark.nextIn();
            reservedThrough = mark.reserved();
            if (mark.kind() == LOGON || mark.kind() == LOGOUT)
            {
                replayLoggedOn = mark.kind() == LOGON;
            }
            else if (mark.kind() == ADMIN || !mark.keyed())
            {
                // an ADMIN mark is a logged-on session's; so was every RESERVE before version 14
                replayLoggedOn = true;
            }
            lastReportKey = Math.max(lastReportKey, mark.reportKey());
        }
    }

    /** A live report of the journal: numbered now; queued for the session's event loop when one is logged on. */
    synchronized FixSession report(final FixReport report, final long reportKey)
    {
        numberReport(report, reportKey, true);
        return session;
    }

    private void numberReport(final FixReport report, final long reportKey, final boolean live)
    {
        final long seq = nextOut++;
        lastReportKey = reportKey;
        if (live)
        {
            // after the report's key is the last: a replay applies the mark after this report, not before it
            reserve();
        }
        store(seq, report);
        if (live && session != null)
        {
            pending.add(new Pending(seq, report, null));
        }
    }

    /**
     * Claims the key for a session (false when one is logged on). The caller checks the Logon's MsgSeqNum against
     * {@link #nextIn()}, then {@link #attach}es or {@link #release}s.
     */
    synchronized boolean claim()
    {
        if (live)
        {
            return false;
        }
        live = true;
        return true;
    }

    synchronized void release()
    {
        live = false;
    }

    synchronized long nextIn()
    {
        return nextIn;
    }

    synchronized long nextOut()
    {
        return nextOut;
    }

    synchronized boolean isLive()
    {
        return live;
    }

    /**
     * The claimed key's session is logged on: it numbers on from here ({@code reset}: both ways from 1), a new block is
     * reserved and the LOGON mark journaled. Reports numbered while no session was logged on are below
     * {@link #nextToWrite}: the client sees the gap and asks for them.
     */
    synchronized void attach(final FixSession session, final long connectionId, final boolean reset,
        final long nextInAfterLogon)
    {
        if (reset)
        {
            nextIn = 1;
            nextOut = 1;
            storeCount = 0;
        }
        this.session = session;
        this.connectionId = connectionId;
        nextToWrite = nextOut;
        nextIn = nextInAfterLogon;
        reservedThrough = nextOut + RESERVE_BLOCK - 1;
        mark(LOGON);
    }

    /** The session ended: what it had not written stays in the store (a resend sends it); the LOGOUT mark. */
    synchronized void detach(final FixSession session, final long nextIn)
    {
        if (this.session != session)
        {
            return;
        }
        this.nextIn = nextIn;
        mark(LOGOUT);
        this.session = null;
        live = false;
        for (final Pending waiting : pending)
        {
            if (waiting.bytes != null)
            {
                waiting.bytes.release();
            }
        }
        pending.clear();
    }

    synchronized void nextIn(final long nextIn)
    {
        this.nextIn = nextIn;
    }

    /** A number for a session-level or lane-made message of the live session, journaled as an ADMIN mark. */
    synchronized long admin()
    {
        final long seq = nextOut++;
        reserve();
        mark(ADMIN);
        return seq;
    }

    /** The bytes of a message numbered by {@link #admin}, to be written in number order. */
    synchronized void enqueue(final long seq, final ByteBuf bytes)
    {
        pending.add(new Pending(seq, null, bytes));
    }

    /** The next message to write, in number order (null: none, or the next number is not ready yet). */
    synchronized Pending nextToWrite()
    {
        final Pending head = pending.peek();
        if (head == null || head.seq != nextToWrite)
        {
            return null;
        }
        nextToWrite++;
        return pending.poll();
    }

    /** The last number the live session has written (what a resend may cover). */
    synchronized long lastWritten()
    {
        return nextToWrite - 1;
    }

    /** The stored reports numbered {@code from} to {@code to}, in number order. */
    synchronized List<Pending> stored(final long from, final long to)
    {
        final List<Pending> found = new ArrayList<>();
        for (int i = 0; i < storeCount; i++)
        {
            final int at = (storeHead + i) % storeSeqs.length;
            final long seq = storeSeqs[at];
            if (seq >= from && seq <= to)
            {
                found.add(new Pending(seq, storeReports[at], null));
            }
        }
        return found;
    }

    /** Journals a new reserved block (RESERVE) once half of the current one is used. */
    private void reserve()
    {
        if (nextOut > reservedThrough - RESERVE_BLOCK / 2)
        {
            reservedThrough = Math.max(reservedThrough, nextOut) + RESERVE_BLOCK;
            mark(RESERVE);
        }
    }

    private void store(final long seq, final FixReport report)
    {
        if (storeCount == storeSeqs.length && storeSeqs.length < storeCapacity)
        {
            // grown as the key's reports come, up to the cap: most keys never hold many
            final int grown = (int)Math.min(storeCapacity, Math.max(16L, storeSeqs.length * 2L));
            final long[] seqs = new long[grown];
            final FixReport[] reports = new FixReport[grown];
            for (int i = 0; i < storeCount; i++)
            {
                seqs[i] = storeSeqs[(storeHead + i) % storeSeqs.length];
                reports[i] = storeReports[(storeHead + i) % storeSeqs.length];
            }
            storeSeqs = seqs;
            storeReports = reports;
            storeHead = 0;
        }
        final int capacity = storeSeqs.length;
        if (capacity == 0)
        {
            return;
        }
        final int at = (storeHead + storeCount) % capacity;
        storeSeqs[at] = seq;
        storeReports[at] = report;
        if (storeCount < capacity)
        {
            storeCount++;
        }
        else
        {
            storeHead = (storeHead + 1) % capacity;
        }
    }

    private void mark(final int kind)
    {
        // a mark the ring cannot take is counted by the sink (venue_fix_marks_not_journaled_total)
        marks.mark(connectionId, credentialId, dropCopy ? 1 : 0, kind, nextIn, nextOut, reservedThrough,
            lastReportKey);
    }
}
