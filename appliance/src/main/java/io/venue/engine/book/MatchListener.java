package io.venue.engine.book;

import io.venue.action.Side;

/**
 * Receives what the book did, in the order it did it. Implementations must not allocate on the hot path and
 * must not call mutating methods of the book from inside a callback; read accessors by slot are fine.
 * <p>
 * Order of calls for one maker touched by a taker: {@link #onTrade} (if it traded), then {@link #onMakerDone}
 * (if it left the book), then {@link #onLevelChanged} for its level. A {@link OrderBook#place} that is not
 * rejected as INVALID or POOL_EXHAUSTED ends with exactly one of {@link #onTakerRested} or {@link #onTakerDone}.
 */
public interface MatchListener
{
    /**
     * A trade at the maker's price. The maker's data (order id, sequence ...) is readable by slot.
     *
     * @param makerSlot           slot of the resting order.
     * @param makerAccount        account index of the resting order.
     * @param takerAccount        account index of the incoming order.
     * @param price               execution price, the maker's limit price.
     * @param qty                 traded quantity.
     * @param makerRemainingAfter the maker's remaining quantity after this trade (0: it is done).
     */
    void onTrade(int makerSlot, int makerAccount, int takerAccount, long price, long qty, long makerRemainingAfter);

    /**
     * A resting order left the book. Called before its slot is freed: its data is readable during the call
     * and the slot may be reused by any later mutation.
     *
     * @param slot   slot of the order.
     * @param reason why it left.
     */
    void onMakerDone(int slot, MakerDoneReason reason);

    /**
     * The incoming order rests, with its remaining quantity, in the given slot.
     *
     * @param slot slot now holding the order; its filled quantity is original minus remaining.
     */
    void onTakerRested(int slot);

    /**
     * The incoming order ended without resting.
     *
     * @param reason       how it ended.
     * @param filledQty    the quantity it traded during this place.
     * @param remainingQty the quantity that did not trade and was cancelled ({@code filledQty + remainingQty}
     *                     is the requested quantity).
     */
    void onTakerDone(TakerDoneReason reason, long filledQty, long remainingQty);

    /**
     * The total quantity of a price level changed (a market data book delta).
     *
     * @param side        side of the level.
     * @param price       price of the level.
     * @param newLevelQty its new total quantity, 0 when the level is gone.
     * @param orderCount  how many orders now rest at the level, 0 when it is gone.
     */
    void onLevelChanged(Side side, long price, long newLevelQty, int orderCount);
}
