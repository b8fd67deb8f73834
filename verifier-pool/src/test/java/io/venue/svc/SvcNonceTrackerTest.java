package io.venue.svc;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvcNonceTrackerTest
{
    private static final String A = "spk_000000000000000a";
    private static final String B = "spk_000000000000000b";

    private final SvcNonceTracker tracker = new SvcNonceTracker();

    @Test
    void onlyStrictlyGreaterNoncesAreAccepted()
    {
        assertEquals(SvcNonceTracker.NONE, tracker.highest(A));
        assertTrue(tracker.tryAccept(A, 0));
        assertFalse(tracker.tryAccept(A, 0));
        assertTrue(tracker.tryAccept(A, 5));
        assertFalse(tracker.tryAccept(A, 5));
        assertFalse(tracker.tryAccept(A, 4));
        assertTrue(tracker.tryAccept(A, 6));
        assertEquals(6, tracker.highest(A));
    }

    @Test
    void comparisonIsUnsigned()
    {
        assertTrue(tracker.tryAccept(A, Long.MAX_VALUE));
        assertTrue(tracker.tryAccept(A, Long.MIN_VALUE));
        assertFalse(tracker.tryAccept(A, Long.MAX_VALUE));
        assertFalse(tracker.tryAccept(A, 1));
        assertTrue(tracker.tryAccept(A, -2L));
        assertEquals("18446744073709551614", Long.toUnsignedString(tracker.highest(A)));
        // Exhausted: only the reserved value is above, and it is never accepted.
        assertFalse(tracker.tryAccept(A, -1L));
        assertEquals(SvcAuthResult.NONCE_REPLAYED, tracker.accept(A, -2L));
        assertEquals(409, SvcAuthResult.NONCE_REPLAYED.httpStatus());
    }

    @Test
    void reservedNonceIsNeverAccepted()
    {
        assertFalse(tracker.tryAccept(A, SvcHeaders.RESERVED_NONCE));
        assertEquals(0, tracker.size());
    }

    @Test
    void keysAreIndependentAndCanBeForgotten()
    {
        assertEquals(SvcAuthResult.OK, tracker.accept(A, 10));
        assertTrue(tracker.tryAccept(B, 1));
        assertFalse(tracker.tryAccept(A, 9));
        assertEquals(2, tracker.size());
        tracker.forget(A);
        assertEquals(SvcNonceTracker.NONE, tracker.highest(A));
        assertEquals(1, tracker.size());
        assertEquals(1, tracker.highest(B));
    }

    @Property(tries = 300)
    void matchesAModelInUnsignedArithmetic(@ForAll final List<Long> nonces)
    {
        final SvcNonceTracker subject = new SvcNonceTracker();
        BigInteger highest = null;
        for (final long nonce : nonces)
        {
            final BigInteger value = new BigInteger(Long.toUnsignedString(nonce));
            final boolean expected = !value.equals(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)) &&
                (highest == null || value.compareTo(highest) > 0);
            assertEquals(expected, subject.tryAccept(A, nonce), () -> "nonce " + Long.toUnsignedString(nonce));
            if (expected)
            {
                highest = value;
            }
        }
    }
}
