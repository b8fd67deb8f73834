package io.venue.engine.book;

import io.venue.action.Side;

/**
 * Visits price levels in price order, best first, for snapshots and market data. Keep one instance and reuse it.
 */
@FunctionalInterface
public interface LevelVisitor
{
    /**
     * @param side       side of the level.
     * @param depth      0 for the best level, then 1, 2 ...
     * @param price      price of the level.
     * @param qty        total remaining quantity of its orders.
     * @param orderCount number of orders in it.
     */
    void onLevel(Side side, int depth, long price, long qty, int orderCount);
}
