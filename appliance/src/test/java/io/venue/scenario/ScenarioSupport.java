package io.venue.scenario;

import io.venue.action.Book;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.journal.sbe.RejectCode;
import org.junit.jupiter.api.Assumptions;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the scenario classes share: lane clients per venue, fresh traders, orders, and the assertions on results. */
abstract class ScenarioSupport
{
    static final long UNIT = Venue.UNIT;
    /** 50,000 USDC a BTC. */
    static final long PRICE = 50_000 * UNIT;
    static final long TICK = Venue.SPOT_TICK;
    static final long LOT = Venue.SPOT_LOT;

    private final Map<String, LaneClient> clients = new ConcurrentHashMap<>();

    /** The lane's client of {@code venue}, made once. */
    LaneClient connect(final Lanes.Lane lane, final Venue venue)
    {
        return clients.computeIfAbsent(lane.name() + "@" + System.identityHashCode(venue),
            key -> lane.connect().apply(venue));
    }

    /** A fresh funded trader, ready to send on the lane. */
    static Trader trader(final LaneClient lane, final Venue venue) throws Exception
    {
        final Trader trader = venue.newTrader();
        lane.enrol(trader);
        return trader;
    }

    /** Skips the rest of the test on a lane that lacks a capability, with the lane's reason. */
    static void requires(final LaneClient lane, final Capability... capabilities)
    {
        for (final Capability capability : capabilities)
        {
            Assumptions.assumeTrue(lane.can(capability),
                () -> "the " + lane.name() + " lane cannot: " + capability + ": " + lane.lacks(capability));
        }
    }

    static SpotPlaceOrder order(final long market, final Side side, final long price, final long lots,
        final TimeInForce tif)
    {
        return new SpotPlaceOrder(market, null, side, price, lots * LOT, null, tif, false, false, -1);
    }

    static SpotPlaceOrder bid(final long market, final long price, final long lots)
    {
        return order(market, Side.BID, price, lots, TimeInForce.GTC);
    }

    static SpotPlaceOrder ask(final long market, final long price, final long lots)
    {
        return order(market, Side.ASK, price, lots, TimeInForce.GTC);
    }

    static SpotPlaceOrder withStp(final SpotPlaceOrder order, final StpMode stp)
    {
        return new SpotPlaceOrder(order.market(), order.book(), order.side(), order.price(), order.qty(), stp,
            order.timeInForce(), order.isMarket(), order.reduceOnly(), order.expiresAt());
    }

    /** An order on an outcome market's book: {@code cents} hundredths of a unit a share, whole shares. */
    static SpotPlaceOrder outcome(final long market, final Book book, final Side side, final long cents,
        final long shares)
    {
        return new SpotPlaceOrder(market, book, side, cents * 10_000, shares * UNIT, null, TimeInForce.GTC, false,
            false, -1);
    }

    static Result accepted(final Result result)
    {
        assertEquals(200, result.status(), result::toString);
        assertTrue(result.accepted(), result::toString);
        return result;
    }

    static void refused(final Refusal expected, final Result result)
    {
        assertFalse(result.accepted(), () -> "expected " + expected + ", accepted: " + result);
        assertEquals(expected.status(), result.status(), () -> "status, expected " + expected + ": " + result);
        assertEquals(expected.code(), result.code(), () -> "code, expected " + expected + ": " + result);
        if (expected.code() == null)
        {
            assertTrue(result.body().startsWith("Too Many Requests!"), result::toString);
        }
    }

    /**
     * Refused with {@code code}, answered as the lane answers it: when that is the documented answer, the engine
     * decided it, so the answer names the journaled command's sequence and the action's digest.
     */
    static void refused(final LaneClient lane, final RejectCode code, final Result result)
    {
        final Refusal refusal = lane.refusal(code);
        refused(refusal, result);
        if (refusal.equals(Docs.documentedRefusal(code)))
        {
            assertTrue(result.sequence() > 0, () -> "the engine's refusal names its command's sequence: " + result);
            assertTrue(result.digest() != null && result.digest().startsWith("0x"),
                () -> "and the action's digest: " + result);
        }
    }
}
