package io.venue.engine.risk;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LedgerTest
{
    @Test
    void movesBetweenAvailableAndLockedNeverGoNegative()
    {
        final Ledger ledger = new Ledger(4, 1);
        assertTrue(ledger.credit(3, 1, 100));
        assertFalse(ledger.lock(3, 1, 101));
        assertTrue(ledger.lock(3, 1, 60));
        assertEquals(40, ledger.available(3, 1));
        assertEquals(60, ledger.locked(3, 1));
        assertFalse(ledger.unlock(3, 1, 61));
        assertTrue(ledger.spendLocked(3, 1, 10));
        assertTrue(ledger.unlock(3, 1, 50));
        assertEquals(90, ledger.available(3, 1));
        assertFalse(ledger.debit(3, 1, 91));
        assertTrue(ledger.debit(3, 1, 90));
        assertEquals(0, ledger.total(1, 4));
        assertFalse(ledger.credit(3, 1, -1));
    }

    @Test
    void creditsNeverOverflowTheAccountTotal()
    {
        final Ledger ledger = new Ledger(2, 1);
        assertTrue(ledger.credit(0, 0, Long.MAX_VALUE - 5));
        assertTrue(ledger.lock(0, 0, 10));
        assertFalse(ledger.credit(0, 0, 6));
        assertTrue(ledger.credit(0, 0, 5));
        assertEquals(Long.MAX_VALUE, ledger.available(0, 0) + ledger.locked(0, 0));
    }
}
