package io.venue.engine;

import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static io.venue.engine.EngineTest.ALICE;
import static io.venue.engine.EngineTest.BOB;
import static io.venue.engine.EngineTest.assertRejected;
import static io.venue.engine.EngineTest.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spec 8.6 with two matching shards: each reason refuses with its own code, in its order (kill switch, plain credit,
 * haircut, account cap, market cap), on the pipeline's places and amends and on a barrier's batch legs; with one
 * shard the same policy admits everything.
 */
class CrossShardCreditTest
{
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long ETH = 3;
    private static final long BTC_USD = 7;
    private static final long ETH_USD = 8;
    private static final long UNIT = 1_000_000;
    /** Price 1.0, so a bid of qty locks qty dollars. */
    private static final long PRICE = UNIT;

    private EngineHarness h;

    private EngineHarness venue(final int shards, final long haircutPpm, final long accountCap, final long marketCap,
        final boolean kill)
    {
        h = new EngineHarness(
            new EngineConfig().shards(shards).crossShardCredit(haircutPpm, accountCap, marketCap, kill), true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateAsset(ETH, "ETH"));
        h.admin(new CreateSpotMarket(BTC_USD, BTC, USD, 1_000, 1_000, 1_000));
        h.admin(new CreateSpotMarket(ETH_USD, ETH, USD, 1_000, 1_000, 1_000));
        for (final Address account : new Address[]{ALICE, BOB})
        {
            h.admin(new Deposit(account, USD, 1_000 * UNIT));
        }
        return h;
    }

    @AfterEach
    void close()
    {
        if (h != null)
        {
            h.engine.close();
        }
    }

