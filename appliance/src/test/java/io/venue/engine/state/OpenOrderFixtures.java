package io.venue.engine.state;

import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fills every field of an order from a seed, and checks them back. */
final class OpenOrderFixtures
{
    private OpenOrderFixtures()
    {
    }

    static void fill(final OpenOrder order, final byte[] account, final byte[] clientOrderId, final long seed)
    {
        order.account(new UnsafeBuffer(account), 0)
            .market((int)(0x8000_0000L + seed))
            .book((byte)(seed & 3))
            .side((byte)(seed & 1))
            .price(1_000 + seed)
            .originalQty(100 + seed)
            .remainingQty(50 + seed)
            .timeInForce((byte)2)
            .stp((byte)-1)
            .expiresAt(1_700_000_000_000L + seed)
            .prioritySequence(seed)
            .reservedCredit(seed * 1_000)
            .clientOrderId(clientOrderId);
    }

    static void assertFilled(final OpenOrder order, final byte[] account, final byte[] clientOrderId, final long seed)
    {
        final byte[] bytes = new byte[20];
        order.getAccount(bytes, 0);
        assertArrayEquals(account, bytes);
        assertEquals((int)(0x8000_0000L + seed), order.market());
        assertEquals((byte)(seed & 3), order.book());
        assertEquals((byte)(seed & 1), order.side());
        assertEquals(1_000 + seed, order.price());
        assertEquals(100 + seed, order.originalQty());
        assertEquals(50 + seed, order.remainingQty());
        assertEquals(2, order.timeInForce());
        assertEquals(-1, order.stp());
        assertEquals(1_700_000_000_000L + seed, order.expiresAt());
        assertEquals(seed, order.prioritySequence());
        assertEquals(seed * 1_000, order.reservedCredit());
        assertTrue(order.hasClientOrderId());
        final UnsafeBuffer cid = new UnsafeBuffer(new byte[16]);
        order.getClientOrderId(cid, 0);
        assertArrayEquals(clientOrderId, cid.byteArray());
    }
}
