package io.venue.feed;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One account the feed follows: its private channels' numbering and sparse indexes, what the command being applied
 * said to it (one builder per private channel), and its open orders, balances and positions for the account read
 * (sorted maps, so reads list them in a fixed order).
 */
final class AccountState
{
    static final int KINDS = 3;

    final ByteKey address;
    final String hex;
    final long[] seqs = new long[KINDS];
    final PrivateIndex[] indexes;
    final JsonBytes[] pending = new JsonBytes[KINDS];
    /** Whether the command being applied changed the channel: it takes a frame's number, written out or not. */
    final boolean[] updated = new boolean[KINDS];
    boolean touched;
    /** Whether the command being applied writes the account's frames out (decided when it first touches it). */
    boolean writing = true;

    /** asset → {available, locked}. */
    final TreeMap<Long, long[]> balances = new TreeMap<>();
    /** market → {yes, yesLocked, no, noLocked}. */
    final TreeMap<Long, long[]> positions = new TreeMap<>();
    final TreeMap<Long, OpenOrder> openByAge = new TreeMap<>();
    final Map<ByteKey, OpenOrder> openById = new HashMap<>();
    /** Whether an order of it was not followed for want of room (its open orders read is then incomplete). */
    boolean ordersIncomplete;

    /** @param indexInterval 0 for an account that keeps no index (a resend's scratch copy). */
    AccountState(final ByteKey address, final String hex, final int indexInterval, final int indexEntries)
    {
        this.address = address;
        this.hex = hex;
        indexes = new PrivateIndex[KINDS];
        for (int k = 0; k < KINDS; k++)
        {
            pending[k] = new JsonBytes(64);
            if (indexInterval > 0)
            {
                indexes[k] = new PrivateIndex(indexInterval, indexEntries);
            }
        }
    }
}
