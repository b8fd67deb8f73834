package io.venue.responder;

import io.venue.engine.limit.TokenBucket;

import java.util.HashMap;
import java.util.Map;

/**
 * Each account's per-account limiter as the engine last reported it (the reset countdown of its latest
 * ActionAccepted or ActionRejected and that command's stamped time), so that an answer the engine never saw (a
 * refusal before the journal's engine: a bad signature, a malformed body naming the account) can still carry the
 * account's X-RateLimit headers, as they stand at that answer's own stamped time. Accounts seen since this process
 * started; the responder's thread only.
 */
final class AccountLimiters
{
    private final long capacity;
    private final long windowMs;
    /** account -> {resetMs, stampedAtMs} */
    private final Map<String, long[]> reported = new HashMap<>();

    AccountLimiters(final long capacity, final long windowMs)
    {
        this.capacity = capacity;
        this.windowMs = windowMs;
    }

    void reported(final String account, final long resetMs, final long stampedAtMs)
    {
        final long[] entry = reported.computeIfAbsent(account, a -> new long[2]);
        entry[0] = resetMs;
        entry[1] = stampedAtMs;
    }

    /**
     * The account's limiter at {@code nowMs}: the bucket refilled for the time since its last report.
     *
     * @return false, with nothing written, for an account not seen since the start.
     */
    boolean at(final String account, final long nowMs, final long[] remainingAndResetMs)
    {
        final long[] entry = reported.get(account);
        if (entry == null)
        {
            return false;
        }
        final long resetMs = Math.max(0, entry[0] - Math.max(0, nowMs - entry[1]));
        remainingAndResetMs[0] = TokenBucket.remainingFromReset(resetMs, capacity, windowMs);
        remainingAndResetMs[1] = resetMs;
        return true;
    }
}
