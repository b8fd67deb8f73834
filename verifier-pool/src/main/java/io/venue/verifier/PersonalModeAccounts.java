package io.venue.verifier;

import java.util.Arrays;

/**
 * The accounts whose last action a verifier matched in personal mode (signed by the account or a known delegate),
 * so that their next one is tried in that mode first and costs one recovery. Fixed memory, one verifier's own: a
 * direct-mapped table where a newer account may push an older one out, which only costs that one its shortcut.
 */
final class PersonalModeAccounts
{
    private static final int SLOTS = 4096;
    private static final int ADDRESS = 20;
    private final byte[] accounts = new byte[SLOTS * ADDRESS];
    private final boolean[] used = new boolean[SLOTS];

    boolean contains(final byte[] account)
    {
        final int slot = slotOf(account);
        return used[slot] && Arrays.equals(accounts, slot * ADDRESS, slot * ADDRESS + ADDRESS, account, 0, ADDRESS);
    }

    void add(final byte[] account)
    {
        final int slot = slotOf(account);
        System.arraycopy(account, 0, accounts, slot * ADDRESS, ADDRESS);
        used[slot] = true;
    }

    void remove(final byte[] account)
    {
        if (contains(account))
        {
            used[slotOf(account)] = false;
        }
    }

    private static int slotOf(final byte[] account)
    {
        // an address is a hash already: its last bytes spread evenly
        return ((account[18] & 0xFF) << 8 | (account[19] & 0xFF)) & (SLOTS - 1);
    }
}
