package io.venue.transport.fix;

import io.venue.journal.sbe.FixMarkKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a session's numbers come from: this node's last session of the credential and sub-session, else the journal's
 * marks replayed with its reports (exact after a LOGOUT; past the reserved block after a LOGON, RESERVE or ADMIN with
 * no LOGOUT, so no number is sent twice), else 1 and 1; one live session per key, and no room made for more keys than
 * the capacity.
 */
class FixSequencesTest
{
    private static final String KEY = FixSequences.key("spk_0123456789abcdef", FixSession.ORDER_ENTRY);

    private static final String API_KEY = "spk_0123456789abcdef";
    private static final long CREDENTIAL = FixSequences.credentialId(API_KEY);
    private static final String ACCOUNT = "0x" + "ab".repeat(20);
    private static final String COPY_KEY = FixSequences.key(API_KEY, FixSession.DROP_COPY);

    /** The journal's side of the marks: each one offered is recorded, in the order offered. */
    private static FixOutbound.Marks recording(final FixJournalMarks journal)
    {
        return (connectionId, credentialId, subSession, kind, nextIn, nextOut, reserved, reportKey) ->
        {
            journal.put(FixSequences.key(String.format("spk_%016x", credentialId), subSession == 1 ?
                FixSession.DROP_COPY : FixSession.ORDER_ENTRY), kind, nextIn, nextOut, reserved, reportKey, true);
            return true;
        };
    }

    private static FixReport report(final long credentialId, final int n)
    {
        return new FixReport.Builder().to(credentialId, ACCOUNT).order("order" + n, "c" + n, null)
            .exec(Integer.toString(n), '0', '0').time(n, n).build();
    }

    /** Every stored report's number, by its ExecID. */
    private static Map<String, Long> numbers(final FixOutbound outbound)
    {
        final Map<String, Long> numbers = new HashMap<>();
        for (final FixOutbound.Pending stored : outbound.stored(1, Long.MAX_VALUE))
        {
            numbers.put(stored.report().execId, stored.seq());
        }
        return numbers;
    }

    /**
     * The numbers are a function of the journal: a live run interleaves reports (numbered on the reports' thread,
     * logged on or not) with session messages (numbered by the session, each an ADMIN mark) at random, logs on and off,
     * sometimes with ResetSeqNumFlag; a node that starts over the marks it journaled and replays the same reports gives
     * every stored report the number it had, and numbers on from where the live run stopped.
     */
    @Test
    void aReplayOfTheJournalNumbersEveryReportAsTheLiveRunDid()
    {
        for (int seed = 0; seed < 200; seed++)
        {
            final Random random = new Random(seed);
            final FixJournalMarks journal = new FixJournalMarks();
            final FixSequences live = new FixSequences(10, null, k -> ACCOUNT, recording(journal), 64);
            live.replayDone();
            final List<FixReport> reports = new ArrayList<>();
            final List<Long> keys = new ArrayList<>();
            final Map<String, FixOutbound> attached = new HashMap<>();
            long reportKey = 1 << 20;
            // up to a few thousand numbers: past half a reserved block, so RESERVE marks come between reports too
            final int steps = 50 + random.nextInt(seed % 4 == 0 ? 4_000 : 400);
            for (int step = 0; step < steps; step++)
            {
                final String sub = random.nextBoolean() ? FixSession.ORDER_ENTRY : FixSession.DROP_COPY;
                // every fourth seed logs on and off rarely, so that a session numbers past half its reserved block
                final int action = seed % 4 == 0 && random.nextInt(100) != 0 ? random.nextInt(8) : random.nextInt(10);
                if (action < 5)
                {
                    reportKey += random.nextInt(3) == 0 ? 1 : 1 << 20;
                    final FixReport report = report(random.nextInt(4) == 0 ? 0 : CREDENTIAL, step);
                    reports.add(report);
                    keys.add(reportKey);
                    live.deliver(report, reportKey, false);
                }
                else if (action < 8)
                {
                    final FixOutbound outbound = attached.get(sub);
                    if (outbound != null)
                    {
                        outbound.admin();
                    }
                }
                else if (attached.containsKey(sub))
                {
                    attached.remove(sub).detach(null, 1 + step);
                }
                else
                {
                    final FixOutbound outbound = live.claim(API_KEY, sub, ACCOUNT);
                    live.attach(outbound, null, 7, random.nextInt(8) == 0, 1 + step);
                    outbound.admin();
                    attached.put(sub, outbound);
                }
            }
            for (final FixOutbound outbound : attached.values())
            {
                outbound.detach(null, 1_000);
            }
            final FixSequences restarted = new FixSequences(10, journal, k -> ACCOUNT, recording(
                new FixJournalMarks()), 64);
            for (int i = 0; i < reports.size(); i++)
            {
                restarted.deliver(reports.get(i), keys.get(i), true);
            }
            restarted.replayDone();
            for (final String sub : List.of(FixSession.ORDER_ENTRY, FixSession.DROP_COPY))
            {
                if (!live.isKnown(FixSequences.key(API_KEY, sub)))
                {
                    continue;
                }
                final FixOutbound before = live.claim(API_KEY, sub, ACCOUNT);
                final FixOutbound after = restarted.claim(API_KEY, sub, ACCOUNT);
                assertEquals(numbers(before), numbers(after), "seed " + seed + ", " + sub);
                assertEquals(before.nextOut(), after.nextOut(), "seed " + seed + ", " + sub + ": numbers on alike");
                assertEquals(before.nextIn(), after.nextIn(), "seed " + seed + ", " + sub);
            }
        }
    }

