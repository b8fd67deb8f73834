package io.venue.sequencer;

/**
 * Decides, for the sequencer, which refusals get a {@code RequestRejected} record of their own and which are counted
 * into a {@code RequestsRejectedSummary}: within a window of the sequencer's stamped time, the first {@code threshold}
 * refusals of one source and one reason are journaled one by one, the rest are counted, and the count
 * is handed to a {@link SummarySink} once the window closes, when the source is evicted, or when {@link #flushDue}
 * finds the window over. So a flood costs the journal at most {@code threshold} records and one summary per source,
 * reason and window, and every refusal is in its own record or in exactly one summary's count.
 * <p>
 * A source is the client's address when the lane recorded it ({@code io.venue.entry.ConnectionAddresses}), whatever
 * connection each refusal came on, so a client that opens a connection per request is still one source; otherwise the
 * connection.
 * <p>
 * The table is an open-addressed hash of at most {@code sources} (source, reason) entries, all arrays allocated
 * up front: taking a refusal allocates nothing. When it is full a new entry evicts the one at a rotating hand,
 * flushing its count first. Single-threaded: the sequencer's thread only. Reads no clock: every time is a stamp given.
 */
public final class RefusalAggregator
{
    /** Takes one summary; the arrays are the table's, valid only during the call. */
    @FunctionalInterface
    public interface SummarySink
    {
        /**
         * @param connectionId the last one's connection.
         * @param byAddress    whether the source is the address {@code addressHigh}, {@code addressLow} (16 bytes,
         *                     big-endian halves); otherwise it is the connection.
         */
        void onSummary(
            long connectionId, boolean byAddress, long addressHigh, long addressLow, int reason, long count,
            long firstCorrelationId, long lastCorrelationId, long firstTimestampMs, long lastTimestampMs,
            byte[] accounts, int accountOffset, byte[] digests, int digestOffset, String lastDetail);
    }

    private static final int ACCOUNT = 20;
    private static final int DIGEST = 32;
    private static final int EMPTY = 0;
    /** Set in a key's reason when its source is a connection, so that no address can equal it. */
    private static final int BY_CONNECTION = 1 << 16;
    private static final int REASON_MASK = BY_CONNECTION - 1;

    private final int threshold;
    private final long windowMs;
    private final int maxEntries;
    private final int mask;
    /** The source: an address's halves, or the connection id and 0 ({@link #BY_CONNECTION} in the reason). */
    private final long[] sourceHigh;
    private final long[] sourceLow;
    /** The reason's value, and {@link #BY_CONNECTION}; {@value #EMPTY} marks a free slot (reasons start at 1). */
    private final int[] reason;
    private final long[] lastConnection;
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
     * @param sources   the most (source, reason) entries held (at least 1).
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
        sourceHigh = new long[capacity];
        sourceLow = new long[capacity];
        reason = new int[capacity];
        lastConnection = new long[capacity];
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
     * Takes one refusal stamped {@code stampMs}, from {@code connectionId}, whose client address is
     * {@code addressHigh} and {@code addressLow} when {@code addressKnown}.
     *
     * @param sink takes the summary of a window this refusal closes, or of an entry evicted to make room.
     * @return true when the refusal is to be journaled on its own; false when it was counted.
     */
    public boolean journalsOnItsOwn(
        final long connectionId, final boolean addressKnown, final long addressHigh, final long addressLow,
        final int reasonValue, final long correlationId, final long stampMs, final byte[] account, final byte[] digest,
        final String detail, final SummarySink sink)
    {
        final long high = addressKnown ? addressHigh : connectionId;
        final long low = addressKnown ? addressLow : 0;
        final int key = addressKnown ? reasonValue : reasonValue | BY_CONNECTION;
        int slot = find(high, low, key);
        if (slot < 0)
        {
            if (entries == maxEntries)
            {
                evictOne(sink);
            }
            slot = insert(high, low, key, stampMs);
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
        lastConnection[slot] = connectionId;
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
        final boolean byAddress = (reason[slot] & BY_CONNECTION) == 0;
        sink.onSummary(lastConnection[slot], byAddress, byAddress ? sourceHigh[slot] : 0,
            byAddress ? sourceLow[slot] : 0, reason[slot] & REASON_MASK, count, firstCorrelation[slot],
            lastCorrelation[slot], firstMs[slot], lastMs[slot], accounts, slot * ACCOUNT, digests, slot * DIGEST,
            detail);
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

    private int find(final long high, final long low, final int key)
    {
        int slot = home(high, low, key);
        while (reason[slot] != EMPTY)
        {
            if (sourceHigh[slot] == high && sourceLow[slot] == low && reason[slot] == key)
            {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    private int insert(final long high, final long low, final int key, final long stampMs)
    {
        int slot = home(high, low, key);
        while (reason[slot] != EMPTY)
        {
            slot = (slot + 1) & mask;
        }
        sourceHigh[slot] = high;
        sourceLow[slot] = low;
        reason[slot] = key;
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
            final int want = home(sourceHigh[next], sourceLow[next], reason[next]);
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
        sourceHigh[to] = sourceHigh[from];
        sourceLow[to] = sourceLow[from];
        reason[to] = reason[from];
        lastConnection[to] = lastConnection[from];
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

    private int home(final long high, final long low, final int key)
    {
        long h = (high * 0x9E3779B97F4A7C15L ^ low) * 0x9E3779B97F4A7C15L + key;
        h ^= h >>> 29;
        return (int)(h * 0xBF58476D1CE4E5B9L >>> 40) & mask;
    }
}
