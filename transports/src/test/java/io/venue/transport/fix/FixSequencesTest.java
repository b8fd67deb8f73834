package io.venue.transport.fix;

import io.venue.journal.sbe.FixMarkKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a session's numbers come from: this node's last session of the credential and sub-session, else the journal's
 * last mark (exact after a LOGOUT; past the reserved block after a LOGON or RESERVE with no LOGOUT, so no number is
 * sent twice), else 1 and 1; one live session per key, and no room made for more keys than the capacity.
 */
class FixSequencesTest
{
    private static final String KEY = FixSequences.key("spk_0123456789abcdef", FixSession.ORDER_ENTRY);

    @Test
    void aSessionNumbersOnFromTheJournalsLastMark()
    {
        final FixJournalMarks journal = new FixJournalMarks();
        journal.put(KEY, FixMarkKind.LOGON, 5, 7, 1_006);
        journal.put(KEY, FixMarkKind.LOGOUT, 9, 12, 1_006);
        final String other = FixSequences.key("spk_0123456789abcdef", FixSession.DROP_COPY);
        journal.put(other, FixMarkKind.RESERVE, 40, 600, 2_006);
        final FixSequences sequences = new FixSequences(10, journal);
        assertArrayEquals(new long[] {9, 12}, sequences.claim(KEY), "after a LOGOUT: exact");
        assertArrayEquals(new long[] {40, 2_007}, sequences.claim(other), "without a LOGOUT: past the block");
        assertArrayEquals(new long[] {1, 1}, sequences.claim(FixSequences.key("spk_1111111111111111",
            FixSession.ORDER_ENTRY)));
    }

    @Test
    void oneLiveSessionPerKeyAndItsNumbersGoOnToTheNext()
    {
        final FixSequences sequences = new FixSequences(2, null);
        assertArrayEquals(new long[] {1, 1}, sequences.claim(KEY));
        assertNull(sequences.claim(KEY), "a second session of the key while one is live");
        assertTrue(sequences.isLive(KEY));
        sequences.store(KEY, 3, 4, false);
        assertNull(sequences.claim(KEY));
        sequences.store(KEY, 5, 6, true);
        assertArrayEquals(new long[] {5, 6}, sequences.claim(KEY));
        assertArrayEquals(new long[] {1, 1}, sequences.claim("b"));
        assertNull(sequences.claim("c"), "no room for a third key");
        assertEquals(2, new FixSequences(2, null).peek("x").length);
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
