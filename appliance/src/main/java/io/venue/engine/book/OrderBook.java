package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import org.agrona.MutableDirectBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The order book of one book (a spot market, or the YES or the NO book of an outcome market) with
 * price-time-priority matching. Pure deterministic logic: no clock (time comes in the request), no random, no
 * hashing, no allocation after construction, no exceptions for business outcomes. Credit, risk, ids and events
 * belong to the engine around it; the book reports what it does through a {@link MatchListener}.
 * <p>
 * Orders live in a preallocated pool and are named by an int <em>slot</em>, valid while the order rests. The
 * engine keeps its own id-to-slot index from {@link MatchListener#onTakerRested(int)} and
 * {@link MatchListener#onMakerDone(int, MakerDoneReason)}.
 *
 * <h2>Matching</h2>
 * <ul>
 *   <li>Price-time priority: better price first, then arrival order within a level (the FIFO order equals the
 *   order of the request sequences, which must not decrease). A trade executes at the maker's price.</li>
 *   <li>A taker trades with every opposite order whose price is at or better than its limit, best first.</li>
 *   <li>A resting order with {@code expiresAt != -1 && expiresAt <= request.nowMs()} is not liquidity: the
 *   matching walk removes it (reason {@link MakerDoneReason#EXPIRED}) instead of trading with it, and the
 *   pre-checks below treat it as absent.</li>
 * </ul>
 *
 * <h2>Time in force</h2>
 * <ul>
 *   <li>GTC: match, then rest the remainder at the limit price.</li>
 *   <li>IOC: match, then cancel the remainder ({@link TakerDoneReason#CANCELLED_IOC}).</li>
 *   <li>FOK: decided before any fill. If the full quantity is not available (STP applied, see below) the order
 *   is killed with no fill ({@link TakerDoneReason#KILLED_FOK}).</li>
 *   <li>POST_ONLY: if any live opposite order is at or better than its price it is rejected
 *   ({@link TakerDoneReason#REJECTED_POST_ONLY}), whatever the owner of that order; otherwise it rests. STP does
 *   not apply since it never trades.</li>
 *   <li>Market ({@code market = true}): never rests; the price is the worst price accepted (protection). GTC and
 *   IOC behave as IOC, FOK as FOK; POST_ONLY is INVALID.</li>
 * </ul>
 *
 * <h2>Self-trade prevention (taker meets a live resting order of its own account)</h2>
 * <ul>
 *   <li>null: none, the self trade happens.</li>
 *   <li>{@code cancel_maker}: the resting order is removed ({@link MakerDoneReason#CANCELLED_STP}) and matching
 *   goes on.</li>
 *   <li>{@code cancel_taker}: matching stops; fills done stay; the remainder is cancelled
 *   ({@link TakerDoneReason#CANCELLED_STP}), never rested.</li>
 *   <li>{@code reject}: decided before any fill. Walking the opposite side in priority order within the limit
 *   price, if an own order is reached before the non-own orders passed cover the quantity, the whole order is
 *   rejected ({@link TakerDoneReason#REJECTED_STP}). Own orders beyond what the order would consume do not
 *   matter.</li>
 *   <li>{@code skip_self}: the own order is passed over, keeps its place, and matching goes on behind it. A GTC
 *   remainder that would then rest crossing its own orders is cancelled ({@link TakerDoneReason#CANCELLED_STP})
 *   rather than leave the book crossed.</li>
 *   <li>FOK counts liquidity with STP: own orders are unavailable under {@code skip_self} and
 *   {@code cancel_maker}; under {@code cancel_taker} only the liquidity before the first own order counts; under
 *   {@code reject} reaching an own order gives REJECTED_STP (before the FOK check).</li>
 * </ul>
 *
 * <h2>Levels and capacity</h2>
 * At most {@code maxLevelsPerSide} levels per side. Resting at a new price on a full side prunes the worst level
 * of that side (every order in it reported {@link MakerDoneReason#PRUNED}, in queue order); if the new price
 * itself would be the worst level, the remainder does not rest ({@link TakerDoneReason#PRUNED}; fills stay).
 * A POST_ONLY order needs a free slot before anything happens: with none it gets
 * {@link PlaceResult#POOL_EXHAUSTED} and the book is untouched. A GTC order trades whatever the pool holds;
 * if its remainder then finds no free slot it is cancelled ({@link PlaceResult#BOOK_FULL}; fills stay).
 *
 * <h2>Outcomes that leave the book untouched</h2>
 * INVALID and POOL_EXHAUSTED (no listener call), KILLED_FOK, REJECTED_STP and REJECTED_POST_ONLY (one
 * {@code onTakerDone}; not even expired orders are removed).
 * <p>
 * Not thread safe: one thread (the shard's) owns a book. Listeners must not call mutating methods.
 */
public final class OrderBook implements SlotReader
{
    /** No slot. */
    public static final int NULL_SLOT = OrderPool.NULL_SLOT;
    /** No price: the side or the level is empty. */
    public static final long NULL_PRICE = -1L;
    /** The order does not expire. */
    public static final long NO_EXPIRY = -1L;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private static final int AVAILABLE = 0;
    private static final int INSUFFICIENT = 1;
    private static final int OWN_ORDER_REACHED = 2;

    private final OrderPool pool;
    private final PriceLevels bids;
    private final PriceLevels asks;
    private final ExpiryQueue expiries;
    private final int maxLevelsPerSide;
    private long lastSequence = Long.MIN_VALUE;
    // Set by match(): cancel_taker (or a defensive reject) stopped the walk at an own order.
    private boolean stoppedBySelf;
    /** The largest quantity any order has rested with here, and the size below which no level can overflow. */
    private long largestQty;
    private final long safeQty;

    /**
     * @param orderCapacity    resting orders this book can hold (the size of its pool).
     * @param maxLevelsPerSide price levels per side before the worst is pruned (the venue uses 1,000).
     */
    public OrderBook(final int orderCapacity, final int maxLevelsPerSide)
    {
        this(orderCapacity, maxLevelsPerSide, RestingLimit.unlimited());
    }

    /**
     * A book whose resting orders also count against {@code shared}, a bound over several books: when it is
     * used up, the book is full ({@link PlaceResult#BOOK_FULL}) as if its own pool were.
     */
    public OrderBook(final int orderCapacity, final int maxLevelsPerSide, final RestingLimit shared)
    {
        if (maxLevelsPerSide < 1)
        {
            throw new IllegalArgumentException("maxLevelsPerSide must be positive: " + maxLevelsPerSide);
        }
        this.pool = new OrderPool(orderCapacity, shared);
        this.safeQty = Long.MAX_VALUE / ((long)orderCapacity + 1);
        this.maxLevelsPerSide = maxLevelsPerSide;
        this.bids = new PriceLevels(Side.BID, maxLevelsPerSide, pool);
        this.asks = new PriceLevels(Side.ASK, maxLevelsPerSide, pool);
        this.expiries = new ExpiryQueue(pool);
    }

    /**
     * Whether an order may rest in the book: a limit order that is GTC or post-only (IOC, FOK and market orders
     * never do).
     */
    public static boolean canRest(final boolean market, final TimeInForce timeInForce)
    {
        return !market && (timeInForce == TimeInForce.GTC || timeInForce == TimeInForce.POST_ONLY);
    }

    /**
     * Matches an incoming order and rests what the rules allow (see the class description).
     * <p>
     * INVALID when: side or time in force is null, account index is negative, price or qty is not positive,
     * filledBefore is negative, {@code market} with POST_ONLY, expiresAt below -1, or the sequence is below the last
     * accepted one. The taker's {@code onTakerDone} counts this place's fills only
     * ({@code filledQty + remainingQty = qty}).
     *
     * @param request  the order; only read, reusable as soon as this returns.
     * @param listener receives trades, makers done, level changes and the taker's end.
     * @return the outcome.
     */
    public PlaceResult place(final PlaceRequest request, final MatchListener listener)
    {
        if (!isValid(request))
        {
            return PlaceResult.INVALID;
        }
        final TimeInForce tif = request.timeInForce();
        final boolean restable = canRest(request.market(), tif);
        // A post-only order can only rest: with no free slot it is refused before anything changes. A GTC
        // order still trades; only a remainder that finds no slot is cancelled (BOOK_FULL).
        if (tif == TimeInForce.POST_ONLY && pool.free() == 0)
        {
            return PlaceResult.POOL_EXHAUSTED;
        }
        lastSequence = request.sequence();

        final boolean bid = request.side() == Side.BID;
        final PriceLevels opposite = bid ? asks : bids;
        final PriceLevels same = bid ? bids : asks;
        final long qty = request.qty();

        if (tif == TimeInForce.POST_ONLY)
        {
            if (crossesLiveOrder(request, opposite))
            {
                return done(listener, PlaceResult.REJECTED_POST_ONLY, 0, qty);
            }
            removeExpiredCrossing(request, opposite, listener);
            return rest(request, qty, same, listener);
        }

        final StpMode stp = request.stpMode();
        if (tif == TimeInForce.FOK || stp == StpMode.REJECT)
        {
            final int liquidity = scan(request, opposite);
            if (liquidity == OWN_ORDER_REACHED)
            {
                return done(listener, PlaceResult.REJECTED_STP, 0, qty);
            }
            if (liquidity == INSUFFICIENT && tif == TimeInForce.FOK)
            {
                return done(listener, PlaceResult.KILLED_FOK, 0, qty);
            }
        }

        final long remaining = match(request, opposite, listener);
        final long filled = qty - remaining;
        if (remaining == 0)
        {
            return done(listener, PlaceResult.FILLED, filled, 0);
        }
        if (stoppedBySelf)
        {
            return done(listener, PlaceResult.CANCELLED_STP, filled, remaining);
        }
        if (!restable)
        {
            return done(listener, PlaceResult.CANCELLED_IOC, filled, remaining);
        }
        // After a full walk only own orders passed by skip_self can still cross the limit.
        if (opposite.size() > 0 && crosses(bid, request.price(), opposite.priceAt(opposite.bestIndex())))
        {
            return done(listener, PlaceResult.CANCELLED_STP, filled, remaining);
        }
        if (pool.free() == 0)
        {
            return done(listener, PlaceResult.BOOK_FULL, filled, remaining);
        }
        return rest(request, remaining, same, listener);
    }

    /**
     * Cancels a resting order: {@link MatchListener#onMakerDone} with {@link MakerDoneReason#CANCELLED}, then
     * {@link MatchListener#onLevelChanged}.
     *
     * @return false when the slot holds no resting order.
     */
    public boolean cancel(final int slot, final MatchListener listener)
    {
        if (!pool.isLive(slot))
        {
            return false;
        }
        final PriceLevels levels = levelsOf(slot);
        removeResting(levels, levels.indexOf(pool.price(slot)), slot, MakerDoneReason.CANCELLED, listener);
        return true;
    }

    /**
     * Takes a resting order out without a done reason, for an amend that changes the price (the engine then
     * places it again with a new sequence, so it loses its priority). Only
     * {@link MatchListener#onLevelChanged} is called; the slot is free when this returns, so read what is
     * needed from it first.
     *
     * @return false when the slot holds no resting order.
     */
    public boolean remove(final int slot, final MatchListener listener)
    {
        if (!pool.isLive(slot))
        {
            return false;
        }
        final PriceLevels levels = levelsOf(slot);
        removeResting(levels, levels.indexOf(pool.price(slot)), slot, null, listener);
        return true;
    }

    /**
     * Whether a resting order moved to {@code newPrice} would rest at once: the other side does not reach that
     * price (so nothing would match, expire on the way or stop by self-trade prevention) and its level exists or
     * the side has room for one (so nothing is pruned). Then an amend may move the order with {@link #lift} and
     * {@link #restAgain}, which keep its slot, instead of {@link #remove} and {@link #place}; both ways give the
     * same callbacks, slots and book (the pool hands back the slot it freed last).
     */
    public boolean restsWithoutMatching(final int slot, final long newPrice)
    {
        if (!pool.isLive(slot))
        {
            return false;
        }
        final boolean bid = pool.side(slot) == Side.BID;
        final PriceLevels opposite = bid ? asks : bids;
        if (opposite.size() > 0 && crosses(bid, newPrice, opposite.priceAt(opposite.bestIndex())))
        {
            return false;
        }
        final PriceLevels same = bid ? bids : asks;
        return same.size() < maxLevelsPerSide || same.indexOf(newPrice) >= 0;
    }

    /**
     * Takes a resting order out of its level as {@link #remove} does (only {@link MatchListener#onLevelChanged}),
     * but keeps its slot for {@link #restAgain}, which must follow before any other call on this book.
     */
    public void lift(final int slot, final MatchListener listener)
    {
        final PriceLevels levels = levelsOf(slot);
        takeOut(levels, levels.indexOf(pool.price(slot)), slot, null, false, listener);
    }

    /**
     * Rests a {@link #lift lifted} order again with {@code qty} remaining at {@code newPrice} with
     * {@code newSequence}, at the back of its level: {@link MatchListener#onTakerRested}, then
     * {@link MatchListener#onLevelChanged}. Its size becomes {@code filledBefore + qty}, as {@link #place} with
     * {@link PlaceRequest#filledBefore} makes it: the engine passes what the order filled ({@link #filledOf}) to keep
     * it, or 0 for an amend of a journal version that started the order's filled quantity again (JOURNAL-SCHEMA.md,
     * section 9). Only for a price {@link #restsWithoutMatching} accepted.
     */
    public void restAgain(
        final int slot, final long newPrice, final long qty, final long filledBefore, final long newSequence,
        final MatchListener listener)
    {
        final PriceLevels same = levelsOf(slot);
        lastSequence = newSequence;
        largestQty = Math.max(largestQty, qty);
        pool.renew(slot, newPrice, filledBefore + qty, qty, newSequence);
        int index = same.indexOf(newPrice);
        if (index < 0)
        {
            index = -index - 1;
            same.insertAt(index, newPrice);
        }
        joinLevel(same, index, slot, newPrice, listener);
    }

    /**
     * Lowers a resting order's remaining quantity in place, keeping its priority. Its original quantity is
     * lowered by the same amount, so the filled quantity (original - remaining) is unchanged.
     * {@link MatchListener#onLevelChanged} reports the new level total.
     *
     * @param newRemaining must be above 0 and below the current remaining quantity.
     * @return false when the slot holds no resting order or newRemaining is out of range (nothing changes).
     */
    public boolean reduceQty(final int slot, final long newRemaining, final MatchListener listener)
    {
        if (!pool.isLive(slot))
        {
            return false;
        }
        final long remaining = pool.remainingQty(slot);
        if (newRemaining <= 0 || newRemaining >= remaining)
        {
            return false;
        }
        final long delta = remaining - newRemaining;
        final PriceLevels levels = levelsOf(slot);
        final int index = levels.indexOf(pool.price(slot));
        pool.reduceBy(slot, delta);
        levels.reduceTotal(index, delta);
        listener.onLevelChanged(levels.side(), pool.price(slot), levels.totalAt(index), levels.countAt(index));
        return true;
    }

    /**
     * Removes every resting order with {@code expiresAt <= nowMs}, ordered by (expiresAt, sequence, slot), each
     * reported {@link MakerDoneReason#EXPIRED}.
     *
     * @return how many orders expired.
     */
    public int expireUpTo(final long nowMs, final MatchListener listener)
    {
        int count = 0;
        while (!expiries.isEmpty())
        {
            final int slot = expiries.peek();
            if (pool.expiresAt(slot) > nowMs)
            {
                break;
            }
            final PriceLevels levels = levelsOf(slot);
            removeResting(levels, levels.indexOf(pool.price(slot)), slot, MakerDoneReason.EXPIRED, listener);
            count++;
        }
        return count;
    }

    /**
     * Puts a stored resting order back at the end of its price level, with no matching and no callback: for
     * rebuilding a book at start-up. Call in priority order (ascending sequence), so each level's queue comes
     * back in the order it had. {@code request.qty()} is the order's size as stored (its fills included), with
     * {@code filledBefore} left at 0.
     *
     * @return the slot, or {@link #NULL_SLOT} (book unchanged) when the request is invalid, {@code remaining}
     * is not in 1..qty, the pool or the side's levels are full, or the order would cross the other side.
     */
    public int restore(final PlaceRequest request, final long remaining)
    {
        if (!isValid(request) || request.market() || remaining <= 0 || remaining > request.qty() || pool.free() == 0)
        {
            return NULL_SLOT;
        }
        final boolean bid = request.side() == Side.BID;
        final PriceLevels same = bid ? bids : asks;
        final PriceLevels opposite = bid ? asks : bids;
        final long price = request.price();
        if (opposite.size() > 0 && crosses(bid, price, opposite.priceAt(opposite.bestIndex())))
        {
            return NULL_SLOT;
        }
        int index = same.indexOf(price);
        if (index < 0)
        {
            if (same.size() == maxLevelsPerSide)
            {
                return NULL_SLOT;
            }
            index = -index - 1;
            same.insertAt(index, price);
        }
        lastSequence = request.sequence();
        largestQty = Math.max(largestQty, request.qty());
        final int slot = pool.allocate(request, remaining);
        same.append(index, slot);
        if (request.expiresAt() != NO_EXPIRY)
        {
            expiries.add(slot);
        }
        return slot;
    }

    /** @return the earliest expiry among resting orders, or {@link #NO_EXPIRY}: when to call expireUpTo next. */
    public long nextExpiry()
    {
        return expiries.isEmpty() ? NO_EXPIRY : pool.expiresAt(expiries.peek());
    }

    /** @return the best price of the side, or {@link #NULL_PRICE} when it is empty. */
    public long bestPrice(final Side side)
    {
        return levelPrice(side, 0);
    }

    /** @return the total quantity at the best price of the side, 0 when it is empty. */
    public long bestQty(final Side side)
    {
        return levelQty(side, 0);
    }

    public long bestBid()
    {
        return levelPrice(Side.BID, 0);
    }

    public long bestAsk()
    {
        return levelPrice(Side.ASK, 0);
    }

    /** @return the number of price levels of the side. */
    public int levelCount(final Side side)
    {
        return levels(side).size();
    }

    /** @return the price of the level at this depth (0 = best), or {@link #NULL_PRICE} beyond the last. */
    public long levelPrice(final Side side, final int depth)
    {
        final PriceLevels levels = levels(side);
        final int index = levels.size() - 1 - depth;
        return depth >= 0 && index >= 0 ? levels.priceAt(index) : NULL_PRICE;
    }

    /** @return the total remaining quantity of the level at this depth (0 = best), 0 beyond the last. */
    public long levelQty(final Side side, final int depth)
    {
        final PriceLevels levels = levels(side);
        final int index = levels.size() - 1 - depth;
        return depth >= 0 && index >= 0 ? levels.totalAt(index) : 0;
    }

    /** @return the number of orders of the level at this depth (0 = best), 0 beyond the last. */
    public int levelOrderCount(final Side side, final int depth)
    {
        final PriceLevels levels = levels(side);
        final int index = levels.size() - 1 - depth;
        return depth >= 0 && index >= 0 ? levels.countAt(index) : 0;
    }

    /**
     * First order in time priority of the level at this depth; follow with {@link #nextInLevel(int)} for an
     * order-by-order snapshot.
     *
     * @return its slot, or {@link #NULL_SLOT} beyond the last level.
     */
    public int levelHead(final Side side, final int depth)
    {
        final PriceLevels levels = levels(side);
        final int index = levels.size() - 1 - depth;
        return depth >= 0 && index >= 0 ? levels.headAt(index) : NULL_SLOT;
    }

    /** @return the slot of the order queued behind this resting one in its level, or {@link #NULL_SLOT}. */
    public int nextInLevel(final int slot)
    {
        return pool.next(slot);
    }

    /**
     * Visits the levels of a side best first.
     *
     * @param maxDepth how many levels at most.
     * @return how many levels were visited.
     */
    public int forEachLevel(final Side side, final int maxDepth, final LevelVisitor visitor)
    {
        final PriceLevels levels = levels(side);
        final int count = Math.min(Math.max(maxDepth, 0), levels.size());
        for (int depth = 0; depth < count; depth++)
        {
            final int index = levels.size() - 1 - depth;
            visitor.onLevel(side, depth, levels.priceAt(index), levels.totalAt(index), levels.countAt(index));
        }
        return count;
    }

    /** @return the number of resting orders. */
    public int openOrders()
    {
        return pool.used();
    }

    public int orderCapacity()
    {
        return pool.capacity();
    }

    public int freeSlots()
    {
        return pool.free();
    }

    public int maxLevelsPerSide()
    {
        return maxLevelsPerSide;
    }

    /** @return the sequence of the last request accepted by place; a later one must not be below it. */
    public long lastSequence()
    {
        return lastSequence;
    }

    /** @return true if both sides have orders and the best bid is at or above the best ask (never expected). */
    public boolean crossed()
    {
        return bids.size() > 0 && asks.size() > 0 &&
            bids.priceAt(bids.bestIndex()) >= asks.priceAt(asks.bestIndex());
    }

    // Accessors by slot: meaningful while the order rests, and during onMakerDone for it.

    /** @return true if the slot holds a resting order. */
    public boolean isLive(final int slot)
    {
        return pool.isLive(slot);
    }

    @Override
    public int accountOf(final int slot)
    {
        return pool.account(slot);
    }

    @Override
    public Side sideOf(final int slot)
    {
        return pool.side(slot);
    }

    @Override
    public long priceOf(final int slot)
    {
        return pool.price(slot);
    }

    /**
     * @return the order's size: the quantity of its last {@link #place} or {@link #restAgain} plus the
     * {@code filledBefore} given with it (what its id filled before, or 0), lowered by any reduceQty since; so
     * {@link #filledOf} is every fill of the id since a place or restAgain that counted none before.
     */
    @Override
    public long originalQtyOf(final int slot)
    {
        return pool.originalQty(slot);
    }

    @Override
    public long remainingOf(final int slot)
    {
        return pool.remainingQty(slot);
    }

    public long filledOf(final int slot)
    {
        return pool.originalQty(slot) - pool.remainingQty(slot);
    }

    public TimeInForce timeInForceOf(final int slot)
    {
        return pool.timeInForce(slot);
    }

    /** @return the order's own STP mode (kept for reports; matching uses the taker's), or null. */
    public StpMode stpModeOf(final int slot)
    {
        return pool.stpMode(slot);
    }

    public long expiresAtOf(final int slot)
    {
        return pool.expiresAt(slot);
    }

    /** @return the sequence of the command that placed it: its time priority. */
    public long sequenceOf(final int slot)
    {
        return pool.sequence(slot);
    }

    /**
     * @param index 0..3, most significant first.
     * @return one big-endian word of the 32-byte order id.
     */
    @Override
    public long orderIdWord(final int slot, final int index)
    {
        return pool.idWord(slot, index);
    }

    /** Copies the 32-byte order id. */
    public void orderIdInto(final int slot, final byte[] dst, final int offset)
    {
        LONGS.set(dst, offset, pool.idWord(slot, 0));
        LONGS.set(dst, offset + 8, pool.idWord(slot, 1));
        LONGS.set(dst, offset + 16, pool.idWord(slot, 2));
        LONGS.set(dst, offset + 24, pool.idWord(slot, 3));
    }

    /** Copies the 32-byte order id. */
    @Override
    public void orderIdInto(final int slot, final MutableDirectBuffer dst, final int offset)
    {
        dst.putLong(offset, pool.idWord(slot, 0), ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + 8, pool.idWord(slot, 1), ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + 16, pool.idWord(slot, 2), ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + 24, pool.idWord(slot, 3), ByteOrder.BIG_ENDIAN);
    }

    private boolean isValid(final PlaceRequest request)
    {
        final TimeInForce tif = request.timeInForce();
        return request.side() != null &&
            tif != null &&
            request.accountIndex() >= 0 &&
            request.price() > 0 &&
            request.qty() > 0 &&
            request.filledBefore() >= 0 &&
            !(request.market() && tif == TimeInForce.POST_ONLY) &&
            request.expiresAt() >= NO_EXPIRY &&
            request.sequence() >= lastSequence;
    }

    /**
     * Whether adding {@code qty} to the level at this price would take its total past 2^63 - 1. Without a search
     * while every order this book has rested, and {@code qty}, are at most 2^63 / (capacity + 1): then even a level
     * holding the whole pool cannot overflow.
     */
    public boolean levelWouldOverflow(final Side side, final long price, final long qty)
    {
        if (qty <= safeQty && largestQty <= safeQty)
        {
            return false;
        }
        return levelQtyAt(side, price) > Long.MAX_VALUE - qty;
    }

    /** The total quantity resting at this price on this side; 0 if there is no such level. */
    public long levelQtyAt(final Side side, final long price)
    {
        final PriceLevels levels = levels(side);
        final int index = levels.indexOf(price);
        return index >= 0 ? levels.totalAt(index) : 0;
    }

    private PriceLevels levels(final Side side)
    {
        return side == Side.BID ? bids : asks;
    }

    private PriceLevels levelsOf(final int slot)
    {
        return levels(pool.side(slot));
    }

    private static boolean crosses(final boolean takerBid, final long limit, final long makerPrice)
    {
        return takerBid ? makerPrice <= limit : makerPrice >= limit;
    }

    private static boolean isExpired(final long expiresAt, final long nowMs)
    {
        return expiresAt != NO_EXPIRY && expiresAt <= nowMs;
    }

    private static PlaceResult done(
        final MatchListener listener, final PlaceResult result, final long filled, final long remaining)
    {
        listener.onTakerDone(result.takerDoneReason(), filled, remaining);
        return result;
    }

    /**
     * Dry run for FOK and STP reject, in priority order within the limit; expired orders are absent.
     *
     * @return AVAILABLE, INSUFFICIENT or OWN_ORDER_REACHED.
     */
    private int scan(final PlaceRequest request, final PriceLevels opposite)
    {
        final boolean bid = request.side() == Side.BID;
        final long limit = request.price();
        final long nowMs = request.nowMs();
        final int account = request.accountIndex();
        final StpMode stp = request.stpMode();
        long needed = request.qty();

        for (int index = opposite.bestIndex(); index >= 0; index--)
        {
            if (!crosses(bid, limit, opposite.priceAt(index)))
            {
                break;
            }
            for (int slot = opposite.headAt(index); slot != NULL_SLOT; slot = pool.next(slot))
            {
                if (isExpired(pool.expiresAt(slot), nowMs))
                {
                    continue;
                }
                if (stp != null && pool.account(slot) == account)
                {
                    if (stp == StpMode.REJECT)
                    {
                        return OWN_ORDER_REACHED;
                    }
                    if (stp == StpMode.CANCEL_TAKER)
                    {
                        return INSUFFICIENT;
                    }
                    continue;
                }
                needed -= pool.remainingQty(slot);
                if (needed <= 0)
                {
                    return AVAILABLE;
                }
            }
        }
        return INSUFFICIENT;
    }

    /**
     * Walks the opposite side best first within the limit, trading, removing expired makers and applying STP.
     *
     * @return the taker's remaining quantity; {@link #stoppedBySelf} tells whether an own order stopped it.
     */
    private long match(final PlaceRequest request, final PriceLevels opposite, final MatchListener listener)
    {
        final boolean bid = request.side() == Side.BID;
        final long limit = request.price();
        final long nowMs = request.nowMs();
        final int account = request.accountIndex();
        final StpMode stp = request.stpMode();
        long remaining = request.qty();
        stoppedBySelf = false;

        // Removing an emptied level only shifts the better levels above it, so index - 1 stays the next worse.
        for (int index = opposite.bestIndex(); index >= 0 && remaining > 0; index--)
        {
            if (!crosses(bid, limit, opposite.priceAt(index)))
            {
                break;
            }
            int slot = opposite.headAt(index);
            while (slot != NULL_SLOT && remaining > 0)
            {
                // Read first: the maker may leave the level (and its slot be freed) below.
                final int next = pool.next(slot);
                if (isExpired(pool.expiresAt(slot), nowMs))
                {
                    removeResting(opposite, index, slot, MakerDoneReason.EXPIRED, listener);
                }
                else if (stp != null && pool.account(slot) == account)
                {
                    if (stp == StpMode.CANCEL_MAKER)
                    {
                        removeResting(opposite, index, slot, MakerDoneReason.CANCELLED_STP, listener);
                    }
                    else if (stp != StpMode.SKIP_SELF)
                    {
                        // cancel_taker; reject never gets here since its scan passed.
                        stoppedBySelf = true;
                        return remaining;
                    }
                }
                else
                {
                    remaining -= trade(opposite, index, slot, remaining, account, listener);
                }
                slot = next;
            }
        }
        return remaining;
    }

    private long trade(
        final PriceLevels levels,
        final int index,
        final int slot,
        final long takerRemaining,
        final int takerAccount,
        final MatchListener listener)
    {
        final long makerRemaining = pool.remainingQty(slot);
        final long qty = Math.min(makerRemaining, takerRemaining);
        final long after = makerRemaining - qty;
        final long price = pool.price(slot);
        pool.remainingQty(slot, after);
        levels.reduceTotal(index, qty);
        listener.onTrade(slot, pool.account(slot), takerAccount, price, qty, after);
        if (after == 0)
        {
            removeResting(levels, index, slot, MakerDoneReason.FILLED, listener);
        }
        else
        {
            listener.onLevelChanged(levels.side(), price, levels.totalAt(index), levels.countAt(index));
        }
        return qty;
    }

    private boolean crossesLiveOrder(final PlaceRequest request, final PriceLevels opposite)
    {
        final boolean bid = request.side() == Side.BID;
        final long nowMs = request.nowMs();
        for (int index = opposite.bestIndex(); index >= 0; index--)
        {
            if (!crosses(bid, request.price(), opposite.priceAt(index)))
            {
                break;
            }
            for (int slot = opposite.headAt(index); slot != NULL_SLOT; slot = pool.next(slot))
            {
                if (!isExpired(pool.expiresAt(slot), nowMs))
                {
                    return true;
                }
            }
        }
        return false;
    }

    /** Clears expired orders a post-only order would otherwise rest across. */
    private void removeExpiredCrossing(final PlaceRequest request, final PriceLevels opposite,
        final MatchListener listener)
    {
        final boolean bid = request.side() == Side.BID;
        final long nowMs = request.nowMs();
        for (int index = opposite.bestIndex(); index >= 0; index--)
        {
            if (!crosses(bid, request.price(), opposite.priceAt(index)))
            {
                break;
            }
            int slot = opposite.headAt(index);
            while (slot != NULL_SLOT)
            {
                final int next = pool.next(slot);
                if (isExpired(pool.expiresAt(slot), nowMs))
                {
                    removeResting(opposite, index, slot, MakerDoneReason.EXPIRED, listener);
                }
                slot = next;
            }
        }
    }

    private PlaceResult rest(
        final PlaceRequest request, final long remaining, final PriceLevels same, final MatchListener listener)
    {
        final long price = request.price();
        int index = same.indexOf(price);
        if (index < 0)
        {
            int insertion = -index - 1;
            if (same.size() == maxLevelsPerSide)
            {
                // Insertion point 0 means worse than every level of a full side.
                if (insertion == 0)
                {
                    return done(listener, PlaceResult.PRUNED, request.qty() - remaining, remaining);
                }
                pruneWorst(same, listener);
                insertion--;
            }
            same.insertAt(insertion, price);
            index = insertion;
        }
        // A slot is free: place() checked before matching, and matching only frees slots.
        largestQty = Math.max(largestQty, request.qty());
        joinLevel(same, index, pool.allocate(request, remaining), price, listener);
        return PlaceResult.RESTED;
    }

    /** Puts a resting order at the back of its level and its expiry in the queue, and reports it rested. */
    private void joinLevel(final PriceLevels same, final int index, final int slot, final long price,
        final MatchListener listener)
    {
        same.append(index, slot);
        if (pool.expiresAt(slot) != NO_EXPIRY)
        {
            expiries.add(slot);
        }
        listener.onTakerRested(slot);
        listener.onLevelChanged(same.side(), price, same.totalAt(index), same.countAt(index));
    }

    private void pruneWorst(final PriceLevels levels, final MatchListener listener)
    {
        int slot = levels.headAt(0);
        while (slot != NULL_SLOT)
        {
            final int next = pool.next(slot);
            removeResting(levels, 0, slot, MakerDoneReason.PRUNED, listener);
            slot = next;
        }
    }

    /** Unlinks, drops an emptied level, reports (reason null: no onMakerDone) and frees the slot. */
    private void removeResting(
        final PriceLevels levels, final int index, final int slot, final MakerDoneReason reason,
        final MatchListener listener)
    {
        takeOut(levels, index, slot, reason, true, listener);
    }

    /** As {@link #removeResting}, the slot freed only when {@code free} (an order lifted to rest again keeps it). */
    private void takeOut(
        final PriceLevels levels, final int index, final int slot, final MakerDoneReason reason, final boolean free,
        final MatchListener listener)
    {
        final long price = pool.price(slot);
        levels.unlink(index, slot);
        final long levelQty = levels.totalAt(index);
        final int levelCount = levels.countAt(index);
        if (levelCount == 0)
        {
            levels.removeAt(index);
        }
        expiries.remove(slot);
        if (reason != null)
        {
            listener.onMakerDone(slot, reason);
        }
        if (free)
        {
            pool.release(slot);
        }
        listener.onLevelChanged(levels.side(), price, levelQty, levelCount);
    }
}
