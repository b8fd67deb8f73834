package io.venue.responder;

import io.venue.engine.limit.TokenBucket;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.ArrayDeque;

/**
 * Each account's per-account limiter as the engine last reported it (the reset countdown of its latest signed
 * action's ActionAccepted or ActionRejected, and that command's stamped time), so that an answer the engine never saw
 * (a refusal before the engine: a bad signature, a malformed body naming the account) can still carry the account's
 * X-RateLimit headers as they stand at that answer's own stamped time.
 * <p>
 * Only buckets that are not full are kept, each until it has refilled: an account with no entry has a full bucket,
 * as the engine's limiter gives every account it has not charged within a window. So the map holds at most the
 * accounts charged within about the last two windows. The responder's thread only.
 * <p>
 * Keyed by the account's 20 bytes, probed with one reused key: a report or a look-up allocates nothing (an account new
 * to the map takes an entry freed by one that refilled, or a new one while the map grows).
 */
final class AccountLimiters
{
    /** An account's last report, and the deadline it waits in the expiry queue for (one place in it per account). */
    private static final class Report
    {
        private final BytesKey key = new BytesKey(BytesKey.ACCOUNT);
        private long resetMs;
        private long stampedAtMs;
        private long queuedUntilMs;

        long fullAtMs()
        {
            return stampedAtMs + resetMs;
        }
    }

    private final long capacity;
    private final long windowMs;
    private final BytesKey probe = new BytesKey(BytesKey.ACCOUNT);
    private final Object2ObjectHashMap<BytesKey, Report> reported = new Object2ObjectHashMap<>();
    /**
     * Every kept report once, roughly in the order its bucket fills again: a head whose deadline has passed is dropped
     * if its bucket is full by now, else queued again behind the others until its latest report's deadline.
     */
    private final ArrayDeque<Report> expiries = new ArrayDeque<>();
    private final ArrayDeque<Report> free = new ArrayDeque<>();

    AccountLimiters(final long capacity, final long windowMs)
    {
        this.capacity = capacity;
        this.windowMs = windowMs;
    }

    /** The engine's report of the account (20 bytes) in a command stamped {@code stampedAtMs}. */
    void reported(final byte[] account, final long resetMs, final long stampedAtMs)
    {
        dropFull(stampedAtMs);
        Report report = reported.get(probe.set(account));
        if (resetMs <= 0)
        {
            // full: an account with no entry has a full bucket; the entry leaves when its place in the queue comes
            if (report != null)
            {
                report.resetMs = 0;
                report.stampedAtMs = stampedAtMs;
            }
            return;
        }
        if (report == null)
        {
            report = free.isEmpty() ? new Report() : free.pollFirst();
            report.key.set(account);
            report.queuedUntilMs = stampedAtMs + resetMs;
            reported.put(report.key, report);
            expiries.addLast(report);
        }
        report.resetMs = resetMs;
        report.stampedAtMs = stampedAtMs;
    }

    /** The account's limiter at {@code nowMs}, {remaining, resetMs}: the bucket refilled since its last report. */
    void at(final byte[] account, final long nowMs, final long[] remainingAndResetMs)
    {
        final Report report = reported.get(probe.set(account));
        final long resetMs = report == null ? 0 : Math.max(0, report.resetMs - Math.max(0, nowMs - report.stampedAtMs));
        remainingAndResetMs[0] = TokenBucket.remainingFromReset(resetMs, capacity, windowMs);
        remainingAndResetMs[1] = resetMs;
    }

    /** Accounts whose bucket is not known to be full (for tests and the bound above). */
    int size()
    {
        int refilling = 0;
        for (final Report report : reported.values())
        {
            refilling += report.resetMs > 0 ? 1 : 0;
        }
        return refilling;
    }

    /** Accounts kept, refilled or not, until their place in the queue comes (for tests). */
    int kept()
    {
        return reported.size();
    }

    private void dropFull(final long nowMs)
    {
        Report head;
        while ((head = expiries.peekFirst()) != null && head.queuedUntilMs <= nowMs)
        {
            expiries.pollFirst();
            if (head.fullAtMs() <= nowMs)
            {
                reported.remove(head.key);
                free.addLast(head);
            }
            else
            {
                // reported again since it was queued: its turn comes at its latest report's deadline
                head.queuedUntilMs = head.fullAtMs();
                expiries.addLast(head);
            }
        }
    }
}
