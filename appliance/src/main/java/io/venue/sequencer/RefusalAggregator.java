package io.venue.sequencer;

/**
 * Decides, for the sequencer, which refusals get a {@code RequestRejected} record of their own and which are counted
 * into a {@code RequestsRejectedSummary}: within a window of the sequencer's stamped time, the first {@code threshold}
 * refusals of one source (a connection) and one reason are journaled one by one, the rest are counted, and the count
 * is handed to a {@link SummarySink} once the window closes, when the source is evicted, or when {@link #flushDue}
 * finds the window over. So a flood costs the journal at most {@code threshold} records and one summary per source,
 * reason and window, and every refusal is in its own record or in exactly one summary's count.
 * <p>
 * The table is an open-addressed hash of at most {@code sources} (connection, reason) entries, all arrays allocated
 * up front: taking a refusal allocates nothing. When it is full a new entry evicts the one at a rotating hand,
 * flushing its count first. Single-threaded: the sequencer's thread only. Reads no clock: every time is a stamp given.
 */
public final class RefusalAggregator
{
    /** Takes one summary; the arrays are the table's, valid only during the call. */
    @FunctionalInterface
    public interface SummarySink
    {
        void onSummary(
            long connectionId, int reason, long count, long firstCorrelationId, long lastCorrelationId,
            long firstTimestampMs, long lastTimestampMs, byte[] accounts, int accountOffset, byte[] digests,
            int digestOffset, String lastDetail);
    }

    private static final int ACCOUNT = 20;
    private static final int DIGEST = 32;
    private static final int EMPTY = 0;

    private final int threshold;
    private final long windowMs;
    private final int maxEntries;
    private final int mask;
    private final long[] connection;
    /** The reason's value; {@value #EMPTY} marks a free slot (RequestRejectReason values start at 1). */
    private final int[] reason;
    private final long[] windowStartMs;
    private final int[] journaled;
    private final long[] counted;
    private final long[] firstCorrelation;
    private final long[] lastCorrelation;
    private final long[] firstMs;
    private final long[] lastMs;
    private final byte[] accounts;
    private final byte[] digests;
    private final String[] lastDetail;
    private int entries;
    private int hand;
    /** Entries holding a count not yet handed to a sink: when none, {@link #flushDue} has nothing to do. */
    private int pending;
    /** No entry's window ends before this stamp: {@link #flushDue} before it need not scan the table. */
    private long earliestDueMs = Long.MAX_VALUE;
    private long evictions;

    /**
     * @param threshold refusals of one source and reason journaled one by one in a window (at least 1).
     * @param windowMs  the window, in the sequencer's stamped milliseconds (at least 1).
     * @param sources   the most (connection, reason) entries held (at least 1).
     */
    public RefusalAggregator(final int threshold, final long windowMs, final int sources)
    {
        if (threshold < 1 || windowMs < 1 || sources < 1)
        {
            throw new IllegalArgumentException(
                "threshold, windowMs and sources must be positive: " + threshold + ", " + windowMs + ", " + sources);
        }
        this.threshold = threshold;
        this.windowMs = windowMs;
        this.maxEntries = sources;
        // at most half full: short probes
        final int capacity = Integer.highestOneBit(Math.max(2, sources) * 2 - 1) << 1;
        mask = capacity - 1;
        connection = new long[capacity];
        reason = new int[capacity];
        windowStartMs = new long[capacity];
        journaled = new int[capacity];
        counted = new long[capacity];
        firstCorrelation = new long[capacity];
        lastCorrelation = new long[capacity];
        firstMs = new long[capacity];
        lastMs = new long[capacity];
        accounts = new byte[capacity * ACCOUNT];
        digests = new byte[capacity * DIGEST];
        lastDetail = new String[capacity];
    }

    /**
     * Takes one refusal stamped {@code stampMs}.
     *
     * @param sink takes the summary of a window this refusal closes, or of an entry evicted to make room.
     * @return true when the refusal is to be journaled on its own; false when it was counted.
     */
    public boolean journalsOnItsOwn(
        final long connectionId, final int reasonValue, final long correlationId, final long stampMs,
        final byte[] account, final byte[] digest, final String detail, final SummarySink sink)
    {
        int slot = find(connectionId, reasonValue);
        if (slot < 0)
        {
            if (entries == maxEntries)
            {
                evictOne(sink);
            }
            slot = insert(connectionId, reasonValue, stampMs);
        }
        else if (stampMs - windowStartMs[slot] >= windowMs)
        {
            flush(slot, sink);
            windowStartMs[slot] = stampMs;
            journaled[slot] = 0;
        }
        if (journaled[slot] < threshold)
        {
            journaled[slot]++;
            return true;
        }
        if (counted[slot] == 0)
        {
            firstCorrelation[slot] = correlationId;
            firstMs[slot] = stampMs;
            pending++;
            earliestDueMs = Math.min(earliestDueMs, windowStartMs[slot] + windowMs);
        }
        counted[slot]++;
        lastCorrelation[slot] = correlationId;
        lastMs[slot] = stampMs;
        System.arraycopy(account, 0, accounts, slot * ACCOUNT, ACCOUNT);
        System.arraycopy(digest, 0, digests, slot * DIGEST, DIGEST);
        lastDetail[slot] = detail;
        return false;
    }

