package io.venue.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Map key: an account address and a u32 id — the asset id for balances, the outcome market id for positions.
 * <pre>
 *   0  account  20 bytes
 *  20  id       u32
 * </pre>
 */
public final class AccountIdKey extends Flyweight
{
    public static final int ACCOUNT = 0;
    public static final int ACCOUNT_LENGTH = 20;
    public static final int ID = 20;
    public static final int SIZE = 24;

    public AccountIdKey()
    {
        bytesStore(scratch(SIZE), 0, SIZE);
    }

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public AccountIdKey set(final DirectBuffer account, final int offset, final int id)
    {
        putBytes(ACCOUNT, account, offset, ACCOUNT_LENGTH);
        putInt(ID, id);
        return this;
    }

    public AccountIdKey set(final byte[] account, final int id)
    {
        putBytes(ACCOUNT, account, 0, ACCOUNT_LENGTH);
        putInt(ID, id);
        return this;
    }

    public void getAccount(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(ACCOUNT, dst, offset, ACCOUNT_LENGTH);
    }

    public void getAccount(final byte[] dst, final int offset)
    {
        getBytes(ACCOUNT, dst, offset, ACCOUNT_LENGTH);
    }

    /** The asset or market id, an unsigned 32-bit value held in an int. */
    public int id()
    {
        return getInt(ID);
    }
}
