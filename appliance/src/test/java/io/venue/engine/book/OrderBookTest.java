package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderBookTest
{
    private static final int A = 1;
    private static final int B = 2;
    private static final int C = 3;

    private final BookTester tester = new BookTester();
    private final OrderBook book = tester.book;
    private final RecordingListener events = tester.listener;

    @Nested
    class Resting
    {
        @Test
        void ordersRestBestFirstOnEachSide()
        {
            assertEquals(PlaceResult.RESTED, tester.gtc(1, A, Side.BID, 99, 5));
            assertEquals(List.of("R#1 left=5", "L BID 99=5"), events.events);
            tester.gtc(2, A, Side.BID, 100, 3);
            tester.gtc(3, B, Side.BID, 98, 1);
            tester.gtc(4, B, Side.ASK, 102, 2);
            tester.gtc(5, B, Side.ASK, 101, 7);
            tester.gtc(6, C, Side.BID, 100, 4);

            assertEquals("ASK [101=7[#5:7], 102=2[#4:2]] BID [100=7[#2:3 #6:4], 99=5[#1:5], 98=1[#3:1]]",
                tester.snapshot());
            assertEquals(100, book.bestBid());
            assertEquals(101, book.bestAsk());
            assertEquals(7, book.bestQty(Side.BID));
            assertEquals(7, book.bestQty(Side.ASK));
            assertEquals(6, book.openOrders());
            assertEquals(3, book.levelCount(Side.BID));
            assertEquals(2, book.levelOrderCount(Side.BID, 0));
            assertEquals(OrderBook.NULL_PRICE, book.levelPrice(Side.ASK, 2));
            assertEquals(0, book.levelQty(Side.ASK, 2));
            assertEquals(OrderBook.NULL_SLOT, book.levelHead(Side.ASK, 2));
            assertFalse(book.crossed());
        }

        @Test
        void emptyBookHasNoPrices()
        {
            assertEquals(OrderBook.NULL_PRICE, book.bestBid());
            assertEquals(OrderBook.NULL_PRICE, book.bestAsk());
            assertEquals(0, book.bestQty(Side.BID));
            assertEquals(0, book.openOrders());
            assertFalse(book.crossed());
        }

        @Test
        void levelVisitorGoesBestFirstWithoutSkippingOrOvershooting()
        {
            tester.gtc(1, A, Side.ASK, 103, 1);
            tester.gtc(2, A, Side.ASK, 101, 2);
            tester.gtc(3, A, Side.ASK, 102, 3);
            tester.gtc(4, A, Side.ASK, 101, 4);
            final List<String> seen = new ArrayList<>();
            final LevelVisitor visitor = (side, depth, price, qty, count) ->
                seen.add(side + " " + depth + " " + price + "=" + qty + "/" + count);

            assertEquals(2, book.forEachLevel(Side.ASK, 2, visitor));
            assertEquals(List.of("ASK 0 101=6/2", "ASK 1 102=3/1"), seen);
            seen.clear();
            assertEquals(3, book.forEachLevel(Side.ASK, 10, visitor));
            assertEquals(0, book.forEachLevel(Side.BID, 10, visitor));
            assertEquals(List.of("ASK 0 101=6/2", "ASK 1 102=3/1", "ASK 2 103=1/1"), seen);
        }

        @Test
        void slotAccessorsReadTheOrder()
        {
            final byte[] id = new byte[32];
            for (int i = 0; i < 32; i++)
            {
                id[i] = (byte)(i * 7 + 1);
            }
            final PlaceRequest request = new PlaceRequest()
                .orderId(id, 0)
                .accountIndex(42)
                .side(Side.ASK)
                .price(1_500_000)
                .qty(20_000_000)
                .timeInForce(TimeInForce.GTC)
                .stpMode(StpMode.SKIP_SELF)
                .expiresAt(5_000)
                .sequence(77)
                .nowMs(1_000);
            assertEquals(PlaceResult.RESTED, book.place(request, events));
            final int slot = events.restedSlot;

            assertTrue(book.isLive(slot));
            assertEquals(42, book.accountOf(slot));
            assertEquals(Side.ASK, book.sideOf(slot));
            assertEquals(1_500_000, book.priceOf(slot));
            assertEquals(20_000_000, book.originalQtyOf(slot));
            assertEquals(20_000_000, book.remainingOf(slot));
            assertEquals(0, book.filledOf(slot));
            assertEquals(TimeInForce.GTC, book.timeInForceOf(slot));
            assertEquals(StpMode.SKIP_SELF, book.stpModeOf(slot));
            assertEquals(5_000, book.expiresAtOf(slot));
            assertEquals(77, book.sequenceOf(slot));

            final byte[] copy = new byte[40];
            book.orderIdInto(slot, copy, 8);
            assertArrayEquals(id, Arrays.copyOfRange(copy, 8, 40));
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[36]);
            book.orderIdInto(slot, buffer, 4);
            final byte[] fromBuffer = new byte[32];
            buffer.getBytes(4, fromBuffer);
            assertArrayEquals(id, fromBuffer);

            final PlaceRequest fromDirect = new PlaceRequest().orderId(buffer, 4);
            for (int word = 0; word < 4; word++)
            {
                assertEquals(request.orderIdWord(word), fromDirect.orderIdWord(word));
                assertEquals(request.orderIdWord(word), book.orderIdWord(slot, word));
            }
            assertEquals(0x0108_0f16_1d24_2b32L, request.orderIdWord(0));
        }
    }

    @Nested
    class Matching
    {
        @Test
        void tradeExecutesAtTheMakerPrice()
        {
            tester.gtc(1, B, Side.ASK, 100, 5);
            assertEquals(PlaceResult.FILLED, tester.place(2, A, Side.BID, 105, 5, TimeInForce.GTC, null));
            assertEquals(List.of("T#1 a2>a1 100x5 left=0", "D#1 FILLED", "L ASK 100=0", "X FILLED 5/0"),
                events.events);

            tester.gtc(3, B, Side.BID, 90, 5);
            assertEquals(PlaceResult.FILLED, tester.place(4, A, Side.ASK, 80, 2, TimeInForce.IOC, null));
            assertEquals(List.of("T#3 a2>a1 90x2 left=3", "L BID 90=3", "X FILLED 2/0"), events.events);
        }

        @Test
        void sweepsSeveralLevelsBestFirstAndRestsTheRemainder()
        {
            tester.gtc(1, B, Side.ASK, 102, 4);
            tester.gtc(2, B, Side.ASK, 100, 1);
            tester.gtc(3, C, Side.ASK, 101, 2);
            tester.gtc(4, B, Side.ASK, 101, 3);
            tester.gtc(5, B, Side.ASK, 103, 9);

            assertEquals(PlaceResult.RESTED, tester.place(6, A, Side.BID, 102, 12, TimeInForce.GTC, null));
            assertEquals(List.of(
                "T#2 a2>a1 100x1 left=0", "D#2 FILLED", "L ASK 100=0",
                "T#3 a3>a1 101x2 left=0", "D#3 FILLED", "L ASK 101=3",
                "T#4 a2>a1 101x3 left=0", "D#4 FILLED", "L ASK 101=0",
                "T#1 a2>a1 102x4 left=0", "D#1 FILLED", "L ASK 102=0",
                "R#6 left=2", "L BID 102=2"), events.events);
            assertEquals("ASK [103=9[#5:9]] BID [102=2[#6:2]]", tester.snapshot());
            final int slot = tester.slotOf(6);
            assertEquals(12, book.originalQtyOf(slot));
            assertEquals(10, book.filledOf(slot));
        }

        @Test
        void partialFillOfTheLastMakerLeavesItAtTheFront()
        {
            tester.gtc(1, B, Side.ASK, 100, 5);
            tester.gtc(2, C, Side.ASK, 100, 5);
            tester.place(3, A, Side.BID, 100, 7, TimeInForce.IOC, null);
            assertEquals("ASK [100=3[#2:3]] BID []", tester.snapshot());
            assertEquals(List.of(
                "T#1 a2>a1 100x5 left=0", "D#1 FILLED", "L ASK 100=5",
                "T#2 a3>a1 100x2 left=3", "L ASK 100=3", "X FILLED 7/0"), events.events);
        }

        @Test
        void iocCancelsWhatDoesNotTradeAtOnce()
        {
            tester.gtc(1, B, Side.ASK, 100, 2);
            assertEquals(PlaceResult.CANCELLED_IOC, tester.place(2, A, Side.BID, 100, 5, TimeInForce.IOC, null));
            assertEquals("X CANCELLED_IOC 2/3", events.events.get(events.events.size() - 1));
            assertEquals(PlaceResult.CANCELLED_IOC, tester.place(3, A, Side.BID, 100, 5, TimeInForce.IOC, null));
            assertEquals(List.of("X CANCELLED_IOC 0/5"), events.events);
            assertEquals(0, book.openOrders());
        }

        @Test
        void nonCrossingGtcRestsWithoutTrading()
        {
            tester.gtc(1, B, Side.ASK, 101, 2);
            assertEquals(PlaceResult.RESTED, tester.gtc(2, A, Side.BID, 100, 5));
            assertEquals(List.of("R#2 left=5", "L BID 100=5"), events.events);
        }

        @Test
        void selfTradeHappensWithoutStp()
        {
            tester.gtc(1, A, Side.ASK, 100, 2);
            assertEquals(PlaceResult.FILLED, tester.place(2, A, Side.BID, 100, 2, TimeInForce.GTC, null));
            assertEquals("T#1 a1>a1 100x2 left=0", events.events.get(0));
        }
    }

    @Nested
    class Priority
    {
        @Test
        void earlierSequenceTradesFirstAtOnePrice()
        {
            tester.gtc(1, B, Side.ASK, 100, 1);
            tester.gtc(2, C, Side.ASK, 100, 1);
            tester.gtc(3, B, Side.ASK, 100, 1);
            tester.place(4, A, Side.BID, 100, 2, TimeInForce.IOC, null);
            assertEquals(List.of("T#1 a2>a1 100x1 left=0", "T#2 a3>a1 100x1 left=0"), events.trades());
        }

        @Test
        void betterPriceBeatsEarlierTime()
        {
            tester.gtc(1, B, Side.BID, 100, 1);
            tester.gtc(2, C, Side.BID, 101, 1);
            tester.place(3, A, Side.ASK, 100, 1, TimeInForce.IOC, null);
            assertEquals(List.of("T#2 a3>a1 101x1 left=0"), events.trades());
        }

        @Test
        void reduceQtyKeepsPriority()
        {
            tester.gtc(1, B, Side.ASK, 100, 10);
            tester.gtc(2, C, Side.ASK, 100, 10);

            assertTrue(tester.reduce(1, 4));
            assertEquals(List.of("L ASK 100=14"), events.events);
            tester.place(3, A, Side.BID, 100, 5, TimeInForce.IOC, null);
            assertEquals(List.of("T#1 a2>a1 100x4 left=0", "T#2 a3>a1 100x1 left=9"), events.trades());
        }

        @Test
        void removeAndPlaceAgainLosesPriority()
        {
            tester.gtc(1, B, Side.ASK, 101, 10);
            tester.gtc(2, C, Side.ASK, 100, 10);

            // Amend #1 to 100: the engine removes it and places it again with a new sequence.
            assertTrue(tester.remove(1));
            assertEquals(List.of("L ASK 101=0"), events.events);
            assertEquals(1, book.openOrders());
            tester.gtc(1, B, Side.ASK, 100, 10);

            tester.place(3, A, Side.BID, 100, 12, TimeInForce.IOC, null);
            assertEquals(List.of("T#2 a3>a1 100x10 left=0", "T#1 a2>a1 100x2 left=8"), events.trades());
        }

        @Test
        void reduceQtyLowersTheSizeButNotTheFilledQuantity()
        {
            tester.gtc(1, B, Side.ASK, 100, 10);
            tester.place(2, A, Side.BID, 100, 3, TimeInForce.IOC, null);
            final int slot = tester.slotOf(1);
            assertEquals(3, book.filledOf(slot));

            assertTrue(tester.reduce(1, 2));
            assertEquals(2, book.remainingOf(slot));
            assertEquals(5, book.originalQtyOf(slot));
            assertEquals(3, book.filledOf(slot));
            assertEquals(2, book.bestQty(Side.ASK));
        }

        @Test
        void anOrderEnteringAgainKeepsWhatItFilledBothWays()
        {
            // #1 filled 3 of 10, then moved in its slot with 4 remaining: its size is 3 + 4
            tester.gtc(1, B, Side.ASK, 100, 10);
            tester.place(2, A, Side.BID, 100, 3, TimeInForce.IOC, null);
            final int slot = tester.slotOf(1);
            assertTrue(book.restsWithoutMatching(slot, 101));
            book.lift(slot, events);
            book.restAgain(slot, 101, 4, book.filledOf(slot), tester.sequence++, events);
            assertEquals(4, book.remainingOf(slot));
            assertEquals(7, book.originalQtyOf(slot));
            assertEquals(3, book.filledOf(slot));

            // then taken out and placed again with what it filled, trading 2 of its 5 on the way in
            tester.gtc(3, A, Side.BID, 99, 2);
            final long filled = book.filledOf(slot);
            assertTrue(tester.remove(1));
            tester.place(tester.request(1, B, Side.ASK, 99, 5, TimeInForce.GTC, null).filledBefore(filled));
            assertEquals(List.of("T#3 a1>a2 99x2 left=0"), events.trades());
            final int again = tester.slotOf(1);
            assertEquals(3, book.remainingOf(again));
            assertEquals(8, book.originalQtyOf(again));
            assertEquals(5, book.filledOf(again));
        }

        @Test
        void anOrderEnteringAgainWithNothingFilledBeforeStartsItsFilledAgainBothWays()
        {
            // as the engine enters an order for an amend of journal version 4 or 5: its size is the new quantity alone
            tester.gtc(1, B, Side.ASK, 100, 10);
            tester.place(2, A, Side.BID, 100, 3, TimeInForce.IOC, null);
            final int slot = tester.slotOf(1);
            book.lift(slot, events);
            book.restAgain(slot, 101, 4, 0, tester.sequence++, events);
            assertEquals(4, book.remainingOf(slot));
            assertEquals(4, book.originalQtyOf(slot));
            assertEquals(0, book.filledOf(slot));

            tester.gtc(3, A, Side.BID, 99, 2);
            assertTrue(tester.remove(1));
            tester.place(tester.request(1, B, Side.ASK, 99, 5, TimeInForce.GTC, null));
            final int again = tester.slotOf(1);
            assertEquals(3, book.remainingOf(again));
            assertEquals(5, book.originalQtyOf(again));
            assertEquals(2, book.filledOf(again));
        }

        @Test
        void reduceQtyRefusesOutOfRangeValues()
        {
            tester.gtc(1, B, Side.ASK, 100, 10);
            assertFalse(tester.reduce(1, 10));
            assertFalse(tester.reduce(1, 11));
            assertFalse(tester.reduce(1, 0));
            assertFalse(tester.reduce(1, -1));
            assertFalse(book.reduceQty(OrderBook.NULL_SLOT, 1, events));
            assertFalse(book.reduceQty(123_456, 1, events));
            assertTrue(events.events.isEmpty());
            assertEquals(10, book.bestQty(Side.ASK));
        }
    }

    @Nested
    class Cancelling
    {
        @Test
        void cancelReportsAndFreesTheSlot()
        {
            tester.gtc(1, B, Side.ASK, 100, 10);
            tester.gtc(2, B, Side.ASK, 100, 5);
            final int slot = tester.slotOf(1);

            assertTrue(tester.cancel(1));
            assertEquals(List.of("D#1 CANCELLED", "L ASK 100=5"), events.events);
            assertFalse(book.isLive(slot));
            assertFalse(book.cancel(slot, events));
            assertFalse(book.cancel(-1, events));
            assertFalse(book.cancel(1 << 20, events));
            assertEquals(1, book.openOrders());

            assertTrue(tester.cancel(2));
            assertEquals(List.of("D#2 CANCELLED", "L ASK 100=0"), events.events);
            assertEquals(OrderBook.NULL_PRICE, book.bestAsk());
        }

        @Test
        void cancelInTheMiddleKeepsTheQueueOrder()
        {
            tester.gtc(1, B, Side.BID, 100, 1);
            tester.gtc(2, B, Side.BID, 100, 2);
            tester.gtc(3, B, Side.BID, 100, 3);
            tester.cancel(2);
            assertEquals("ASK [] BID [100=4[#1:1 #3:3]]", tester.snapshot());
            tester.gtc(4, B, Side.BID, 100, 4);
            tester.cancel(1);
            assertEquals("ASK [] BID [100=7[#3:3 #4:4]]", tester.snapshot());
        }
    }

    @Nested
    class PostOnly
    {
        @Test
        void restsWhenItDoesNotCross()
        {
            tester.gtc(1, B, Side.ASK, 101, 5);
            assertEquals(PlaceResult.RESTED, tester.place(2, A, Side.BID, 100, 5, TimeInForce.POST_ONLY, null));
            assertEquals(PlaceResult.RESTED, tester.place(3, A, Side.ASK, 102, 5, TimeInForce.POST_ONLY, null));
            assertEquals("ASK [101=5[#1:5], 102=5[#3:5]] BID [100=5[#2:5]]", tester.snapshot());
        }

        @Test
        void isRejectedWhenItWouldCrossOrTouch()
        {
            tester.gtc(1, B, Side.ASK, 101, 5);
            final String before = tester.snapshot();
            assertEquals(PlaceResult.REJECTED_POST_ONLY,
                tester.place(2, A, Side.BID, 101, 5, TimeInForce.POST_ONLY, null));
            assertEquals(List.of("X REJECTED_POST_ONLY 0/5"), events.events);
            assertEquals(PlaceResult.REJECTED_POST_ONLY,
                tester.place(3, A, Side.BID, 105, 5, TimeInForce.POST_ONLY, null));
            assertEquals(before, tester.snapshot());
        }

        @ParameterizedTest
        @EnumSource(StpMode.class)
        void isRejectedWhenItWouldCrossAnOwnOrderWhateverTheStpMode(final StpMode stp)
        {
            tester.gtc(1, A, Side.ASK, 101, 5);
            assertEquals(PlaceResult.REJECTED_POST_ONLY,
                tester.place(2, A, Side.BID, 101, 5, TimeInForce.POST_ONLY, stp));
            assertEquals(1, book.openOrders());
        }

        @Test
        void expiredOrdersDoNotBlockItAndAreClearedBeforeItRests()
        {
            tester.gtcExpiring(1, B, Side.ASK, 100, 5, 1_500);
            tester.gtc(2, B, Side.ASK, 102, 5);
            tester.nowMs = 1_500;
            assertEquals(PlaceResult.RESTED, tester.place(3, A, Side.BID, 101, 5, TimeInForce.POST_ONLY, null));
            assertEquals(List.of("D#1 EXPIRED", "L ASK 100=0", "R#3 left=5", "L BID 101=5"), events.events);
            assertFalse(book.crossed());
        }
    }

    @Nested
    class FillOrKill
    {
        @Test
        void exactlyFillableFills()
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, C, Side.ASK, 101, 4);
            assertEquals(PlaceResult.FILLED, tester.place(3, A, Side.BID, 101, 7, TimeInForce.FOK, null));
            assertEquals("X FILLED 7/0", events.events.get(events.events.size() - 1));
            assertEquals(0, book.openOrders());
        }

        @Test
        void oneLotShortIsKilledWithNoFill()
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, C, Side.ASK, 101, 4);
            tester.gtc(3, C, Side.ASK, 102, 100);
            final String before = tester.snapshot();
            assertEquals(PlaceResult.KILLED_FOK, tester.place(4, A, Side.BID, 101, 8, TimeInForce.FOK, null));
            assertEquals(List.of("X KILLED_FOK 0/8"), events.events);
            assertEquals(before, tester.snapshot());
        }

        @Test
        void expiredOrdersAreNotLiquidity()
        {
            tester.gtcExpiring(1, B, Side.ASK, 100, 3, 1_200);
            tester.gtc(2, C, Side.ASK, 100, 4);
            tester.nowMs = 1_200;
            assertEquals(PlaceResult.KILLED_FOK, tester.place(3, A, Side.BID, 100, 5, TimeInForce.FOK, null));
            assertEquals(2, book.openOrders());
            assertEquals(PlaceResult.FILLED, tester.place(4, A, Side.BID, 100, 4, TimeInForce.FOK, null));
            assertEquals(List.of("D#1 EXPIRED", "L ASK 100=4", "T#2 a3>a1 100x4 left=0", "D#2 FILLED",
                "L ASK 100=0", "X FILLED 4/0"), events.events);
        }

        /** Own #2 sits between #1 and #3; the taker needs 6 of the 3 + 3 other liquidity. */
        @ParameterizedTest
        @EnumSource(StpMode.class)
        void ownOrdersInTheWayUnderEachStpMode(final StpMode stp)
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, A, Side.ASK, 100, 5);
            tester.gtc(3, C, Side.ASK, 101, 3);
            final PlaceResult result = tester.place(4, A, Side.BID, 101, 6, TimeInForce.FOK, stp);
            switch (stp)
            {
                case CANCEL_MAKER:
                    assertEquals(PlaceResult.FILLED, result);
                    assertEquals(List.of("T#1 a2>a1 100x3 left=0", "T#3 a3>a1 101x3 left=0"), events.trades());
                    assertTrue(events.events.contains("D#2 CANCELLED_STP"));
                    assertEquals("ASK [] BID []", tester.snapshot());
                    break;
                case SKIP_SELF:
                    assertEquals(PlaceResult.FILLED, result);
                    assertEquals(List.of("T#1 a2>a1 100x3 left=0", "T#3 a3>a1 101x3 left=0"), events.trades());
                    assertEquals("ASK [100=5[#2:5]] BID []", tester.snapshot());
                    break;
                case CANCEL_TAKER:
                    assertEquals(PlaceResult.KILLED_FOK, result);
                    break;
                case REJECT:
                    assertEquals(PlaceResult.REJECTED_STP, result);
                    break;
                default:
                    throw new IllegalStateException();
            }
        }

        /** One lot more than the non-own liquidity: own orders never make up the difference. */
        @ParameterizedTest
        @EnumSource(value = StpMode.class, names = {"CANCEL_MAKER", "SKIP_SELF"})
        void ownOrdersDoNotCountAsLiquidity(final StpMode stp)
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, A, Side.ASK, 100, 5);
            tester.gtc(3, C, Side.ASK, 101, 3);
            final String before = tester.snapshot();
            assertEquals(PlaceResult.KILLED_FOK, tester.place(4, A, Side.BID, 101, 7, TimeInForce.FOK, stp));
            assertEquals(before, tester.snapshot());
        }

        @ParameterizedTest
        @EnumSource(value = StpMode.class, names = {"CANCEL_TAKER", "REJECT"})
        void ownOrdersBehindTheNeededQuantityDoNotMatter(final StpMode stp)
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, A, Side.ASK, 100, 5);
            assertEquals(PlaceResult.FILLED, tester.place(3, A, Side.BID, 101, 3, TimeInForce.FOK, stp));
            assertEquals("ASK [100=5[#2:5]] BID []", tester.snapshot());
        }

        @Test
        void cancelTakerCountsOnlyTheLiquidityBeforeTheFirstOwnOrder()
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, A, Side.ASK, 100, 5);
            tester.gtc(3, C, Side.ASK, 100, 30);
            assertEquals(PlaceResult.KILLED_FOK, tester.place(4, A, Side.BID, 100, 4, TimeInForce.FOK,
                StpMode.CANCEL_TAKER));
        }
    }

    @Nested
    class SelfTradePrevention
    {
        @Test
        void rejectIgnoresOwnOrdersBeyondTheLimitPrice()
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, A, Side.ASK, 102, 5);
            assertEquals(PlaceResult.RESTED, tester.place(3, A, Side.BID, 101, 5, TimeInForce.GTC, StpMode.REJECT));
            assertEquals("ASK [102=5[#2:5]] BID [101=2[#3:2]]", tester.snapshot());
        }

        @Test
        void rejectWhenLiquidityRunsOutOntoAnOwnOrder()
        {
            tester.gtc(1, B, Side.ASK, 100, 3);
            tester.gtc(2, A, Side.ASK, 101, 5);
            assertEquals(PlaceResult.REJECTED_STP,
                tester.place(3, A, Side.BID, 101, 5, TimeInForce.IOC, StpMode.REJECT));
            assertEquals(List.of("X REJECTED_STP 0/5"), events.events);
        }

        @Test
        void skipSelfGtcRestsWhenItsOwnOrdersAreNotCrossed()
        {
            tester.gtc(1, A, Side.ASK, 101, 5);
            tester.gtc(2, B, Side.ASK, 100, 2);
            assertEquals(PlaceResult.RESTED, tester.place(3, A, Side.BID, 100, 5, TimeInForce.GTC, StpMode.SKIP_SELF));
            assertEquals("ASK [101=5[#1:5]] BID [100=3[#3:3]]", tester.snapshot());
        }

        @Test
        void skipSelfKeepsTheOwnOrdersPlace()
        {
            tester.gtc(1, A, Side.ASK, 100, 5);
            tester.gtc(2, B, Side.ASK, 100, 2);
            tester.gtc(3, C, Side.ASK, 100, 2);
            tester.place(4, A, Side.BID, 100, 3, TimeInForce.IOC, StpMode.SKIP_SELF);
            assertEquals("ASK [100=6[#1:5 #3:1]] BID []", tester.snapshot());
        }

        @Test
        void stpDoesNotApplyToOtherAccounts()
        {
            tester.gtc(1, B, Side.ASK, 100, 5);
            assertEquals(PlaceResult.FILLED,
                tester.place(2, A, Side.BID, 100, 5, TimeInForce.IOC, StpMode.CANCEL_TAKER));
        }
    }

    @Nested
    class MarketOrders
    {
        @Test
        void priceProtectionStopsTheSweep()
        {
            tester.gtc(1, B, Side.ASK, 100, 2);
            tester.gtc(2, B, Side.ASK, 101, 2);
            tester.gtc(3, B, Side.ASK, 102, 2);
            assertEquals(PlaceResult.CANCELLED_IOC, tester.market(4, A, Side.BID, 101, 10, TimeInForce.GTC));
            assertEquals(List.of("T#1 a2>a1 100x2 left=0", "T#2 a2>a1 101x2 left=0"), events.trades());
            assertEquals("X CANCELLED_IOC 4/6", events.events.get(events.events.size() - 1));
            assertEquals("ASK [102=2[#3:2]] BID []", tester.snapshot());
        }

        @Test
        void neverRests()
        {
            assertEquals(PlaceResult.CANCELLED_IOC, tester.market(1, A, Side.ASK, 1, 10, TimeInForce.GTC));
            assertEquals(PlaceResult.CANCELLED_IOC, tester.market(2, A, Side.ASK, 1, 10, TimeInForce.IOC));
            assertEquals(0, book.openOrders());
        }

        @Test
        void sellSideProtectionIsAFloor()
        {
            tester.gtc(1, B, Side.BID, 100, 2);
            tester.gtc(2, B, Side.BID, 99, 2);
            tester.gtc(3, B, Side.BID, 98, 2);
            assertEquals(PlaceResult.FILLED, tester.market(4, A, Side.ASK, 99, 4, TimeInForce.IOC));
            assertEquals("ASK [] BID [98=2[#3:2]]", tester.snapshot());
        }

        @Test
        void fokMarketIsDecidedWithinTheProtection()
        {
            tester.gtc(1, B, Side.ASK, 100, 2);
            tester.gtc(2, B, Side.ASK, 105, 10);
            assertEquals(PlaceResult.KILLED_FOK, tester.market(3, A, Side.BID, 104, 3, TimeInForce.FOK));
            assertEquals(PlaceResult.FILLED, tester.market(4, A, Side.BID, 105, 3, TimeInForce.FOK));
            assertEquals(List.of("T#1 a2>a1 100x2 left=0", "T#2 a2>a1 105x1 left=9"), events.trades());
        }

        @Test
        void postOnlyMarketIsInvalid()
        {
            tester.gtc(1, B, Side.ASK, 100, 2);
            assertEquals(PlaceResult.INVALID, tester.market(2, A, Side.BID, 99, 1, TimeInForce.POST_ONLY));
            assertTrue(events.events.isEmpty());
        }
    }

    @Nested
    class Pruning
    {
        private final BookTester small = new BookTester(64, 3);

        @Test
        void aBetterLevelOnAFullSidePrunesTheWorst()
        {
            small.gtc(1, A, Side.BID, 100, 1);
            small.gtc(2, A, Side.BID, 99, 1);
            small.gtc(3, B, Side.BID, 98, 2);
            small.gtc(4, C, Side.BID, 98, 3);
            small.gtc(5, A, Side.BID, 99, 1);

            assertEquals(PlaceResult.RESTED, small.gtc(6, A, Side.BID, 101, 7));
            assertEquals(List.of(
                "D#3 PRUNED", "L BID 98=3",
                "D#4 PRUNED", "L BID 98=0",
                "R#6 left=7", "L BID 101=7"), small.listener.events);
            assertEquals("ASK [] BID [101=7[#6:7], 100=1[#1:1], 99=2[#2:1 #5:1]]", small.snapshot());
            assertEquals(4, small.book.openOrders());
        }

        @Test
        void aLevelBetweenExistingOnesAlsoPrunesTheWorst()
        {
            small.gtc(1, A, Side.ASK, 100, 1);
            small.gtc(2, A, Side.ASK, 102, 1);
            small.gtc(3, A, Side.ASK, 104, 1);
            assertEquals(PlaceResult.RESTED, small.gtc(4, B, Side.ASK, 101, 1));
            assertEquals("ASK [100=1[#1:1], 101=1[#4:1], 102=1[#2:1]] BID []", small.snapshot());
        }

        @Test
        void theNewOrderIsPrunedWhenItWouldBeTheWorst()
        {
            small.gtc(1, A, Side.ASK, 100, 1);
            small.gtc(2, A, Side.ASK, 101, 1);
            small.gtc(3, A, Side.ASK, 102, 1);
            final String before = small.snapshot();

            assertEquals(PlaceResult.PRUNED, small.gtc(4, B, Side.ASK, 103, 1));
            assertEquals(List.of("X PRUNED 0/1"), small.listener.events);
            assertEquals(PlaceResult.PRUNED, small.place(5, B, Side.ASK, 103, 1, TimeInForce.POST_ONLY, null));
            assertEquals(before, small.snapshot());

            // Joining an existing level needs no new level.
            assertEquals(PlaceResult.RESTED, small.gtc(6, B, Side.ASK, 102, 1));
        }

        @Test
        void aRemainderAfterFillsPrunesTheWorstLevelOfItsSide()
        {
            small.gtc(1, A, Side.BID, 90, 1);
            small.gtc(2, A, Side.BID, 89, 1);
            small.gtc(3, A, Side.BID, 88, 1);
            small.gtc(4, A, Side.ASK, 94, 2);
            // It crossed an ask, so its price is above every bid: a taker with fills is never the worst level.
            assertEquals(PlaceResult.RESTED, small.place(5, B, Side.BID, 94, 5, TimeInForce.GTC, null));
            assertEquals(List.of(
                "T#4 a1>a2 94x2 left=0", "D#4 FILLED", "L ASK 94=0",
                "D#3 PRUNED", "L BID 88=0",
                "R#5 left=3", "L BID 94=3"), small.listener.events);
            assertEquals("ASK [] BID [94=3[#5:3], 90=1[#1:1], 89=1[#2:1]]", small.snapshot());
        }

        @Test
        void prunedOrdersLeaveTheExpiryQueue()
        {
            small.gtcExpiring(1, A, Side.BID, 98, 1, 2_000);
            small.gtc(2, A, Side.BID, 99, 1);
            small.gtc(3, A, Side.BID, 100, 1);
            small.gtc(4, A, Side.BID, 101, 1);
            assertEquals(OrderBook.NO_EXPIRY, small.book.nextExpiry());
            assertEquals(0, small.expireUpTo(10_000));
        }
    }

    @Nested
    class Expiry
    {
        @Test
        void expireUpToRemovesByExpiryThenSequence()
        {
            tester.gtcExpiring(1, A, Side.BID, 100, 1, 3_000);
            tester.gtcExpiring(2, B, Side.ASK, 110, 1, 2_000);
            tester.gtcExpiring(3, C, Side.BID, 99, 1, 2_000);
            tester.gtc(4, C, Side.BID, 98, 1);
            tester.gtcExpiring(5, C, Side.ASK, 111, 1, 5_000);
            assertEquals(2_000, book.nextExpiry());

            assertEquals(0, tester.expireUpTo(1_999));
            assertEquals(3, tester.expireUpTo(3_000));
            assertEquals(List.of(
                "D#2 EXPIRED", "L ASK 110=0",
                "D#3 EXPIRED", "L BID 99=0",
                "D#1 EXPIRED", "L BID 100=0"), events.events);
            assertEquals(5_000, book.nextExpiry());
            assertEquals("ASK [111=1[#5:1]] BID [98=1[#4:1]]", tester.snapshot());
        }

        @Test
        void cancelledAndFilledOrdersLeaveTheExpiryQueue()
        {
            tester.gtcExpiring(1, A, Side.BID, 100, 1, 3_000);
            tester.gtcExpiring(2, A, Side.BID, 100, 1, 2_000);
            tester.gtcExpiring(3, A, Side.BID, 100, 1, 4_000);
            tester.cancel(2);
            assertEquals(3_000, book.nextExpiry());
            tester.place(4, B, Side.ASK, 100, 1, TimeInForce.IOC, null);
            assertEquals(4_000, book.nextExpiry());
            assertEquals(1, tester.expireUpTo(4_000));
            assertEquals(OrderBook.NO_EXPIRY, book.nextExpiry());
        }

        @Test
        void takersSkipAndRemoveExpiredMakers()
        {
            tester.gtcExpiring(1, B, Side.ASK, 100, 5, 1_500);
            tester.gtc(2, C, Side.ASK, 100, 5);
            tester.gtcExpiring(3, B, Side.ASK, 101, 5, 1_501);
            tester.nowMs = 1_500;
            assertEquals(PlaceResult.FILLED, tester.place(4, A, Side.BID, 101, 7, TimeInForce.GTC, null));
            assertEquals(List.of(
                "D#1 EXPIRED", "L ASK 100=5",
                "T#2 a3>a1 100x5 left=0", "D#2 FILLED", "L ASK 100=0",
                "T#3 a2>a1 101x2 left=3", "L ASK 101=3",
                "X FILLED 7/0"), events.events);
        }

        @Test
        void anOrderExpiringLaterThanNowStillTrades()
        {
            tester.gtcExpiring(1, B, Side.ASK, 100, 5, 1_001);
            assertEquals(PlaceResult.FILLED, tester.place(2, A, Side.BID, 100, 5, TimeInForce.IOC, null));
        }
    }

    @Nested
    class Capacity
    {
        private final BookTester tiny = new BookTester(2, 1000);

        @Test
        void exhaustedPoolIsAResultCodeAndTouchesNothing()
        {
            tiny.gtc(1, B, Side.ASK, 100, 5);
            tiny.gtc(2, B, Side.ASK, 101, 5);
            assertEquals(0, tiny.book.freeSlots());
            final String before = tiny.snapshot();

            // a post-only order can only rest: refused, nothing touched
            assertEquals(PlaceResult.POOL_EXHAUSTED, tiny.place(4, A, Side.BID, 90, 1, TimeInForce.POST_ONLY, null));
            assertTrue(tiny.listener.events.isEmpty());
            assertEquals(before, tiny.snapshot());

            // a GTC that would not trade ends BOOK_FULL with no fill; one that fills is not blocked
            assertEquals(PlaceResult.BOOK_FULL, tiny.gtc(3, A, Side.BID, 90, 1));
            assertEquals(before, tiny.snapshot());
            assertEquals(PlaceResult.FILLED, tiny.gtc(8, A, Side.BID, 100, 1));

            // Orders that never rest still trade.
            assertEquals(PlaceResult.FILLED, tiny.place(5, A, Side.BID, 100, 1, TimeInForce.IOC, null));
            assertEquals(PlaceResult.FILLED, tiny.market(6, A, Side.BID, 100, 1, TimeInForce.GTC));
            assertEquals(PlaceResult.FILLED, tiny.place(7, A, Side.BID, 100, 1, TimeInForce.FOK, null));
        }

        @Test
        void aLevelTotalPastTwoToTheSixtyThirdIsForeseenWithLargeAndSmallOrders()
        {
            // capacity 2: below 2^63 / 3 per order no level can overflow, and no search is needed to know it
            final long safe = Long.MAX_VALUE / 3;
            tiny.gtc(1, B, Side.ASK, 100, safe);
            assertFalse(tiny.book.levelWouldOverflow(Side.ASK, 100, safe));
            assertFalse(tiny.book.levelWouldOverflow(Side.ASK, 100, Long.MAX_VALUE - safe), "exactly 2^63 - 1 fits");
            assertTrue(tiny.book.levelWouldOverflow(Side.ASK, 100, Long.MAX_VALUE - safe + 1));
            assertFalse(tiny.book.levelWouldOverflow(Side.ASK, 101, Long.MAX_VALUE), "an empty level takes anything");
            // once a large order has rested, small ones are checked against the level too
            tiny.cancel(1);
            tiny.gtc(2, B, Side.ASK, 100, Long.MAX_VALUE - 5);
            assertFalse(tiny.book.levelWouldOverflow(Side.ASK, 100, 5));
            assertTrue(tiny.book.levelWouldOverflow(Side.ASK, 100, 6));
        }

        @Test
        void freedSlotsAreReused()
        {
            tiny.gtc(1, B, Side.ASK, 100, 5);
            tiny.gtc(2, B, Side.ASK, 101, 5);
            final int slot = tiny.slotOf(1);
            tiny.cancel(1);
            assertEquals(PlaceResult.RESTED, tiny.gtc(3, A, Side.BID, 99, 1));
            assertEquals(slot, tiny.slotOf(3));
        }
    }

    @Nested
    class Validation
    {
        @Test
        void invalidRequestsTouchNothing()
        {
            tester.gtc(1, B, Side.ASK, 100, 5);
            final String before = tester.snapshot();

            assertInvalid(tester.request(2, A, null, 100, 1, TimeInForce.GTC, null));
            assertInvalid(tester.request(2, A, Side.BID, 100, 1, null, null));
            assertInvalid(tester.request(2, -1, Side.BID, 100, 1, TimeInForce.GTC, null));
            assertInvalid(tester.request(2, A, Side.BID, 0, 1, TimeInForce.GTC, null));
            assertInvalid(tester.request(2, A, Side.BID, -5, 1, TimeInForce.GTC, null));
            assertInvalid(tester.request(2, A, Side.BID, 100, 0, TimeInForce.GTC, null));
            assertInvalid(tester.request(2, A, Side.BID, 100, -1, TimeInForce.GTC, null));
            assertInvalid(tester.request(2, A, Side.BID, 100, 1, TimeInForce.GTC, null).expiresAt(-2));
            assertInvalid(tester.request(2, A, Side.BID, 100, 1, TimeInForce.GTC, null).filledBefore(-1));
            assertInvalid(tester.request(2, A, Side.BID, 100, 1, TimeInForce.GTC, null).sequence(0));
            assertInvalid(new PlaceRequest());
            assertEquals(before, tester.snapshot());
        }

        @Test
        void sequencesMayRepeatButNotGoBack()
        {
            tester.request(1, A, Side.BID, 90, 1, TimeInForce.GTC, null).sequence(50);
            assertEquals(PlaceResult.RESTED, tester.place(tester.request));
            tester.request(2, A, Side.BID, 90, 1, TimeInForce.GTC, null).sequence(50);
            assertEquals(PlaceResult.RESTED, tester.place(tester.request));
            assertEquals(50, book.lastSequence());
        }

        private void assertInvalid(final PlaceRequest request)
        {
            assertEquals(PlaceResult.INVALID, tester.place(request));
            assertTrue(events.events.isEmpty());
        }
    }
}
