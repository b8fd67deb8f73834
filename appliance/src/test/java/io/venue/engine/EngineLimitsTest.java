package io.venue.engine;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.CancelAll;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Merge;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.Split;
import io.venue.action.Withdraw;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.SignerMatch;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.venue.engine.EngineTest.ALICE;
import static io.venue.engine.EngineTest.BOB;
import static io.venue.engine.EngineTest.STRANGER;
import static io.venue.engine.EngineTest.assertRejected;
import static io.venue.engine.EngineTest.line;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine at its edges: supply and level totals near the long range, a full order pool, the market
 * count, refusals that must change nothing, and refused amend re-entries. Each case was a defect found in
 * review.
 */
class EngineLimitsTest
{
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long SPOT = 7;
    private static final long OUTCOME = 9;
    private static final long UNIT = 1_000_000;

    private static EngineHarness listed(final EngineConfig config)
    {
        final EngineHarness h = new EngineHarness(config, true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        h.admin(new CreateOutcomeMarket(OUTCOME, USD, 1000, 1, 1));
        return h;
    }

    private static SpotPlaceOrder order(final Side side, final long price, final long qty, final TimeInForce tif)
    {
        return new SpotPlaceOrder(SPOT, null, side, price, qty, null, tif, false, false, -1);
    }

    @Test
    void aNonceRefusalFromANewAccountNumbersNothingAndChangesNothing()
    {
        final EngineHarness h = listed(new EngineConfig());
        final byte[] before = h.engine.stateHash();
        // from version 7 an unknown account has no window: its action is refused before the nonce step
        assertRejected(h.send(new ActionPayload(STRANGER, 300, null, h.now, new CancelAll(CancelAll.ALL_MARKETS)),
            SignerMatch.ACCOUNT_RAW, STRANGER, null), "ACCOUNT_NOT_FUNDED");
        h.version = JournalRecords.UNFUNDED_REFUSED_VERSION - 1;
        assertRejected(h.send(new ActionPayload(STRANGER, 300, null, h.now, new CancelAll(CancelAll.ALL_MARKETS)),
            SignerMatch.ACCOUNT_RAW, STRANGER, null), "NONCE_OUTSIDE_WINDOW");
        h.version = JournalRecords.SCHEMA_VERSION;
        assertEquals(-1, h.engine.view().account(STRANGER.toBytes()));
        assertArrayEquals(before, h.engine.stateHash());
        final AgentCommands agents = new AgentCommands(h);
        agents.intentNonce(300);
        assertRejected(agents.create(STRANGER, 42, BOB, AgentCommands.TRADE, h.now + 1000), "NONCE_OUTSIDE_WINDOW");
        assertEquals(-1, h.engine.view().account(STRANGER.toBytes()), "a refused agent intent numbers no owner");
    }

    @Test
    void depositsKeepEverySupplyBelowTwoToTheSixtyTwo()
    {
        final EngineHarness h = listed(new EngineConfig());
        final long cap = 1L << 62;
        line(h.admin(new Deposit(ALICE, USD, cap)), "BalanceChanged");
        assertRejected(h.admin(new Deposit(BOB, USD, 1)), "INVALID_QTY");
        assertEquals(-1, h.engine.view().account(BOB.toBytes()), "a refused deposit numbers no account");
        line(h.act(ALICE, new Split(OUTCOME, cap)), "PositionChanged");
        assertRejected(h.act(ALICE, new Split(OUTCOME, 1)), "INSUFFICIENT_BALANCE");
        final EngineView view = h.engine.view();
        final int alice = view.account(ALICE.toBytes());
        assertEquals(cap, view.available(alice, view.yesAsset(OUTCOME)));
        assertEquals(cap, view.available(alice, view.noAsset(OUTCOME)));
    }

    @Test
    void splitsAndMergesKeepEverySupplyBelowTwoToTheSixtyTwoToo()
    {
        final EngineHarness h = listed(new EngineConfig());
        final long cap = 1L << 62;
        h.admin(new Deposit(ALICE, USD, cap));
        line(h.act(ALICE, new Split(OUTCOME, cap)), "PositionChanged");
        // the collateral's supply is back to zero, so a deposit fits again; the shares' supply is full
        line(h.admin(new Deposit(ALICE, USD, cap)), "BalanceChanged");
        final byte[] before = h.engine.stateHash();
        assertRejected(h.act(ALICE, new Split(OUTCOME, 1)), "INVALID_QTY");
        assertRejected(h.act(ALICE, new Merge(OUTCOME, 1)), "INVALID_QTY");
        final EngineView view = h.engine.view();
        final int alice = view.account(ALICE.toBytes());
        assertEquals(cap, view.available(alice, view.asset(USD)), "nothing was taken");
        assertEquals(cap, view.available(alice, view.yesAsset(OUTCOME)));
        assertEquals(cap, view.total(view.yesAsset(OUTCOME)));
        assertEquals(cap, view.total(view.asset(USD)));
        h.admin(new Withdraw(ALICE, USD, 1));
        line(h.act(ALICE, new Merge(OUTCOME, 1)), "PositionChanged");
    }

    @Test
    void anOrderThatCannotRestIsNotStoppedByTheOpenOrderLimits()
    {
        final EngineHarness h = listed(new EngineConfig().maxOpenOrdersPerAccountAndMarket(2));
        h.admin(new Deposit(ALICE, USD, 1_000 * UNIT));
        h.admin(new Deposit(BOB, BTC, 10 * UNIT));
        line(h.act(ALICE, order(Side.BID, UNIT, UNIT, TimeInForce.GTC)), "OrderRested");
        line(h.act(ALICE, order(Side.BID, UNIT + 100, UNIT, TimeInForce.GTC)), "OrderRested");
        line(h.act(BOB, order(Side.ASK, 2 * UNIT, UNIT, TimeInForce.GTC)), "OrderRested");
        assertRejected(h.act(ALICE, order(Side.BID, UNIT + 200, UNIT, TimeInForce.GTC)), "OPEN_ORDER_LIMIT");
        assertRejected(h.act(ALICE, order(Side.BID, 2 * UNIT, UNIT / 2, TimeInForce.POST_ONLY)), "OPEN_ORDER_LIMIT");
        line(h.act(ALICE, order(Side.BID, 2 * UNIT, UNIT / 2, TimeInForce.IOC)), "Trade");
        line(h.act(ALICE, order(Side.BID, 2 * UNIT, UNIT / 2, TimeInForce.FOK)), "Trade");
    }

    @Test
    void aTradeMovesTheWholeAmountEvenForTheLargestBalances()
    {
        final EngineHarness h = listed(new EngineConfig());
        h.admin(new Deposit(BOB, USD, (1L << 62) - 100 * UNIT));
        h.admin(new Deposit(BOB, BTC, 10 * UNIT));
        h.admin(new Deposit(ALICE, USD, 100 * UNIT));
        h.act(BOB, order(Side.ASK, UNIT, UNIT, TimeInForce.GTC));
        line(h.act(ALICE, order(Side.BID, UNIT, UNIT, TimeInForce.IOC)), "Trade");
        final EngineView view = h.engine.view();
        assertEquals((1L << 62) - 99 * UNIT, view.available(view.account(BOB.toBytes()), view.asset(USD)));
        assertEquals(1L << 62, view.total(view.asset(USD)));
    }

    @Test
    void anOrderThatWouldOverflowItsLevelIsRefused()
    {
        final EngineHarness h = listed(new EngineConfig());
        final long qty = 4_000_000_000_000_000_000L;
        for (final Address account : new Address[]{ALICE, BOB, STRANGER})
        {
            h.admin(new Deposit(account, USD, 1_000_000_000_000_000L));
        }
        line(h.act(ALICE, order(Side.BID, 100, qty, TimeInForce.GTC)), "OrderRested");
        line(h.act(BOB, order(Side.BID, 100, qty, TimeInForce.GTC)), "BookDelta", "\"levelQty\":8000000000000000000");
        assertRejected(h.act(STRANGER, order(Side.BID, 100, qty, TimeInForce.GTC)), "INVALID_QTY");
    }

    @Test
    void aFullOrderPoolDoesNotBlockAnOrderThatFills()
    {
        final EngineHarness h = listed(new EngineConfig().orderCapacityPerBook(8));
        h.admin(new Deposit(ALICE, BTC, 100 * UNIT));
        h.admin(new Deposit(BOB, USD, 1_000 * UNIT));
        for (int i = 0; i < 8; i++)
        {
            line(h.act(ALICE, order(Side.ASK, 2 * UNIT + i * 100, UNIT, TimeInForce.GTC)), "OrderRested");
        }
        assertRejected(h.act(BOB, order(Side.BID, UNIT, UNIT, TimeInForce.GTC)), "OPEN_ORDER_LIMIT");
        line(h.act(BOB, order(Side.BID, 2 * UNIT, UNIT, TimeInForce.GTC)), "Trade");
    }

    @Test
    void theMarketCountIsBoundedByConfiguration()
    {
        final EngineHarness h = new EngineHarness(new EngineConfig().maxMarkets(3), true);
        h.admin(new CreateAsset(USD, "USD"));
        for (int m = 0; m < 3; m++)
        {
            line(h.admin(new CreateOutcomeMarket(100 + m, USD, 1000, 1, 1)), "MarketCreated");
        }
        assertRejected(h.admin(new CreateOutcomeMarket(200, USD, 1000, 1, 1)), "INVALID_ACTION");
    }

    @Test
    void aRefusedReEntryReportsWhatWasOnTheBook()
    {
        final EngineHarness h = listed(new EngineConfig());
        h.admin(new Deposit(ALICE, USD, 1_000 * UNIT));
        h.admin(new Deposit(BOB, BTC, 100 * UNIT));
        h.act(BOB, order(Side.ASK, 2 * UNIT, UNIT, TimeInForce.GTC));
        h.act(ALICE, order(Side.BID, UNIT, UNIT, TimeInForce.POST_ONLY));
        final OrderId id = new OrderId(h.lastDigest);
        final List<String> amend = h.act(ALICE, new Amend(id, 2 * UNIT, 5 * UNIT));
        line(amend, "OrderDone", "\"reason\":\"CANCELLED\"", "\"remaining\":1000000");
        final EngineView view = h.engine.view();
        assertEquals(0, view.locked(view.account(ALICE.toBytes()), view.asset(USD)));
    }

    @Test
    void aLateRefusalChangesNoMoreThanAnEarlyOne()
    {
        final EngineHarness a = listed(new EngineConfig());
        final EngineHarness b = listed(new EngineConfig());
        for (final EngineHarness h : new EngineHarness[]{a, b})
        {
            h.admin(new Deposit(ALICE, USD, 1_000 * UNIT));
            h.admin(new Deposit(BOB, BTC, 100 * UNIT));
            h.act(BOB, order(Side.ASK, 2 * UNIT, UNIT, TimeInForce.GTC));
        }
        assertRejected(a.act(ALICE, order(Side.BID, 2 * UNIT, UNIT, TimeInForce.POST_ONLY)), "POST_ONLY_WOULD_CROSS");
        assertRejected(b.act(ALICE, order(Side.BID, 2 * UNIT + 50, UNIT, TimeInForce.POST_ONLY)), "INVALID_PRICE");
        assertArrayEquals(b.engine.stateHash(), a.engine.stateHash(), "both refusals only used the nonce");
        assertTrue(a.engine.openOrders() == 1);
    }
}
