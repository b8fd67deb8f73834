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
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An amend that moves a resting order to a price where it rests at once may use {@link OrderBook#lift} and
 * {@link OrderBook#restAgain} instead of {@link OrderBook#remove} and {@link OrderBook#place}. The two ways must
 * not be told apart: the same callbacks, slots, levels, queues, sizes (what the order filled kept), sequences and
 * expiries.
 */
class OrderBookMoveTest
{
    private static final long BASE_PRICE = 1_000;
    private static final long TICK = 10;

    /**
     * A step: place a GTC order, or move the n-th resting order (by id) to a new price and quantity, keeping what it
     * filled or (as the engine does for an amend of journal version 4 or 5) starting it again from 0.
     */
    record Step(boolean move, int pick, boolean bid, int ticks, long qty, int account, boolean expires,
        boolean keepsFilled)
    {
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void movingInTheSlotIsIndistinguishableFromRemoveAndPlace(
        @ForAll("steps") final List<Step> steps,
        @ForAll @IntRange(min = 1, max = 6) final int maxLevels)
    {
        final BookPair pair = new BookPair(64, maxLevels);
        for (final Step step : steps)
        {
            if (step.move())
            {
                pair.move(step);
            }
            else
            {
                pair.place(step);
            }
            assertEquals(pair.general.events, pair.moved.events);
            assertEquals(dump(pair.generalBook), dump(pair.movedBook));
        }
        Statistics.label("moved in place").collect(pair.moves > 0);
        Statistics.label("other side reached or side full").collect(pair.refused > 0);
        Statistics.label("moved in place").coverage(coverage -> coverage.check(true).percentage(p -> p > 50));
        Statistics.label("other side reached or side full")
            .coverage(coverage -> coverage.check(true).percentage(p -> p > 20));
    }

    @Test
    void aPriceTheOtherSideReachesIsNotMovedInPlace()
    {
        final BookTester tester = new BookTester();
        tester.place(tester.request(1, 0, Side.BID, 1_000, 5, TimeInForce.GTC, null));
        final int bid = tester.listener.restedSlot;
        tester.place(tester.request(2, 1, Side.ASK, 1_020, 5, TimeInForce.GTC, null));
        assertFalse(tester.book.restsWithoutMatching(bid, 1_020), "an ask at 1,020 would trade");
        assertFalse(tester.book.restsWithoutMatching(bid, 1_030), "and so would the asks below 1,030");
        assertTrue(tester.book.restsWithoutMatching(bid, 1_010));
    }

    @Test
    void aNewLevelOnAFullSideIsNotMovedInPlace()
    {
        final BookTester tester = new BookTester(16, 2);
        tester.place(tester.request(1, 0, Side.BID, 1_000, 5, TimeInForce.GTC, null));
        final int bid = tester.listener.restedSlot;
        tester.place(tester.request(2, 0, Side.BID, 990, 5, TimeInForce.GTC, null));
        assertFalse(tester.book.restsWithoutMatching(bid, 980), "a third level would prune the worst");
        assertTrue(tester.book.restsWithoutMatching(bid, 990), "an existing level takes it");
    }

    @Provide
    Arbitrary<List<Step>> steps()
    {
        final Arbitrary<Step> step = Combinators.combine(
            Arbitraries.integers().between(0, 9).map(n -> n < 5),
            Arbitraries.integers().between(0, 40),
            Arbitraries.of(true, false),
            Arbitraries.integers().between(-8, 8),
            Arbitraries.longs().between(1, 20),
            Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, 3).map(n -> n == 0),
            Arbitraries.of(true, false))
            .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(120);
    }

    /** Every level of both sides, best first: price, total, count, and each order's id, sizes, sequence, expiry. */
    private static List<String> dump(final OrderBook book)
    {
        final List<String> lines = new ArrayList<>();
        for (final Side side : Side.values())
        {
            for (int depth = 0; depth < book.levelCount(side); depth++)
            {
                final StringBuilder line = new StringBuilder().append(side).append(' ')
                    .append(book.levelPrice(side, depth)) .append('=').append(book.levelQty(side, depth)).append('/')
                    .append(book.levelOrderCount(side, depth));
                for (int slot = book.levelHead(side, depth); slot != OrderBook.NULL_SLOT; slot = book.nextInLevel(slot))
                {
                    line.append(" [").append(slot).append(" #").append(book.orderIdWord(slot, 3)).append(' ')
                        .append(book.remainingOf(slot)).append('/').append(book.originalQtyOf(slot)).append(" seq ")
                        .append(book.sequenceOf(slot)).append(" exp ").append(book.expiresAtOf(slot)).append(']');
                }
                lines.add(line.toString());
            }
        }
        lines.add("next expiry " + book.nextExpiry() + ", open " + book.openOrders() + ", free " + book.freeSlots() +
            ", last sequence " + book.lastSequence());
        return lines;
    }

    /** Two books fed the same places; a move goes the general way on one and in the slot on the other. */
    private static final class BookPair
    {
        final OrderBook generalBook;
        final OrderBook movedBook;
        final RecordingListener general;
        final RecordingListener moved;
        final List<Long> resting = new ArrayList<>();
        final PlaceRequest request = new PlaceRequest();
        long nextId = 1;
        long sequence = 1;
        int moves;
        int refused;

        BookPair(final int capacity, final int maxLevels)
        {
            generalBook = new OrderBook(capacity, maxLevels);
            movedBook = new OrderBook(capacity, maxLevels);
            general = new RecordingListener(generalBook);
            moved = new RecordingListener(movedBook);
        }

        void place(final Step step)
        {
            final long id = nextId++;
            final long seq = sequence++;
            general.clear();
            moved.clear();
            final PlaceResult a = generalBook.place(fill(id, step.account(), step.bid() ? Side.BID : Side.ASK,
                BASE_PRICE + step.ticks() * TICK, step.qty(), step.expires() ? 5_000 + id : OrderBook.NO_EXPIRY, seq),
                general);
            final PlaceResult b = movedBook.place(fill(id, step.account(), step.bid() ? Side.BID : Side.ASK,
                BASE_PRICE + step.ticks() * TICK, step.qty(), step.expires() ? 5_000 + id : OrderBook.NO_EXPIRY, seq),
                moved);
            assertEquals(a, b);
            if (a == PlaceResult.RESTED)
            {
                resting.add(id);
            }
            resting.removeIf(rest -> slotOf(generalBook, rest) == OrderBook.NULL_SLOT);
        }

        void move(final Step step)
        {
            if (resting.isEmpty())
            {
                return;
            }
            final long id = resting.get(step.pick() % resting.size());
            final int slot = slotOf(generalBook, id);
            assertEquals(slot, slotOf(movedBook, id));
            final long newPrice = BASE_PRICE + step.ticks() * TICK;
            final boolean inPlace = generalBook.restsWithoutMatching(slot, newPrice);
            assertEquals(inPlace, movedBook.restsWithoutMatching(slot, newPrice));
            if (!inPlace)
            {
                refused++;
                return;
            }
            moves++;
            final long seq = sequence++;
            final Side side = generalBook.sideOf(slot);
            final int account = generalBook.accountOf(slot);
            final long expiresAt = generalBook.expiresAtOf(slot);
            final long filled = step.keepsFilled() ? generalBook.filledOf(slot) : 0;
            general.clear();
            moved.clear();
            assertTrue(generalBook.remove(slot, general));
            // the engine places the order again with what it filled (or 0), which restAgain counts alike
            assertEquals(PlaceResult.RESTED,
                generalBook.place(fill(id, account, side, newPrice, step.qty(), expiresAt, seq)
                .filledBefore(filled), general));
            assertEquals(slot, general.restedSlot, "the pool hands back the slot it freed last");
            movedBook.lift(slot, moved);
            movedBook.restAgain(slot, newPrice, step.qty(), filled, seq, moved);
        }

        private PlaceRequest fill(
            final long id, final int account, final Side side, final long price, final long qty, final long expiresAt,
            final long seq)
        {
            return request.reset().orderId(0x1111L, 0x2222L, 0x3333L, id).accountIndex(account).side(side).price(price)
                .qty(qty).timeInForce(TimeInForce.GTC).stpMode(StpMode.CANCEL_TAKER).expiresAt(expiresAt).sequence(seq)
                .nowMs(1_000);
        }

        private static int slotOf(final OrderBook book, final long id)
        {
            for (final Side side : Side.values())
            {
                for (int depth = 0; depth < book.levelCount(side); depth++)
                {
                    for (int slot = book.levelHead(side, depth); slot != OrderBook.NULL_SLOT;
                        slot = book.nextInLevel(slot))
                    {
                        if (book.orderIdWord(slot, 3) == id)
                        {
                            return slot;
                        }
                    }
                }
            }
            return OrderBook.NULL_SLOT;
        }
    }
}
