package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every time in force crossed with every STP setting, with and without an own order in the way.
 * <p>
 * The book (asks, in priority order): #1 B 100x3, #2 X 100x4, #3 B 100x3, #4 B 101x4, where X is the taker's
 * own account A or another account C. The taker A bids 101 for 12: non-own liquidity is 10, all of it 14.
 */
class TimeInForceStpTest
{
    private static final int A = 1;
    private static final int B = 2;
    private static final int C = 3;
    private static final long TAKER = 99;

    private static final String ALL_TRADED = "T#1 100x3, T#2 100x4, T#3 100x3, T#4 101x2";
    private static final String OWN_PASSED = "T#1 100x3, T#3 100x3, T#4 101x4";
    private static final String UNTOUCHED = "ASK [100=10[#1:3 #2:4 #3:3], 101=4[#4:4]] BID []";

    static Stream<Arguments> combinations()
    {
        final List<Arguments> cases = new ArrayList<>();
        final StpMode[] stpModes = {null, StpMode.CANCEL_MAKER, StpMode.CANCEL_TAKER, StpMode.REJECT,
            StpMode.SKIP_SELF};
        for (final TimeInForce tif : TimeInForce.values())
        {
            for (final StpMode stp : stpModes)
            {
                cases.add(Arguments.of(tif, stp, false, expectedWithoutOwn(tif)));
                cases.add(Arguments.of(tif, stp, true, expectedWithOwn(tif, stp)));
            }
        }
        return cases.stream();
    }

    private static Expected expectedWithoutOwn(final TimeInForce tif)
    {
        if (tif == TimeInForce.POST_ONLY)
        {
            return new Expected(PlaceResult.REJECTED_POST_ONLY, 0, "", "", UNTOUCHED);
        }
        return new Expected(PlaceResult.FILLED, 12, ALL_TRADED, "", "ASK [101=2[#4:2]] BID []");
    }

    private static Expected expectedWithOwn(final TimeInForce tif, final StpMode stp)
    {
        if (tif == TimeInForce.POST_ONLY)
        {
            return new Expected(PlaceResult.REJECTED_POST_ONLY, 0, "", "", UNTOUCHED);
        }
        if (stp == null)
        {
            return new Expected(PlaceResult.FILLED, 12, ALL_TRADED, "", "ASK [101=2[#4:2]] BID []");
        }
        if (stp == StpMode.REJECT)
        {
            return new Expected(PlaceResult.REJECTED_STP, 0, "", "", UNTOUCHED);
        }
        if (tif == TimeInForce.FOK)
        {
            // Own orders are unavailable (cancel_maker, skip_self) or end the liquidity (cancel_taker): 10 or 3 < 12.
            return new Expected(PlaceResult.KILLED_FOK, 0, "", "", UNTOUCHED);
        }
        switch (stp)
        {
            case CANCEL_MAKER:
                return tif == TimeInForce.GTC ?
                    new Expected(PlaceResult.RESTED, 10, OWN_PASSED, "#2 CANCELLED_STP", "ASK [] BID [101=2[#99:2]]") :
                    new Expected(PlaceResult.CANCELLED_IOC, 10, OWN_PASSED, "#2 CANCELLED_STP", "ASK [] BID []");
            case CANCEL_TAKER:
                return new Expected(PlaceResult.CANCELLED_STP, 3, "T#1 100x3", "",
                    "ASK [100=7[#2:4 #3:3], 101=4[#4:4]] BID []");
            case SKIP_SELF:
                // GTC: the remainder would rest at 101 across the own ask at 100, so it is cancelled.
                return new Expected(tif == TimeInForce.GTC ? PlaceResult.CANCELLED_STP : PlaceResult.CANCELLED_IOC, 10,
                    OWN_PASSED, "", "ASK [100=4[#2:4]] BID []");
            default:
                throw new IllegalStateException();
        }
    }

    @ParameterizedTest(name = "{0} stp={1} ownInTheWay={2}")
    @MethodSource("combinations")
    void timeInForceAndStp(final TimeInForce tif, final StpMode stp, final boolean ownInTheWay, final Expected expected)
    {
        final BookTester tester = new BookTester();
        tester.gtc(1, B, Side.ASK, 100, 3);
        tester.gtc(2, ownInTheWay ? A : C, Side.ASK, 100, 4);
        tester.gtc(3, B, Side.ASK, 100, 3);
        tester.gtc(4, B, Side.ASK, 101, 4);
        assertEquals(UNTOUCHED, tester.snapshot());

        final PlaceResult result = tester.place(TAKER, A, Side.BID, 101, 12, tif, stp);

        assertEquals(expected.result, result);
        final RecordingListener events = tester.listener;
        assertEquals(expected.trades, String.join(", ", stripTrades(events.trades())));
        assertEquals(expected.makersStpCancelled, String.join(", ", stpCancels(events.events)));
        assertEquals(expected.book, tester.snapshot());
        if (result == PlaceResult.RESTED)
        {
            assertEquals(12, tester.book.originalQtyOf(events.restedSlot));
            assertEquals(expected.filled, tester.book.filledOf(events.restedSlot));
        }
        else
        {
            assertEquals(expected.result.takerDoneReason(), events.takerReason);
            assertEquals(expected.filled, events.takerFilled);
            assertEquals(12 - expected.filled, events.takerRemaining);
        }
        assertFalse(tester.book.crossed());
    }

    private static List<String> stripTrades(final List<String> trades)
    {
        final List<String> result = new ArrayList<>();
        for (final String trade : trades)
        {
            // "T#1 a2>a1 100x3 left=0" -> "T#1 100x3"
            final String[] parts = trade.split(" ");
            result.add(parts[0] + " " + parts[2]);
        }
        return result;
    }

    private static List<String> stpCancels(final List<String> events)
    {
        final List<String> result = new ArrayList<>();
        for (final String event : events)
        {
            if (event.startsWith("D#") && event.endsWith("CANCELLED_STP"))
            {
                result.add(event.substring(1));
            }
        }
        return result;
    }

    static final class Expected
    {
        final PlaceResult result;
        final long filled;
        final String trades;
        final String makersStpCancelled;
        final String book;

        Expected(
            final PlaceResult result, final long filled, final String trades, final String makersStpCancelled,
            final String book)
        {
            this.result = result;
            this.filled = filled;
            this.trades = trades;
            this.makersStpCancelled = makersStpCancelled;
            this.book = book;
        }

        @Override
        public String toString()
        {
            return result + " filled=" + filled;
        }
    }
}
