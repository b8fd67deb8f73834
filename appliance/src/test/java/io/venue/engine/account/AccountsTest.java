package io.venue.engine.account;

import io.venue.engine.index.FixedKeyIndex;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccountsTest
{
    @Test
    void numbersAddressesInOrderOfFirstAppearanceAndWritesThemBack()
    {
        final Accounts accounts = new Accounts(1);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < 40; i++)
        {
            buffer.setMemory(0, 20, (byte)i);
            buffer.putByte(19, (byte)0xff);
            assertEquals(FixedKeyIndex.MISSING, accounts.find(buffer, 0));
            assertEquals(i, accounts.findOrAdd(buffer, 0));
            assertEquals(i, accounts.findOrAdd(buffer, 0));
        }
        assertEquals(40, accounts.count());
        buffer.setMemory(0, 20, (byte)7);
        buffer.putByte(19, (byte)0xff);
        assertEquals(7, accounts.find(buffer, 0));
        assertTrue(accounts.hasAddress(7, buffer, 0));
        final UnsafeBuffer out = new UnsafeBuffer(new byte[24]);
        accounts.addressInto(7, out, 2);
        final byte[] expected = new byte[20];
        buffer.getBytes(0, expected);
        final byte[] actual = new byte[20];
        out.getBytes(2, actual);
        assertArrayEquals(expected, actual);
    }
}