    @Test
    void reportsNumberedWhileLoggedOffAreStoredAndTheNextLogonSeesTheGap()
    {
        final FixJournalMarks journal = new FixJournalMarks();
        final FixSequences sequences = new FixSequences(10, null, k -> ACCOUNT, recording(journal), 3);
        sequences.replayDone();
        final FixOutbound copy = sequences.claim(API_KEY, FixSession.DROP_COPY, ACCOUNT);
        sequences.attach(copy, null, 1, false, 2);
        assertEquals(1, copy.admin(), "the Logon's answer");
        copy.detach(null, 2);
        for (int i = 1; i <= 5; i++)
        {
            sequences.deliver(report(0, i), (long)i << 20, false);
        }
        assertEquals(7, copy.nextOut());
        final List<FixOutbound.Pending> stored = copy.stored(1, 100);
        assertEquals(3, stored.size(), "at most the store's capacity, the latest kept");
        assertEquals(List.of(4L, 5L, 6L), stored.stream().map(FixOutbound.Pending::seq).toList());
        assertEquals("5", stored.get(2).report().execId);
        assertTrue(copy.claim());
        sequences.attach(copy, null, 2, false, 3);
        assertEquals(6, copy.lastWritten(), "written up to the logoff; 2 to 6 are the client's gap");
        assertEquals(7, copy.admin());
    }

    @Test
    void afterAnUncleanStopTheNumbersGoOnPastTheReservedBlock()
    {
        final FixJournalMarks journal = new FixJournalMarks();
        journal.put(KEY, FixMarkKind.LOGON, 5, 7, 1_006);
        journal.put(KEY, FixMarkKind.LOGOUT, 9, 12, 1_006);
        final String other = FixSequences.key("spk_0123456789abcdef", FixSession.DROP_COPY);
        journal.put(other, FixMarkKind.RESERVE, 40, 600, 2_006);
        journal.put(other, FixOutbound.ADMIN, 40, 601, 2_006, 5L << 20, true);
        // a RESERVE of version 14 may come while logged off (reports numbered for the key): after a LOGOUT, exact
        final String third = FixSequences.key("spk_2222222222222222", FixSession.DROP_COPY);
        journal.put(third, FixOutbound.LOGON, 1, 2, 1_001, 0, true);
        journal.put(third, FixOutbound.LOGOUT, 3, 4, 1_001, 0, true);
        journal.put(third, FixOutbound.RESERVE, 3, 600, 2_100, 0, true);
        final FixSequences sequences = new FixSequences(10, journal, k -> ACCOUNT, (a, b, c, d, e, f, g, h) -> true,
            16);
        // a report before the key's first version 14 mark is not its; one after it is numbered after the marks
        sequences.deliver(report(0, 1), 4L << 20, true);
        sequences.deliver(report(0, 2), 6L << 20, true);
        sequences.replayDone();
        final FixOutbound exact = sequences.claim("spk_0123456789abcdef", FixSession.ORDER_ENTRY, ACCOUNT);
        assertEquals(9, exact.nextIn());
        assertEquals(12, exact.nextOut(), "after a LOGOUT: exact");
        final FixOutbound past = sequences.claim("spk_0123456789abcdef", FixSession.DROP_COPY, ACCOUNT);
        assertEquals(List.of(601L), past.stored(1, 10_000).stream().map(FixOutbound.Pending::seq).toList());
        assertEquals(2_007, past.nextOut(), "without a LOGOUT: past the block");
        assertEquals(40, past.nextIn());
        final FixOutbound afterLogout = sequences.claim("spk_2222222222222222", FixSession.DROP_COPY, ACCOUNT);
        assertEquals(602, afterLogout.nextOut(), "logged off when the node stopped: exact (600, then the replay's " +
            "two reports of the account)");
    }

