package io.venue.responder;

import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where each account's executions are in the event journal: for every account that traded, the command sequences of
 * its trades with the index of the excerpt that holds each, so a page of its executions reads those excerpts and not
 * the commands between them. Built by the reader of {@link ExecutionHistory} as it reads the event journal, on that
 * reader's thread only.
 * <p>
 * Bounded: at most {@code maxEntries} entries in all (16 bytes each, up to twice that with the arrays' spare room),
 * at most {@code maxPerAccount} for one account, at most {@code maxAccounts} accounts. An account over its own bound
 * drops its older half; past the total or the accounts, the accounts that traded least recently are dropped whole.
 * What is dropped is not lost, only slower: {@link #coveredFrom} says after which sequence the index knows every
 * execution of an account, and a page before it is read by scanning the journal.
 */
final class ExecutionIndex
{
    static final int MAX_ACCOUNTS = 100_000;
    static final int MAX_PER_ACCOUNT = 65_536;
    static final int MAX_ENTRIES = 2_000_000;

    private final int maxAccounts;
    private final int maxPerAccount;
    private final int maxEntries;
    /** In the order the accounts last traded, the least recent first. */
    private final LinkedHashMap<AccountKey, Entries> accounts = new LinkedHashMap<>(1024, 0.75f, true);
    private long entries;
    /** Every execution of an account that is not in the table is at or before this sequence. */
    private long droppedThrough;

    ExecutionIndex(final int maxAccounts, final int maxPerAccount, final int maxEntries)
    {
        if (maxAccounts < 1 || maxPerAccount < 2 || maxEntries < maxPerAccount)
        {
            throw new IllegalArgumentException("at least one account and two entries, and the total at least an " +
                "account's");
        }
        this.maxAccounts = maxAccounts;
        this.maxPerAccount = maxPerAccount;
        this.maxEntries = maxEntries;
    }

    /**
     * The account traded in command {@code sequence}, in the excerpt at {@code excerpt}; {@code indexed} is the last
     * command read so far.
     */
    void add(final byte[] account, final int offset, final long sequence, final long excerpt, final long indexed)
    {
        final AccountKey key = AccountKey.of(account, offset);
        Entries found = accounts.get(key);
        if (found == null)
        {
            found = new Entries(droppedThrough);
            accounts.put(key, found);
        }
        if (found.size > 0 && found.sequence(found.size - 1) == sequence && found.excerpt(found.size - 1) == excerpt)
        {
            return;
        }
        if (found.size == maxPerAccount)
        {
            entries -= found.dropOlderHalf();
        }
        found.append(sequence, excerpt);
        entries++;
        if (accounts.size() > maxAccounts || entries > maxEntries)
        {
            final Iterator<Map.Entry<AccountKey, Entries>> eldest = accounts.entrySet().iterator();
            while ((accounts.size() > maxAccounts || entries > maxEntries) && eldest.hasNext())
            {
                final Entries dropped = eldest.next().getValue();
                if (dropped == found)
                {
                    break;
                }
                entries -= dropped.size;
                eldest.remove();
                droppedThrough = indexed;
            }
        }
    }

    /** The sequence after which the index holds every execution of {@code account} that has been read. */
    long coveredFrom(final byte[] account)
    {
        final Entries found = accounts.get(AccountKey.of(account, 0));
        return found == null ? droppedThrough : found.coveredFrom;
    }

    /** The account's entries (null when it has none), to read with {@link Entries#firstAfter}. */
    Entries entries(final byte[] account)
    {
        return accounts.get(AccountKey.of(account, 0));
    }

    long size()
    {
        return entries;
    }

    int accounts()
    {
        return accounts.size();
    }

    /** An account as a map key: its 20 bytes as three numbers. */
    private record AccountKey(long high, long middle, int low)
    {
        static AccountKey of(final byte[] account, final int offset)
        {
            long high = 0;
            long middle = 0;
            int low = 0;
            for (int i = 0; i < 8; i++)
            {
                high = high << 8 | (account[offset + i] & 0xFF);
                middle = middle << 8 | (account[offset + 8 + i] & 0xFF);
            }
            for (int i = 16; i < 20; i++)
            {
                low = low << 8 | (account[offset + i] & 0xFF);
            }
            return new AccountKey(high, middle, low);
        }
    }

    /** One account's entries in journal order: sequence and excerpt index, side by side. */
    static final class Entries
    {
        private long[] pairs = new long[8];
        private int size;
        private long coveredFrom;

        Entries(final long coveredFrom)
        {
            this.coveredFrom = coveredFrom;
        }

        int size()
        {
            return size;
        }

        long sequence(final int i)
        {
            return pairs[2 * i];
        }

        long excerpt(final int i)
        {
            return pairs[2 * i + 1];
        }

        /** The first entry whose sequence is after {@code sequence}, or {@link #size} (a binary search). */
        int firstAfter(final long sequence)
        {
            int lo = 0;
            int hi = size;
            while (lo < hi)
            {
                final int mid = (lo + hi) >>> 1;
                if (sequence(mid) <= sequence)
                {
                    lo = mid + 1;
                }
                else
                {
                    hi = mid;
                }
            }
            return lo;
        }

        private void append(final long sequence, final long excerpt)
        {
            if (2 * size == pairs.length)
            {
                pairs = Arrays.copyOf(pairs, pairs.length * 2);
            }
            pairs[2 * size] = sequence;
            pairs[2 * size + 1] = excerpt;
            size++;
        }

        /** Drops the older half; the index then covers the account only after the last dropped command. */
        private int dropOlderHalf()
        {
            final int dropped = size / 2;
            coveredFrom = sequence(dropped - 1);
            System.arraycopy(pairs, 2 * dropped, pairs, 0, 2 * (size - dropped));
            size -= dropped;
            return dropped;
        }
    }
}
