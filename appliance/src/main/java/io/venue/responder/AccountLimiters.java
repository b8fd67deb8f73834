package io.venue.responder;

import io.venue.engine.limit.TokenBucket;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Each account's per-account limiter as the engine last reported it (the reset countdown of its latest signed
 * action's ActionAccepted or ActionRejected, and that command's stamped time), so that an answer the engine never saw
 * (a refusal before the engine: a bad signature, a malformed body naming the account) can still carry the account's
 * X-RateLimit headers as they stand at that answer's own stamped time.
 * <p>
 * Only buckets that are not full are kept, each until it has refilled: an account with no entry has a full bucket,
 * as the engine's limiter gives every account it has not charged within a window. So the map holds at most the
 * accounts charged within the last window. The responder's thread only.
 */
final class AccountLimiters
{
    private record Expiry(String account, long fullAtMs)
    {
    }

    private final long capacity;
    private final long windowMs;
    /** account -> {resetMs, stampedAtMs} */
    private final Map<String, long[]> reported = new HashMap<>();
    /** When each report's bucket is full again, in stamped-time order: the entries to drop. */
    private final ArrayDeque<Expiry> expiries = new ArrayDeque<>();

    AccountLimiters(final long capacity, final long windowMs)
    {
        this.capacity = capacity;
        this.windowMs = windowMs;
    }

    void reported(final String account, final long resetMs, final long stampedAtMs)
    {
        dropFull(stampedAtMs);
        if (resetMs <= 0)
        {
            reported.remove(account);
            return;
        }
        final long[] entry = reported.computeIfAbsent(account, a -> new long[2]);
        entry[0] = resetMs;
        entry[1] = stampedAtMs;
        expiries.addLast(new Expiry(account, stampedAtMs + resetMs));
    }

    /** The account's limiter at {@code nowMs}, {remaining, resetMs}: the bucket refilled since its last report. */
    void at(final String account, final long nowMs, final long[] remainingAndResetMs)
    {
        final long[] entry = reported.get(account);
        final long resetMs = entry == null ? 0 : Math.max(0, entry[0] - Math.max(0, nowMs - entry[1]));
        remainingAndResetMs[0] = TokenBucket.remainingFromReset(resetMs, capacity, windowMs);
        remainingAndResetMs[1] = resetMs;
    }

    /** Accounts kept now (for tests and the bound above). */
    int size()
    {
        return reported.size();
    }

    private void dropFull(final long nowMs)
    {
        Expiry head;
        while ((head = expiries.peekFirst()) != null && head.fullAtMs() <= nowMs)
        {
            expiries.pollFirst();
            final long[] entry = reported.get(head.account());
            if (entry != null && entry[1] + entry[0] <= nowMs)
            {
                reported.remove(head.account());
            }
        }
    }
}