    /** Whether some entry holds a count not handed to a sink yet. */
    public boolean hasPending()
    {
        return pending > 0;
    }

    /**
     * Hands to {@code sink} the count of every entry whose window is over at {@code nowMs} (a stamp of the sequencer's
     * clock), and forgets those entries.
     *
     * @return the summaries handed.
     */
    public int flushDue(final long nowMs, final SummarySink sink)
    {
        if (pending == 0 || nowMs < earliestDueMs)
        {
            return 0;
        }
        int flushed = 0;
        long earliest = Long.MAX_VALUE;
        for (int slot = 0; slot <= mask; slot++)
        {
            if (reason[slot] == EMPTY || counted[slot] == 0)
            {
                continue;
            }
            if (nowMs - windowStartMs[slot] >= windowMs)
            {
                flush(slot, sink);
                flushed++;
                remove(slot);
                // the entry shifted into this slot is looked at again
                slot--;
            }
            else
            {
                earliest = Math.min(earliest, windowStartMs[slot] + windowMs);
            }
        }
        earliestDueMs = earliest;
        return flushed;
    }

    /** Entries held (at most the {@code sources} given). */
    public int entries()
    {
        return entries;
    }

    /** Entries evicted to make room for a new source since the start. */
    public long evictions()
    {
        return evictions;
    }

    private void flush(final int slot, final SummarySink sink)
    {
        final long count = counted[slot];
        if (count == 0)
        {
            return;
        }
        counted[slot] = 0;
        pending--;
        final String detail = lastDetail[slot];
        lastDetail[slot] = null;
        sink.onSummary(connection[slot], reason[slot], count, firstCorrelation[slot], lastCorrelation[slot],
            firstMs[slot], lastMs[slot], accounts, slot * ACCOUNT, digests, slot * DIGEST, detail);
    }

    /** Evicts the next entry at or after the hand, its count flushed first. */
    private void evictOne(final SummarySink sink)
    {
        int slot = hand;
        while (reason[slot] == EMPTY)
        {
            slot = (slot + 1) & mask;
        }
        flush(slot, sink);
        remove(slot);
        hand = (slot + 1) & mask;
        evictions++;
    }

    private int find(final long connectionId, final int reasonValue)
    {
        int slot = home(connectionId, reasonValue);
        while (reason[slot] != EMPTY)
        {
            if (connection[slot] == connectionId && reason[slot] == reasonValue)
            {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    private int insert(final long connectionId, final int reasonValue, final long stampMs)
    {
        int slot = home(connectionId, reasonValue);
        while (reason[slot] != EMPTY)
        {
            slot = (slot + 1) & mask;
        }
        connection[slot] = connectionId;
        reason[slot] = reasonValue;
        windowStartMs[slot] = stampMs;
        journaled[slot] = 0;
        counted[slot] = 0;
        entries++;
        return slot;
    }

    /** Linear probing's deletion without tombstones: later entries of the probe run shift back into the hole. */
    private void remove(final int removed)
    {
        int hole = removed;
        int next = (hole + 1) & mask;
        while (reason[next] != EMPTY)
        {
            final int want = home(connection[next], reason[next]);
            // the entry may move into the hole unless its home lies cyclically in (hole, next]
            final boolean stays = hole <= next ? hole < want && want <= next : hole < want || want <= next;
            if (!stays)
            {
                move(next, hole);
                hole = next;
            }
            next = (next + 1) & mask;
        }
        reason[hole] = EMPTY;
        lastDetail[hole] = null;
        counted[hole] = 0;
        entries--;
    }

    private void move(final int from, final int to)
    {
        connection[to] = connection[from];
        reason[to] = reason[from];
        windowStartMs[to] = windowStartMs[from];
        journaled[to] = journaled[from];
        counted[to] = counted[from];
        firstCorrelation[to] = firstCorrelation[from];
        lastCorrelation[to] = lastCorrelation[from];
        firstMs[to] = firstMs[from];
        lastMs[to] = lastMs[from];
        System.arraycopy(accounts, from * ACCOUNT, accounts, to * ACCOUNT, ACCOUNT);
        System.arraycopy(digests, from * DIGEST, digests, to * DIGEST, DIGEST);
        lastDetail[to] = lastDetail[from];
    }

    private int home(final long connectionId, final int reasonValue)
    {
        long h = connectionId * 0x9E3779B97F4A7C15L + reasonValue;
        h ^= h >>> 29;
        return (int)(h * 0xBF58476D1CE4E5B9L >>> 40) & mask;
    }
}
