package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long random streams of places (every kind), cancels, reductions, amends and expiries over a few accounts and a
 * narrow price band, on small books so that pruning and pool exhaustion happen. After every step: the book's
 * invariants, its agreement with {@link ModelBook}, and the market data rebuilt from level changes. Each stream
 * is run twice to check the callbacks are identical.
 */
class OrderBookPropertyTest
{
    private static final long BASE_PRICE = 1_000;
    private static final long TICK = 10;

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void bookKeepsItsInvariantsAgreesWithTheModelAndIsDeterministic(
        @ForAll("streams") final List<Op> ops,
        @ForAll @IntRange(min = 4, max = 48) final int capacity,
        @ForAll @IntRange(min = 1, max = 8) final int maxLevels)
    {
        final Run first = new Run(capacity, maxLevels, true);
        final Run second = new Run(capacity, maxLevels, false);
        for (final Op op : ops)
        {
            first.apply(op);
            second.apply(op);
        }
        assertEquals(first.checker.callbacks, second.checker.callbacks);
    }

    @Provide
    Arbitrary<List<Op>> streams()
    {
        final Arbitrary<Op> place = Combinators.combine(
            Arbitraries.integers().between(0, 3),
            Arbitraries.of(Side.class),
            Arbitraries.integers().between(0, 11),
            Arbitraries.integers().between(1, 20),
            Arbitraries.frequency(
                Tuple.of(5, TimeInForce.GTC),
                Tuple.of(2, TimeInForce.IOC),
                Tuple.of(2, TimeInForce.FOK),
                Tuple.of(2, TimeInForce.POST_ONLY)),
            Arbitraries.of(StpMode.class).injectNull(0.4),
            Arbitraries.integers().between(0, 9).map(n -> n == 0),
            Arbitraries.integers().between(-30, 30).map(n -> n <= 0 ? -1 : n)).as(
                (account, side, tick, qty, tif, stp, market, expiry) -> (Op)new Place(
                    account, side, tick, qty, tif, stp, market, expiry));
        final Arbitrary<Op> cancel = Arbitraries.integers().between(0, 1000).map(Cancel::new);
        final Arbitrary<Op> reduce = Combinators.combine(
            Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 1000)).as(Reduce::new);
        final Arbitrary<Op> amend = Combinators.combine(
            Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 11)).as(Amend::new);
        final Arbitrary<Op> advance = Arbitraries.integers().between(0, 6).map(Advance::new);
        final Arbitrary<Op> expire = Arbitraries.just(new Expire());
        return Arbitraries.frequencyOf(
            Tuple.of(14, place),
            Tuple.of(3, cancel),
            Tuple.of(2, reduce),
            Tuple.of(2, amend),
            Tuple.of(4, advance),
            Tuple.of(1, expire))
            .list().ofMinSize(50).ofMaxSize(400);
    }

    interface Op
    {
    }

    record Place(
        int account, Side side, int tick, int qty, TimeInForce tif, StpMode stp, boolean market, int expiry)
        implements Op
    {
    }

    record Cancel(int pick) implements Op
    {
    }

    record Reduce(int pick, int permille) implements Op
    {
    }

    record Amend(int pick, int tick) implements Op
    {
    }

    record Advance(int ms) implements Op
    {
    }

    record Expire() implements Op
    {
    }

    /** One book driven by a stream; with {@code checked}, also a model and the invariant checks. */
    private static final class Run
    {
        final OrderBook book;
        final Checker checker;
        final ModelBook model;
        final BookTester view;
        final PlaceRequest request = new PlaceRequest();
        final Map<Long, Integer> slots = new HashMap<>();
        final boolean checked;
        long sequence = 1;
        long nextId = 1;
        long now = 10_000;

        Run(final int capacity, final int maxLevels, final boolean checked)
        {
            this.checked = checked;
            this.view = new BookTester(capacity, maxLevels);
            this.book = view.book;
            this.checker = new Checker(book);
            this.model = new ModelBook(capacity, maxLevels);
        }

        void apply(final Op op)
        {
            checker.startStep(now);
            if (op instanceof Place place)
            {
                final long expiresAt = place.expiry() < 0 ? OrderBook.NO_EXPIRY : now + place.expiry();
                place(nextId++, place.account(), place.side(), BASE_PRICE + place.tick() * TICK, place.qty(),
                    place.tif(), place.stp(), place.market(), expiresAt, 0);
            }
            else if (op instanceof Cancel cancel)
            {
                final long id = pick(cancel.pick());
                final boolean cancelled = book.cancel(slotOf(id), checker);
                if (checked)
                {
                    assertEquals(model.cancel(id), cancelled);
                }
            }
            else if (op instanceof Reduce reduce)
            {
                final long id = pick(reduce.pick());
                final int slot = slotOf(id);
                final long remaining = book.isLive(slot) ? book.remainingOf(slot) : 1;
                final long newRemaining = remaining * reduce.permille() / 1000;
                final boolean reduced = book.reduceQty(slot, newRemaining, checker);
                if (reduced)
                {
                    checker.reduced(slot, remaining - newRemaining);
                }
                if (checked)
                {
                    assertEquals(model.reduce(id, newRemaining), reduced);
                }
            }
            else if (op instanceof Amend amend)
            {
                final long id = pick(amend.pick());
                final int slot = slotOf(id);
                if (book.isLive(slot))
                {
                    final int account = book.accountOf(slot);
                    final Side side = book.sideOf(slot);
                    final long remaining = book.remainingOf(slot);
                    // as the engine does: the same id enters again with what it filled, or, for an amend of journal
                    // version 4 or 5, with nothing filled before
                    final long filled = Math.floorMod(amend.pick(), 3) == 0 ? 0 : book.filledOf(slot);
                    checker.forget(slot);
                    assertTrue(book.remove(slot, checker));
                    slots.remove(id);
                    if (checked)
                    {
                        assertTrue(model.remove(id));
                    }
                    place(id, account, side, BASE_PRICE + amend.tick() * TICK, remaining, TimeInForce.GTC, null,
                        false, OrderBook.NO_EXPIRY, filled);
                }
            }
            else if (op instanceof Advance advance)
            {
                now += advance.ms();
            }
            else if (op instanceof Expire)
            {
                final int expired = book.expireUpTo(now, checker);
                if (checked)
                {
                    assertEquals(model.expireUpTo(now), expired);
                    for (final int slot : checker.live.keySet())
                    {
                        final long expiresAt = book.expiresAtOf(slot);
                        assertTrue(expiresAt == OrderBook.NO_EXPIRY || expiresAt > now);
                    }
                }
            }
            trackSlots();
            if (checked)
            {
                checker.checkBook();
                assertEquals(model.events, checker.orderEvents);
                assertEquals(model.levels(Side.BID), view.levels(Side.BID));
                assertEquals(model.levels(Side.ASK), view.levels(Side.ASK));
                model.events.clear();
            }
        }

        private void place(
            final long id, final int account, final Side side, final long price, final long qty,
            final TimeInForce tif, final StpMode stp, final boolean market, final long expiresAt,
            final long filledBefore)
        {
            request.reset()
                .orderId(0, 0, 0, id)
                .filledBefore(filledBefore)
                .accountIndex(account)
                .side(side)
                .price(price)
                .qty(qty)
                .timeInForce(tif)
                .stpMode(stp)
                .market(market)
                .expiresAt(expiresAt)
                .sequence(sequence)
                .nowMs(now);
            checker.startPlace(request);
            final PlaceResult result = book.place(request, checker);
            checker.endPlace(result);
            if (checked)
            {
                assertEquals(model.place(id, account, side, price, qty, tif, stp, market, expiresAt, sequence, now),
                    result);
                if (result != PlaceResult.INVALID)
                {
                    assertFalse(book.crossed(), "crossed after a place");
                }
            }
            sequence++;
        }

        private long pick(final int pick)
        {
            final List<Long> ids = new ArrayList<>(slots.keySet());
            ids.sort(Long::compare);
            return ids.isEmpty() ? -1 : ids.get(pick % ids.size());
        }

        private int slotOf(final long id)
        {
            final Integer slot = slots.get(id);
            return slot == null ? OrderBook.NULL_SLOT : slot;
        }

        private void trackSlots()
        {
            slots.clear();
            for (final Map.Entry<Integer, Tracked> entry : checker.live.entrySet())
            {
                slots.put(entry.getValue().id, entry.getKey());
            }
        }
    }

    private static final class Tracked
    {
        final long id;
        final long placedQty;
        long filled;
        long reduced;

        Tracked(final long id, final long placedQty, final long filled)
        {
            this.id = id;
            this.placedQty = placedQty;
            this.filled = filled;
        }
    }

    /**
     * Checks each callback as it comes, keeps per-order fills and the market data view built from level changes,
     * and records the callbacks (by slot, for determinism; by id, for the model).
     */
    private static final class Checker implements MatchListener
    {
        final OrderBook book;
        final List<String> callbacks = new ArrayList<>();
        final List<String> orderEvents = new ArrayList<>();
        final Map<Integer, Tracked> live = new HashMap<>();
        final TreeMap<String, Long> marketData = new TreeMap<>();
        long now;
        PlaceRequest taker;
        long takerFilled;
        int takerEnds;

        Checker(final OrderBook book)
        {
            this.book = book;
        }

        void startStep(final long now)
        {
            this.now = now;
            orderEvents.clear();
        }

        void startPlace(final PlaceRequest request)
        {
            taker = request;
            takerFilled = 0;
            takerEnds = 0;
        }

        void endPlace(final PlaceResult result)
        {
            final boolean silent = result == PlaceResult.INVALID || result == PlaceResult.POOL_EXHAUSTED;
            assertEquals(silent ? 0 : 1, takerEnds, "one terminal taker callback per place");
            if (silent)
            {
                assertEquals(0, takerFilled);
            }
            taker = null;
        }

        void reduced(final int slot, final long delta)
        {
            live.get(slot).reduced += delta;
        }

        void forget(final int slot)
        {
            live.remove(slot);
        }

        @Override
        public void onTrade(
            final int makerSlot, final int makerAccount, final int takerAccount, final long price, final long qty,
            final long makerRemainingAfter)
        {
            callbacks.add("trade " + makerSlot + " " + makerAccount + " " + takerAccount + " " + price + " " + qty +
                " " + makerRemainingAfter);
            orderEvents.add("T#" + book.orderIdWord(makerSlot, 3) + " a" + makerAccount + ">a" + takerAccount + " " +
                price + "x" + qty + " left=" + makerRemainingAfter);
            assertTrue(book.isLive(makerSlot));
            assertEquals(book.remainingOf(makerSlot), makerRemainingAfter);
            assertEquals(book.priceOf(makerSlot), price);
            assertEquals(book.accountOf(makerSlot), makerAccount);
            assertNotEquals(taker.side(), book.sideOf(makerSlot));
            assertEquals(taker.accountIndex(), takerAccount);
            assertTrue(taker.side() == Side.BID ? price <= taker.price() : price >= taker.price(), "within limit");
            assertTrue(qty > 0);
            if (taker.stpMode() != null)
            {
                assertNotEquals(takerAccount, makerAccount, "self trade under STP");
            }
            takerFilled += qty;
            assertTrue(takerFilled <= taker.qty());
            live.get(makerSlot).filled += qty;
        }

        @Override
        public void onMakerDone(final int slot, final MakerDoneReason reason)
        {
            callbacks.add("makerDone " + slot + " " + reason);
            orderEvents.add("D#" + book.orderIdWord(slot, 3) + " " + reason);
            assertTrue(book.isLive(slot), "readable during onMakerDone");
            final long remaining = book.remainingOf(slot);
            assertEquals(reason == MakerDoneReason.FILLED, remaining == 0);
            if (reason == MakerDoneReason.EXPIRED)
            {
                final long expiresAt = book.expiresAtOf(slot);
                assertTrue(expiresAt != OrderBook.NO_EXPIRY && expiresAt <= now);
            }
            final Tracked tracked = live.remove(slot);
            assertEquals(tracked.placedQty - tracked.reduced, tracked.filled + remaining, "conservation");
        }

        @Override
        public void onTakerRested(final int slot)
        {
            callbacks.add("rested " + slot);
            orderEvents.add("R#" + book.orderIdWord(slot, 3) + " left=" + book.remainingOf(slot));
            takerEnds++;
            assertTrue(book.isLive(slot));
            assertEquals(taker.filledBefore() + taker.qty(), book.originalQtyOf(slot));
            assertEquals(taker.filledBefore() + takerFilled, book.filledOf(slot));
            assertEquals(taker.price(), book.priceOf(slot));
            assertEquals(taker.sequence(), book.sequenceOf(slot));
            live.put(slot,
                new Tracked(taker.orderIdWord(3), taker.filledBefore() + taker.qty(),
                    taker.filledBefore() + takerFilled));
        }

        @Override
        public void onTakerDone(final TakerDoneReason reason, final long filledQty, final long remainingQty)
        {
            callbacks.add("takerDone " + reason + " " + filledQty + " " + remainingQty);
            orderEvents.add("X " + reason + " " + filledQty + "/" + remainingQty);
            takerEnds++;
            assertEquals(takerFilled, filledQty);
            assertEquals(taker.qty(), filledQty + remainingQty);
            if (reason == TakerDoneReason.FILLED)
            {
                assertEquals(0, remainingQty);
            }
            else
            {
                assertTrue(remainingQty > 0);
            }
        }

        @Override
        public void onLevelChanged(final Side side, final long price, final long newLevelQty, final int orderCount)
        {
            callbacks.add("level " + side + " " + price + " " + newLevelQty + " " + orderCount);
            assertTrue(newLevelQty >= 0);
            assertTrue((newLevelQty == 0) == (orderCount == 0), "an empty level has no orders and the reverse");
            if (newLevelQty == 0)
            {
                marketData.remove(side + " " + price);
            }
            else
            {
                marketData.put(side + " " + price, newLevelQty);
            }
        }

        void checkBook()
        {
            assertFalse(book.crossed());
            final Set<Integer> seen = new HashSet<>();
            final TreeMap<String, Long> levels = new TreeMap<>();
            for (final Side side : Side.values())
            {
                long previous = side == Side.BID ? Long.MAX_VALUE : Long.MIN_VALUE;
                for (int depth = 0; depth < book.levelCount(side); depth++)
                {
                    final long price = book.levelPrice(side, depth);
                    assertTrue(side == Side.BID ? price < previous : price > previous, "levels sorted best first");
                    previous = price;
                    long total = 0;
                    int count = 0;
                    for (int slot = book.levelHead(side, depth); slot != OrderBook.NULL_SLOT;
                        slot = book.nextInLevel(slot))
                    {
                        assertTrue(seen.add(slot), "an order in one level only");
                        assertTrue(book.isLive(slot));
                        assertEquals(side, book.sideOf(slot));
                        assertEquals(price, book.priceOf(slot));
                        assertTrue(book.remainingOf(slot) > 0);
                        total += book.remainingOf(slot);
                        count++;
                    }
                    assertTrue(count > 0, "no empty level");
                    assertEquals(total, book.levelQty(side, depth), "level total");
                    assertEquals(count, book.levelOrderCount(side, depth));
                    levels.put(side + " " + price, total);
                }
            }
            assertEquals(live.keySet(), seen, "every resting order is in a level");
            assertEquals(live.size(), book.openOrders());
            assertEquals(book.orderCapacity() - book.openOrders(), book.freeSlots());
            for (final Map.Entry<Integer, Tracked> entry : live.entrySet())
            {
                final int slot = entry.getKey();
                final Tracked tracked = entry.getValue();
                assertEquals(tracked.id, book.orderIdWord(slot, 3));
                assertEquals(tracked.placedQty - tracked.reduced, book.originalQtyOf(slot));
                assertEquals(tracked.filled, book.filledOf(slot), "filled + remaining conserved");
            }
            assertEquals(levels, marketData, "market data from level changes");
        }
    }
}
