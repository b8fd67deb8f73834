package io.venue.engine.book;

/**
 * Outcome of {@link OrderBook#place(PlaceRequest, MatchListener)}.
 * <p>
 * {@link #INVALID} and {@link #POOL_EXHAUSTED} leave the book untouched and make no listener call. Every other
 * result comes with exactly one terminal call for the taker: {@link MatchListener#onTakerRested(int)} for
 * {@link #RESTED}, {@link MatchListener#onTakerDone(TakerDoneReason, long, long)} with the reason of the same
 * name for the rest.
 */
public enum PlaceResult
{
    RESTED(null),
    FILLED(TakerDoneReason.FILLED),
    CANCELLED_IOC(TakerDoneReason.CANCELLED_IOC),
    KILLED_FOK(TakerDoneReason.KILLED_FOK),
    REJECTED_POST_ONLY(TakerDoneReason.REJECTED_POST_ONLY),
    REJECTED_STP(TakerDoneReason.REJECTED_STP),
    CANCELLED_STP(TakerDoneReason.CANCELLED_STP),
    PRUNED(TakerDoneReason.PRUNED),
    /** A GTC order traded what it could but the order pool had no slot for its remainder, which is cancelled. */
    BOOK_FULL(TakerDoneReason.BOOK_FULL),
    /** A restable order (non-market GTC or POST_ONLY) arrived while every order slot was in use. */
    POOL_EXHAUSTED(null),
    /** The request broke a precondition (see {@link OrderBook#place(PlaceRequest, MatchListener)}). */
    INVALID(null);

    private final TakerDoneReason takerDoneReason;

    PlaceResult(final TakerDoneReason takerDoneReason)
    {
        this.takerDoneReason = takerDoneReason;
    }

    /**
     * @return the reason reported to {@link MatchListener#onTakerDone}, or null when there was no such call.
     */
    public TakerDoneReason takerDoneReason()
    {
        return takerDoneReason;
    }
}
