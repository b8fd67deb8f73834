package io.venue.engine;

import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.venue.engine.EngineTest.ALICE;
import static io.venue.engine.EngineTest.BOB;
import static io.venue.engine.EngineTest.assertRejected;
import static io.venue.engine.EngineTest.line;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Amends on a pipeline's matching shard. Admission judges an amend's credit on its order as it was when the view
 * began; the rule for an order the shard filled in part since (it may add no more than admission held) keeps every
 * lock covered, and an amend of an order the group itself placed waits for it as a barrier.
 */
class ShardAmendTest
{
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long BTC_USD = 7;
    private static final long UNIT = 1_000_000;
    private static final long PRICE = 100 * UNIT;

    private EngineHarness h;

    /** Alice holds {@code dollars}, Bob 100 BTC; groups of {@code group} commands on two shards. */
    private EngineHarness venue(final int group, final long dollars)
    {
        h = new EngineHarness(new EngineConfig().shards(2).groupCommands(group), true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(BTC_USD, BTC, USD, 1_000, 1_000, 1_000));
        h.admin(new Deposit(ALICE, USD, dollars * UNIT));
        h.admin(new Deposit(BOB, BTC, 100 * UNIT));
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

    private static SpotPlaceOrder order(final Side side, final long price, final long btc)
    {
        return new SpotPlaceOrder(BTC_USD, null, side, price, btc * UNIT, null, TimeInForce.GTC, false, false, SpotPlaceOrder.NO_EXPIRY);
    }

    /** Alice's bid of 10 BTC at 100 (1,000 dollars), open when a barrier starts a view, then half filled by Bob in it. */
    private OrderId halfFilledBid()
    {
        h.act(ALICE, order(Side.BID, PRICE, 10));
        final OrderId bid = new OrderId(h.lastDigest);
        h.admin(new Deposit(BOB, USD, UNIT));
        line(h.act(BOB, order(Side.ASK, PRICE, 5)), "Trade");
        return bid;
    }

    private long locked(final Address account)
    {
        final EngineView view = h.engine.view();
        return view.locked(view.account(account.toBytes()), view.asset(USD));
    }

    @Test
    void anOrderFilledInPartInTheViewMayGrowOnlyByWhatAdmissionHeld()
    {
        venue(1_000, 2_000);
        final OrderId bid = halfFilledBid();
        // admission saw 1,000 reserved and asked for 990: nothing held; what is left of the order holds 500
        assertRejected(h.act(ALICE, new Amend(bid, 99 * UNIT, 10 * UNIT)), "RISK_CREDIT_LIMIT");
        line(h.act(ALICE, new Amend(bid, 99 * UNIT, 5 * UNIT)), "OrderRested", "\"price\":99000000");
        assertEquals(495 * UNIT, locked(ALICE));
        // the next view starts from the state as it is: the larger amend now passes
        h.admin(new Deposit(BOB, USD, UNIT));
        line(h.act(ALICE, new Amend(bid, 98 * UNIT, 10 * UNIT)), "OrderRested", "\"price\":98000000");
        assertEquals(980 * UNIT, locked(ALICE));
    }

    @Test
    void inGroupsOfOneTheAmendReadsTheOrderAsItIs()
    {
        venue(1, 2_000);
        final OrderId bid = halfFilledBid();
        line(h.act(ALICE, new Amend(bid, 99 * UNIT, 10 * UNIT)), "OrderRested", "\"price\":99000000");
        assertEquals(990 * UNIT, locked(ALICE));
    }

    @Test
    void anAmendNeverLocksMoreThanTheAccountHas()
    {
        // all of Alice's dollars are in the bid: the half left holds 500, and 505 is more than she has
        venue(1_000, 1_000);
        final OrderId bid = halfFilledBid();
        assertRejected(h.act(ALICE, new Amend(bid, 101 * UNIT, 5 * UNIT)), "RISK_CREDIT_LIMIT");
        line(h.act(ALICE, new Amend(bid, 100 * UNIT, 4 * UNIT)), "OrderAmended", "\"priorityKept\":true");
        assertEquals(400 * UNIT, locked(ALICE));
    }

    @Test
    void anAmendOfAnOrderPlacedInTheSameGroupIsABarrier()
    {
        venue(1_000, 2_000);
        line(h.act(BOB, order(Side.ASK, 101 * UNIT, 3)), "OrderRested");
        h.act(ALICE, order(Side.BID, PRICE, 10));
        final OrderId bid = new OrderId(h.lastDigest);
        // no view knows the bid's reservation until it has settled: the amend drains and reads the live state
        final List<String> lines = h.act(ALICE, new Amend(bid, 101 * UNIT, 10 * UNIT));
        line(lines, "Trade", "\"qty\":3000000");
        line(lines, "OrderRested", "\"price\":101000000");
        assertEquals(707 * UNIT, locked(ALICE));
    }
}
