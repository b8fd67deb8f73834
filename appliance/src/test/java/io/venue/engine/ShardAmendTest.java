package io.venue.engine;

import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.HaltMarket;
import io.venue.action.OrderId;
import io.venue.action.ResumeMarket;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
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
        setUp(h, dollars);
        return h;
    }

    private static void setUp(final EngineHarness venue, final long dollars)
    {
        venue.admin(new CreateAsset(USD, "USD"));
        venue.admin(new CreateAsset(BTC, "BTC"));
        venue.admin(new CreateSpotMarket(BTC_USD, BTC, USD, 1_000, 1_000, 1_000));
        venue.admin(new Deposit(ALICE, USD, dollars * UNIT));
        venue.admin(new Deposit(BOB, BTC, 100 * UNIT));
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
        return new SpotPlaceOrder(BTC_USD, null, side, price, btc * UNIT, null, TimeInForce.GTC, false, false,
            SpotPlaceOrder.NO_EXPIRY);
    }

    /**
     * Alice's bid of 10 BTC at 100 (1,000 dollars), open when a barrier starts a view, then half filled by Bob in it.
     */
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

    /**
     * Every way an amend goes, in one stream: kept with less, moved in its slot, entered again across the book (a
     * fill, then rested in another slot) and amended again, a post-only order refused on entering again (reported
     * cancelled), someone else's order, an unknown id, a price off the tick, too little credit, a halted market.
     */
    private static List<byte[]> everyWayOfAnAmend()
    {
        final EngineHarness recorder = new EngineHarness(new EngineConfig(), true);
        setUp(recorder, 2_000);
        recorder.act(ALICE, order(Side.BID, PRICE, 10));
        final OrderId bid = new OrderId(recorder.lastDigest);
        recorder.act(ALICE,
            new SpotPlaceOrder(BTC_USD, null, Side.BID, 90 * UNIT, 2 * UNIT, null, TimeInForce.POST_ONLY, false,
            false, SpotPlaceOrder.NO_EXPIRY));
        final OrderId postOnly = new OrderId(recorder.lastDigest);
        recorder.act(BOB, order(Side.ASK, 105 * UNIT, 3));
        // a barrier: in groups of many, the amends below are judged in a view where these orders were open
        recorder.admin(new Deposit(BOB, USD, UNIT));
        line(recorder.act(ALICE, new Amend(bid, PRICE, 4 * UNIT)), "OrderAmended", "\"priorityKept\":true");
        line(recorder.act(ALICE, new Amend(bid, PRICE, 10 * UNIT)), "OrderRested", "\"remaining\":10000000");
        line(recorder.act(ALICE, new Amend(postOnly, 106 * UNIT, 2 * UNIT)), "OrderDone", "\"reason\":\"CANCELLED\"");
        line(recorder.act(ALICE, new Amend(bid, 105 * UNIT, 10 * UNIT)), "Trade", "\"qty\":3000000");
        line(recorder.act(ALICE, new Amend(bid, 104 * UNIT, 7 * UNIT)), "OrderRested", "\"price\":104000000");
        assertRejected(recorder.act(BOB, new Amend(bid, 104 * UNIT, 1 * UNIT)), "UNKNOWN_ORDER");
        assertRejected(recorder.act(ALICE, new Amend(new OrderId(new byte[32]), PRICE, UNIT)), "UNKNOWN_ORDER");
        assertRejected(recorder.act(ALICE, new Amend(bid, 104 * UNIT + 1, 7 * UNIT)), "INVALID_PRICE");
        assertRejected(recorder.act(ALICE, new Amend(bid, 104 * UNIT, 30 * UNIT)), "RISK_CREDIT_LIMIT");
        recorder.admin(new HaltMarket(BTC_USD));
        assertRejected(recorder.act(ALICE, new Amend(bid, 103 * UNIT, 7 * UNIT)), "MARKET_HALTED");
        recorder.admin(new ResumeMarket(BTC_USD));
        line(recorder.act(ALICE, new Amend(bid, 103 * UNIT, 8 * UNIT)), "OrderRested", "\"price\":103000000");
        return recorder.records();
    }

    @Test
    void inGroupsOfOneEveryWayOfAnAmendDecidesAsOneShard()
    {
        final List<byte[]> records = everyWayOfAnAmend();
        final ShardPipelineTest.Run single = ShardPipelineTest.run(config(1, 1), records, 0, 0);
        final ShardPipelineTest.Run sharded = ShardPipelineTest.run(config(2, 1), records, 0, 0);
        Assertions.assertArrayEquals(single.events(), sharded.events());
        // and in one view, with drains at other points, the same events again (and every lock covered: run checks it)
        final ShardPipelineTest.Run grouped = ShardPipelineTest.run(config(2, 1_000), records, 0, 0);
        Assertions.assertArrayEquals(grouped.events(), ShardPipelineTest.run(config(2, 1_000), records, 5, 2).events());
    }

    private static EngineConfig config(final int shards, final int group)
    {
        return new EngineConfig().shards(shards).groupCommands(group).operator(EngineHarness.OPERATOR);
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
