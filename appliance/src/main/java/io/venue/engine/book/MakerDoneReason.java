package io.venue.engine.book;

/**
 * Why a resting order left the book. Reported by {@link MatchListener#onMakerDone(int, MakerDoneReason)}.
 */
public enum MakerDoneReason
{
    /** Its whole remaining quantity traded. */
    FILLED,
    /** Removed by the self-trade prevention mode {@code cancel_maker} of a taker of the same account. */
    CANCELLED_STP,
    /** Its expiry time was reached: by {@link OrderBook#expireUpTo} or met by a taker at or after it. */
    EXPIRED,
    /** Its price level was the worst of its side when a better level had to be made room for. */
    PRUNED,
    /** Cancelled on request through {@link OrderBook#cancel(int, MatchListener)}. */
    CANCELLED
}