    @Property(tries = 500)
    void theHaircutIsRoundedUpExactly(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) final long available,
        @ForAll @LongRange(min = 0, max = 1_000_000) final long ppm)
    {
        final BigInteger[] division = BigInteger.valueOf(available).multiply(BigInteger.valueOf(ppm))
            .divideAndRemainder(BigInteger.valueOf(1_000_000));
        final long expected = division[0].longValueExact() + (division[1].signum() == 0 ? 0 : 1);
        assertEquals(expected, CrossShardCredit.haircut(available, ppm));
    }

    private static SpotPlaceOrder bid(final long market, final long dollars)
    {
        return new SpotPlaceOrder(market, null, Side.BID, PRICE, dollars * UNIT, null, TimeInForce.GTC, false, false,
            SpotPlaceOrder.NO_EXPIRY);
    }

    private static void accepted(final List<String> lines)
    {
        line(lines, "ActionAccepted");
    }

    @Test
    void theHaircutKeepsPartOfTheAvailableCreditOutOfReach()
    {
        venue(2, 100_000, Long.MAX_VALUE, Long.MAX_VALUE, false);
        assertRejected(h.act(ALICE, bid(BTC_USD, 901)), "CROSS_SHARD_CREDIT_HAIRCUT");
        assertRejected(h.act(ALICE, bid(BTC_USD, 1_001)), "RISK_CREDIT_LIMIT");
        accepted(h.act(ALICE, bid(BTC_USD, 900)));
        // 100 left, of which 10% is the haircut
        assertRejected(h.act(ALICE, bid(ETH_USD, 91)), "CROSS_SHARD_CREDIT_HAIRCUT");
        accepted(h.act(ALICE, bid(ETH_USD, 90)));
    }

    @Test
    void theAccountCapBoundsWhatOneAccountLocksOfAnAsset()
    {
        venue(2, 0, 500 * UNIT, Long.MAX_VALUE, false);
        accepted(h.act(ALICE, bid(BTC_USD, 400)));
        assertRejected(h.act(ALICE, bid(ETH_USD, 101)), "CROSS_SHARD_CREDIT_ACCOUNT_CAP");
        accepted(h.act(ALICE, bid(ETH_USD, 100)));
        accepted(h.act(BOB, bid(ETH_USD, 500)));
    }

    @Test
    void theMarketCapBoundsWhatOneMarketsOrdersHold()
    {
        venue(2, 0, Long.MAX_VALUE, 700 * UNIT, false);
        accepted(h.act(ALICE, bid(BTC_USD, 600)));
        assertRejected(h.act(BOB, bid(BTC_USD, 101)), "CROSS_SHARD_CREDIT_MARKET_CAP");
        accepted(h.act(BOB, bid(BTC_USD, 100)));
        accepted(h.act(BOB, bid(ETH_USD, 700)));
    }

    @Test
    void theKillSwitchRefusesEveryNewReservationOnEveryPath()
    {
        venue(2, 0, Long.MAX_VALUE, Long.MAX_VALUE, true);
        assertRejected(h.act(ALICE, bid(BTC_USD, 1)), "CROSS_SHARD_CREDIT_KILL_SWITCH");
        assertRejected(h.act(ALICE, bid(BTC_USD, 5_000)), "CROSS_SHARD_CREDIT_KILL_SWITCH");
        final List<String> batch = h.act(ALICE, new Batch(List.of(bid(ETH_USD, 1))));
        line(batch, "ActionRejected", "\"code\":\"CROSS_SHARD_CREDIT_KILL_SWITCH\"", "\"legIndex\":0");
    }

    @Test
    void atABarrierTheReasonsComeInTheSameOrder()
    {
        // a batch is a barrier: its place legs meet the haircut and the market cap as pipelined places do
        venue(2, 100_000, Long.MAX_VALUE, 700 * UNIT, false);
        final List<String> legs = h.act(ALICE,
            new Batch(List.of(bid(BTC_USD, 901), bid(BTC_USD, 1_001), bid(BTC_USD, 600))));
        line(legs, "ActionRejected", "\"code\":\"CROSS_SHARD_CREDIT_HAIRCUT\"", "\"legIndex\":0");
        line(legs, "ActionRejected", "\"code\":\"RISK_CREDIT_LIMIT\"", "\"legIndex\":1");
        final List<String> bob = h.act(BOB, new Batch(List.of(bid(BTC_USD, 101))));
        line(bob, "ActionRejected", "\"code\":\"CROSS_SHARD_CREDIT_MARKET_CAP\"", "\"legIndex\":0");
        // an amend's increase, on the pipeline (Alice has 400 available, 360 after the haircut): the plain check, then
        // the haircut
        final OrderId order = orderOf(legs);
        assertRejected(h.act(ALICE, new Amend(order, PRICE, 1_001 * UNIT)), "RISK_CREDIT_LIMIT");
        assertRejected(h.act(ALICE, new Amend(order, PRICE, 961 * UNIT)), "CROSS_SHARD_CREDIT_HAIRCUT");
        assertRejected(h.act(ALICE, new Amend(order, PRICE, 701 * UNIT)), "CROSS_SHARD_CREDIT_MARKET_CAP");
        accepted(h.act(ALICE, new Amend(order, PRICE, 700 * UNIT)));
    }

    private static OrderId orderOf(final List<String> lines)
    {
        final String rested = line(lines, "OrderRested");
        final int at = rested.indexOf("\"orderId\":\"") + 11;
        return OrderId.of(rested.substring(at, at + 66));
    }

    @Test
    void anAmendThatLocksMoreIsAdmittedForWhatItAdds()
    {
        venue(2, 0, 500 * UNIT, Long.MAX_VALUE, false);
        accepted(h.act(ALICE, bid(BTC_USD, 400)));
        final OrderId order = new OrderId(h.lastDigest);
        assertRejected(h.act(ALICE, new Amend(order, PRICE, 501 * UNIT)), "CROSS_SHARD_CREDIT_ACCOUNT_CAP");
        accepted(h.act(ALICE, new Amend(order, PRICE, 500 * UNIT)));
        final EngineView view = h.engine.view();
        assertEquals(500 * UNIT, view.locked(view.account(ALICE.toBytes()), view.asset(USD)));
    }

    @Test
    void withOneShardThePolicyAdmitsEverything()
    {
        venue(1, 500_000, UNIT, UNIT, true);
        accepted(h.act(ALICE, bid(BTC_USD, 1_000)));
        assertTrue(h.engine.view().openOrders(h.engine.view().account(ALICE.toBytes())) == 1);
    }
}
