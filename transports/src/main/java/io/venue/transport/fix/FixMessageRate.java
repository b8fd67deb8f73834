package io.venue.transport.fix;

/**
 * A FIX order-entry session's message rate (spec 8.4: order-entry messages a second, by the credential's tier: its
 * onboarding record's {@code fix.rate.tier.<name>}, or {@code fix.order.messages.per.second} for a record without one):
 * a token bucket of a second's messages, refilled continuously. One per session, read on its event loop only; the lane
 * may read the clock (the engine never does).
 */
final class FixMessageRate
{
    private final long perSecond;
    /** Tokens in thousandths, so that a millisecond's refill is exact. */
    private long milliTokens;
    private long lastMs;

    FixMessageRate(final long perSecond, final long nowMs)
    {
        this.perSecond = perSecond;
        this.milliTokens = perSecond * 1_000;
        this.lastMs = nowMs;
    }

    long perSecond()
    {
        return perSecond;
    }

    /** Takes one message's token at {@code nowMs}; false when the second's messages are used up. */
    boolean tryTake(final long nowMs)
    {
        if (nowMs > lastMs)
        {
            milliTokens = Math.min(perSecond * 1_000, milliTokens + (nowMs - lastMs) * perSecond);
            lastMs = nowMs;
        }
        if (milliTokens < 1_000)
        {
            return false;
        }
        milliTokens -= 1_000;
        return true;
    }
}