    @Test
    void oneLiveSessionPerKeyAndNoRoomForMoreKeysThanTheCapacity()
    {
        final FixSequences sequences = new FixSequences(2, null, k -> ACCOUNT, (a, b, c, d, e, f, g, h) -> true, 16);
        assertFalse(sequences.ready(), "not before the replay");
        sequences.replayDone();
        final FixOutbound first = sequences.claim(API_KEY, FixSession.ORDER_ENTRY, ACCOUNT);
        assertNull(sequences.claim(API_KEY, FixSession.ORDER_ENTRY, ACCOUNT), "a second session while one is live");
        assertTrue(sequences.isLive(KEY));
        first.release();
        assertSame(first, sequences.claim(API_KEY, FixSession.ORDER_ENTRY, ACCOUNT));
        assertArrayEquals(new long[] {1, 1}, sequences.peek(KEY));
        assertNotNull(sequences.claim(API_KEY, FixSession.DROP_COPY, ACCOUNT));
        assertNull(sequences.claim("spk_1111111111111111", FixSession.ORDER_ENTRY, ACCOUNT), "no room for a third");
    }

    @Test
    void theJournalsMarksAreBoundedPerKeyAndInKeys()
    {
        final FixJournalMarks journal = new FixJournalMarks(3, 2);
        for (int i = 0; i < 10; i++)
        {
            journal.put("a", FixOutbound.ADMIN, 1, i + 2, 1_000, i, true);
            journal.put("k" + i, FixOutbound.ADMIN, 1, 2, 1_000, i, true);
        }
        assertEquals(2, journal.size());
        assertEquals(List.of(9L, 10L, 11L), journal.marks("a").stream().map(FixJournalMarks.Mark::nextOut).toList());
        assertEquals(0, journal.registeredAfter("a"), "the first version 14 mark, even when dropped");
        assertArrayEquals(new long[] {1, 1_001}, journal.numbers("a"));
    }

    @Test
    void logonAttemptsAreCountedPerCredentialAndPerAddressInBoundedTables()
    {
        final LogonAttempts attempts = new LogonAttempts(5, 60_000, 3);
        for (int i = 0; i < 5; i++)
        {
            assertNull(attempts.attempt("spk_a", "10.0.0." + i, 1_000));
        }
        assertEquals("credential", attempts.attempt("spk_a", "10.0.0.9", 1_000));
        for (int i = 0; i < 4; i++)
        {
            assertNull(attempts.attempt("spk_" + i, "10.0.1.1", 2_000));
        }
        assertNull(attempts.attempt("spk_x", "10.0.1.1", 2_000));
        assertEquals("address", attempts.attempt("spk_y", "10.0.1.1", 2_000));
        // a minute (and a bucket) later the address may try again
        assertNull(attempts.attempt("spk_z", "10.0.1.1", 2_000 + 60_000 + 6_000));
        assertTrue(attempts.size() <= 6);
    }
}
