package io.venue.engine.book;

/**
 * How an incoming order ended when it did not rest. Reported by
 * {@link MatchListener#onTakerDone(TakerDoneReason, long, long)}.
 */
public enum TakerDoneReason
{
    /** The whole quantity traded. */
    FILLED,
    /** IOC or market order: what did not trade at once is cancelled (the fills stay). */
    CANCELLED_IOC,
    /** FOK: the full quantity was not available, nothing traded. */
    KILLED_FOK,
    /** POST_ONLY: it would have crossed the opposite best price, nothing traded or rested. */
    REJECTED_POST_ONLY,
    /** STP {@code reject}: it would have reached an order of its own account, nothing traded. */
    REJECTED_STP,
    /**
     * STP stopped it after any fills: {@code cancel_taker} met an own order, or a {@code skip_self} GTC
     * remainder could not rest without crossing its own orders.
     */
    CANCELLED_STP,
    /** The remainder would have opened a level worse than the worst of a full side; it did not rest. */
    PRUNED,
    /** The order pool had no free slot for the remainder of a GTC order: the remainder is cancelled. */
    BOOK_FULL
}
