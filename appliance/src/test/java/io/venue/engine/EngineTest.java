package io.venue.engine;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.HaltMarket;
import io.venue.action.KillScope;
import io.venue.action.Merge;
import io.venue.action.OrderId;
import io.venue.action.ResumeMarket;
import io.venue.action.SetKillSwitch;
import io.venue.action.SetVaultOwner;
import io.venue.action.Side;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.Withdraw;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine driven by journal commands, one behaviour per test: the gate (signer, nonce window, rate,
 * kill switches, halts), credit, every action kind, and the events each produces.
 */
class EngineTest
{
    static final Address ALICE = Address.of("0x" + "a1".repeat(20));
    static final Address BOB = Address.of("0x" + "b0".repeat(20));
    static final Address STRANGER = Address.of("0x" + "5c".repeat(20));
    static final long USD = 1;
    static final long BTC = 2;
    static final long SPOT = 7;
    static final long OUTCOME = 9;
    static final long UNIT = 1_000_000;

    private EngineHarness h;

    @BeforeEach
    void listMarketsAndFund()
    {
        h = new EngineHarness(new EngineConfig().maxLevelsPerSide(3), true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        h.admin(new CreateOutcomeMarket(OUTCOME, USD, 1000, 1000, 1000));
        for (final Address account : new Address[]{ALICE, BOB})
        {
            h.admin(new Deposit(account, USD, 1_000_000 * UNIT));
            h.admin(new Deposit(account, BTC, 100 * UNIT));
        }
    }

    static SpotPlaceOrder order(final Side side, final long price, final long qty, final TimeInForce tif,
        final StpMode stp)
    {
        return new SpotPlaceOrder(SPOT, null, side, price, qty, stp, tif, false, false, SpotPlaceOrder.NO_EXPIRY);
    }

    static SpotPlaceOrder bid(final long price, final long qty)
    {
        return order(Side.BID, price, qty, TimeInForce.GTC, null);
    }

    static SpotPlaceOrder ask(final long price, final long qty)
    {
        return order(Side.ASK, price, qty, TimeInForce.GTC, null);
    }

    static String line(final List<String> lines, final String type, final String... fragments)
    {
        for (final String line : lines)
        {
            boolean all = line.contains("\"type\":\"" + type + "\"");
            for (final String fragment : fragments)
            {
                all &= line.contains(fragment);
            }
            if (all)
            {
                return line;
            }
        }
        throw new AssertionError("no " + type + " with " + List.of(fragments) + " in\n" + String.join("\n", lines));
    }

    static void assertRejected(final List<String> lines, final String code)
    {
        line(lines, "ActionRejected", "\"code\":\"" + code + "\"");
        assertFalse(lines.stream().anyMatch(l -> l.contains("\"type\":\"ActionAccepted\"")),
            () -> String.join("\n", lines));
    }

    private long available(final Address account, final long asset)
    {
        final EngineView view = h.engine.view();
        return view.available(view.account(account.toBytes()), view.asset(asset));
    }

    private long locked(final Address account, final long asset)
    {
        final EngineView view = h.engine.view();
        return view.locked(view.account(account.toBytes()), view.asset(asset));
    }

    @Test
    void aBidRestsAndLocksItsQuoteRoundedAgainstTheAccount()
    {
        final List<String> events = h.act(ALICE, bid(1_500_100, 1_001_000));
        line(events, "ActionAccepted");
        line(events, "OrderRested", "\"remaining\":1001000");
        line(events, "BookDelta", "\"side\":\"BID\"", "\"levelQty\":1001000", "\"orderCount\":1");
        // 1.5001 × 1.001 = 1.5016001 → 1501601 micro-USD after rounding up
        assertEquals(1_501_601, locked(ALICE, USD));
        assertEquals(1_000_000 * UNIT - 1_501_601, available(ALICE, USD));
    }

    @Test
    void aCrossingAskTradesAtTheMakersPriceAndSettlesBothSides()
    {
        h.act(ALICE, bid(2 * UNIT, 3 * UNIT));
        final List<String> events = h.act(BOB, order(Side.ASK, UNIT, 2 * UNIT, TimeInForce.IOC, null));
        line(events, "Trade", "\"price\":2000000", "\"qty\":2000000", "\"takerSide\":\"ASK\"",
            "\"makerRemaining\":1000000");
        line(events, "OrderDone", "\"reason\":\"FILLED\"");
        assertEquals(102 * UNIT, available(ALICE, BTC));
        assertEquals(2 * UNIT, locked(ALICE, USD), "the rest of the bid keeps its reservation");
        assertEquals(1_000_004 * UNIT, available(BOB, USD));
        assertEquals(98 * UNIT, available(BOB, BTC));
        assertEquals(0, locked(BOB, BTC));
    }

    @Test
    void nonceWindowRowsOfSpec31()
    {
        final ActionPayload first = new ActionPayload(ALICE, 5, null, h.now, new CancelAll(CancelAll.ALL_MARKETS));
        line(h.send(first, SignerMatch.ACCOUNT_RAW, ALICE, null), "ActionAccepted");
        assertRejected(h.send(first, SignerMatch.ACCOUNT_RAW, ALICE, null), "NONCE_REPLAYED");
        final List<String> outside = h.send(
            new ActionPayload(ALICE, 256, null, h.now, new CancelAll(CancelAll.ALL_MARKETS)),
            SignerMatch.ACCOUNT_RAW, ALICE, null);
        line(outside, "ActionRejected", "\"code\":\"NONCE_OUTSIDE_WINDOW\"", "\"nonceFloor\":0", "\"nonceWindow\":256",
            "\"nextUsableNonce\":6");
        for (long n = 0; n < 5; n++)
        {
            h.send(new ActionPayload(ALICE, n, null, h.now, new CancelAll(CancelAll.ALL_MARKETS)),
                SignerMatch.ACCOUNT_RAW, ALICE, null);
        }
        final List<String> below = h.send(
            new ActionPayload(ALICE, 3, null, h.now, new CancelAll(CancelAll.ALL_MARKETS)),
            SignerMatch.ACCOUNT_RAW, ALICE, null);
        line(below, "ActionRejected", "\"code\":\"NONCE_BELOW_FLOOR\"", "\"nonceFloor\":6");
    }

    @Test
    void ordersOfLimitClassMmAreNotCountedByThePerAccountLimiter()
    {
        // the MM windows were charged before the journal: places and cancels of limit class MM pass the trading
        // route's limit
        for (int i = 0; i < 60; i++)
        {
            final List<String> placed = h.actInMmLimitClass(ALICE, bid(UNIT, UNIT));
            line(placed, "ActionAccepted");
            line(h.actInMmLimitClass(ALICE, new Cancel(new OrderId(h.lastDigest))), "ActionAccepted");
        }
        // and do not use the trading route's budget up either
        line(h.act(ALICE, new CancelAll(CancelAll.ALL_MARKETS)), "ActionAccepted", "\"rateRemaining\":49,");
    }

    @Test
    void anUndefinedLimitClassOrAnOrderCommandOfVersion3IsNotRead()
    {
        final ActionCommandEncoder encoder = new ActionCommandEncoder();
        final ExpandableArrayBuffer record = new ExpandableArrayBuffer(512);
        final int limitClassAt = MessageHeaderEncoder.ENCODED_LENGTH +
            PlaceOrderEncoder.limitClassEncodingOffset();

        final int mm = encoder.encode(h.nextSequence(), h.now, 1, new ActionPayload(ALICE, h.nonce(ALICE), null, h.now,
            bid(UNIT, UNIT)), new byte[32], SignerMatch.ACCOUNT_RAW, ALICE.toBytes(), new byte[20], null, true,
            record, 0);
        record.putByte(limitClassAt, (byte)2);
        final long accepted = h.engine.lastSequence();
        Assertions.assertFalse(h.engine.onCommand(record, 0, mm), "an undefined limit class is not read");
        Assertions.assertEquals(accepted, h.engine.lastSequence(), "and changes nothing");

        // a version 3 order command, one byte shorter, is not read either
        final int length = encoder.encode(h.nextSequence(), h.now, 1,
            new ActionPayload(ALICE, h.nonce(ALICE), null, h.now,
            bid(UNIT, UNIT)), new byte[32], SignerMatch.ACCOUNT_RAW, ALICE.toBytes(), new byte[20], null, false,
            record, 0);
        new MessageHeaderEncoder().wrap(record, 0).version(3)
            .blockLength(PlaceOrderEncoder.BLOCK_LENGTH - 1);
        Assertions.assertFalse(h.engine.onCommand(record, 0, length - 1));
        // the same command as this version writes it is
        encoder.encode(h.lastSequence(), h.now, 1,
            new ActionPayload(ALICE, h.nonce(ALICE), null, h.now, bid(UNIT, UNIT)),
            new byte[32], SignerMatch.ACCOUNT_RAW, ALICE.toBytes(), new byte[20], null, false, record, 0);
        line(h.apply(record, length), "ActionAccepted");
    }

    @Test
    void theActionRateIsFiftyPerSecondOfStampedTimeAndARefusalKeepsTheNonce()
    {
        for (int i = 0; i < 50; i++)
        {
            // each answer reports the account's limiter after the action: what is left and when it is full again
            line(h.act(ALICE, new CancelAll(CancelAll.ALL_MARKETS)), "ActionAccepted",
                "\"rateRemaining\":" + (49 - i) + ",", "\"rateResetMs\":" + (20 * (i + 1)) + ",");
        }
        final long nonce = h.nonce(ALICE);
        line(h.act(ALICE, new CancelAll(CancelAll.ALL_MARKETS)), "ActionRejected", "\"code\":\"RATE_LIMITED\"",
            "\"rateRemaining\":0,", "\"rateResetMs\":1000}");
        h.now += 20;
        final List<String> again = h.send(
            new ActionPayload(ALICE, nonce, null, h.now, new CancelAll(CancelAll.ALL_MARKETS)),
            SignerMatch.ACCOUNT_RAW, ALICE, null);
        line(again, "ActionAccepted", "\"nonce\":" + nonce);
    }

    @Test
    void notEnoughCreditIsRefusedAndChangesNothing()
    {
        final byte[] before = h.engine.stateHash();
        assertRejected(h.act(ALICE, bid(UNIT, 2_000_000 * UNIT)), "RISK_CREDIT_LIMIT");
        assertRejected(h.act(ALICE, ask(UNIT, 101 * UNIT)), "RISK_CREDIT_LIMIT");
        assertEquals(0, locked(ALICE, USD));
        assertFalse(Arrays.equals(before, h.engine.stateHash()), "only the nonces moved");
    }

    @Test
    void marketRulesAreEnforced()
    {
        assertRejected(h.act(ALICE, bid(150, UNIT)), "INVALID_PRICE");
        assertRejected(h.act(ALICE, bid(UNIT, 1500)), "INVALID_QTY");
        assertRejected(h.act(ALICE, bid(UNIT, 0)), "INVALID_QTY");
        assertRejected(
            h.act(ALICE, new SpotPlaceOrder(99, null, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, -1)),
            "UNKNOWN_MARKET");
        assertRejected(
            h.act(ALICE,
                new SpotPlaceOrder(SPOT, Book.YES, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, -1)),
            "BOOK_MISMATCH");
        assertRejected(
            h.act(ALICE,
                new SpotPlaceOrder(OUTCOME, null, Side.BID, 500_000, UNIT, null, TimeInForce.GTC, false, false, -1)),
            "BOOK_MISMATCH");
        assertRejected(
            h.act(ALICE,
                new SpotPlaceOrder(OUTCOME, Book.NO, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, -1)),
            "INVALID_PRICE");
        assertRejected(
            h.act(ALICE,
                new SpotPlaceOrder(SPOT, null, Side.BID, UNIT, UNIT, null, TimeInForce.POST_ONLY, true, false, -1)),
            "INVALID_ACTION");
    }

    @Test
    void postOnlyThatWouldCrossIsRejectedWithItsReservationUndone()
    {
        h.act(BOB, ask(2 * UNIT, UNIT));
        assertRejected(h.act(ALICE, order(Side.BID, 2 * UNIT, UNIT, TimeInForce.POST_ONLY, null)),
            "POST_ONLY_WOULD_CROSS");
        assertEquals(0, locked(ALICE, USD));
        line(h.act(ALICE, order(Side.BID, 19 * UNIT / 10, UNIT, TimeInForce.POST_ONLY, null)), "OrderRested");
    }

    @Test
    void stpRejectAndFokKill()
    {
        h.act(ALICE, ask(2 * UNIT, UNIT));
        assertRejected(h.act(ALICE, order(Side.BID, 2 * UNIT, UNIT, TimeInForce.GTC, StpMode.REJECT)), "STP_REJECTED");
        final List<String> fok = h.act(BOB, order(Side.BID, 2 * UNIT, 2 * UNIT, TimeInForce.FOK, null));
        assertRejected(fok, "FOK_NOT_FILLED");
        assertFalse(fok.stream().anyMatch(l -> l.contains("\"type\":\"Trade\"")));
        assertEquals(0, locked(BOB, USD));
        final List<String> cancelMaker = h.act(ALICE,
            order(Side.BID, 2 * UNIT, UNIT, TimeInForce.GTC, StpMode.CANCEL_MAKER));
        line(cancelMaker, "OrderDone", "\"reason\":\"CANCELLED_STP\"");
        line(cancelMaker, "OrderRested");
    }

    @Test
    void cancelReleasesTheReservationAndOnlyTheOwnerMayCancel()
    {
        h.act(ALICE, bid(UNIT, UNIT));
        final OrderId id = new OrderId(h.lastDigest);
        assertRejected(h.act(BOB, new Cancel(id)), "UNKNOWN_ORDER");
        final List<String> events = h.act(ALICE, new Cancel(id));
        line(events, "OrderDone", "\"reason\":\"CANCELLED\"");
        line(events, "BookDelta", "\"levelQty\":0", "\"orderCount\":0");
        assertEquals(0, locked(ALICE, USD));
        assertRejected(h.act(ALICE, new Cancel(id)), "UNKNOWN_ORDER");
    }

    @Test
    void amendDownKeepsPriorityAndAPriceChangeLosesIt()
    {
        h.act(ALICE, bid(UNIT, 4 * UNIT));
        final OrderId first = new OrderId(h.lastDigest);
        h.act(BOB, bid(UNIT, UNIT));
        final List<String> down = h.act(ALICE, new Amend(first, UNIT, 2 * UNIT));
        line(down, "OrderAmended", "\"priorityKept\":true", "\"remaining\":2000000");
        assertEquals(2 * UNIT, locked(ALICE, USD));
        final List<String> moved = h.act(ALICE, new Amend(first, 11 * UNIT / 10, 2 * UNIT));
        line(moved, "OrderRested", "\"price\":1100000");
        assertEquals(2_200_000, locked(ALICE, USD));
        // a seller now meets Alice first: her amended bid is the best price
        line(h.act(BOB, order(Side.ASK, UNIT, UNIT, TimeInForce.IOC, null)), "Trade", "\"price\":1100000");
    }

    @Test
    void anOrderMovedToAPriceWhereItRestsKeepsItsClientIdExpiryAndCredit()
    {
        final ClientOrderId cloid = ClientOrderId.of("0x0f0e0d0c0b0a09080706050403020100");
        h.act(ALICE, cloid,
            new SpotPlaceOrder(SPOT, null, Side.BID, UNIT, 2 * UNIT, null, TimeInForce.GTC, false, false,
                h.now + 1_000));
        final OrderId id = new OrderId(h.lastDigest);
        h.act(BOB, ask(2 * UNIT, UNIT));
        final List<String> moved = h.act(ALICE, new Amend(id, 9 * UNIT / 10, 3 * UNIT));
        assertEquals(
            List.of("ActionAccepted", "BookDelta", "OrderAccepted", "BalanceChanged", "OrderRested", "BookDelta"),
            moved.stream().map(l -> l.replaceAll(".*\"type\":\"([A-Za-z]+)\".*", "$1")).toList());
        line(moved, "BookDelta", "\"price\":1000000", "\"levelQty\":0");
        line(moved, "OrderRested", "\"price\":900000", "\"remaining\":3000000");
        assertEquals(2_700_000, locked(ALICE, USD));
        h.now += 999;
        line(h.act(ALICE, new CancelByClientOrderId(cloid)), "OrderDone", "\"reason\":\"CANCELLED\"");
        assertEquals(0, locked(ALICE, USD));

        h.act(ALICE,
            new SpotPlaceOrder(SPOT, null, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, h.now + 10));
        final OrderId expiring = new OrderId(h.lastDigest);
        line(h.act(ALICE, new Amend(expiring, 11 * UNIT / 10, UNIT)), "OrderRested", "\"price\":1100000");
        h.now += 10;
        line(h.act(BOB, new CancelAll(CancelAll.ALL_MARKETS)), "OrderDone", "\"reason\":\"EXPIRED\"",
            "\"account\":\"" + ALICE + "\"");
        assertEquals(0, locked(ALICE, USD));
    }

    @Test
    void anAmendToAPriceTheOtherSideReachesTrades()
    {
        h.act(ALICE, bid(UNIT, UNIT));
        final OrderId id = new OrderId(h.lastDigest);
        h.act(BOB, ask(2 * UNIT, UNIT));
        final List<String> crossed = h.act(ALICE, new Amend(id, 2 * UNIT, UNIT));
        line(crossed, "Trade", "\"price\":2000000");
        line(crossed, "OrderDone", "\"reason\":\"FILLED\"");
        assertEquals(0, h.engine.openOrders());
    }

    @Test
    void clientOrderIdsCancelAndMayNotRepeatWhileOpen()
    {
        final ClientOrderId cloid = ClientOrderId.of("0x000102030405060708090a0b0c0d0e0f");
        line(h.act(ALICE, cloid, bid(UNIT, UNIT)), "OrderRested");
        assertRejected(h.act(ALICE, cloid, bid(UNIT, UNIT)), "INVALID_ACTION");
        line(h.act(BOB, cloid, bid(UNIT, UNIT)), "OrderRested");
        line(h.act(ALICE, new CancelByClientOrderId(cloid)), "OrderDone", "\"reason\":\"CANCELLED\"");
        assertRejected(h.act(ALICE, new CancelByClientOrderId(cloid)), "UNKNOWN_ORDER");
    }

    @Test
    void batchLegsAreAppliedInOrderWithAResultPerLeg()
    {
        h.act(ALICE, bid(UNIT, UNIT));
        final OrderId resting = new OrderId(h.lastDigest);
        final List<String> events = h.act(ALICE, new Batch(List.of(
            bid(9 * UNIT / 10, UNIT),
            new Cancel(resting),
            bid(150, UNIT),
            new Cancel(resting))));
        line(events, "ActionAccepted");
        line(events, "OrderRested", "\"price\":900000");
        line(events, "OrderDone", "\"reason\":\"CANCELLED\"");
        line(events, "ActionRejected", "\"code\":\"INVALID_PRICE\"", "\"legIndex\":2");
        line(events, "ActionRejected", "\"code\":\"UNKNOWN_ORDER\"", "\"legIndex\":3");
        assertEquals(1, h.engine.openOrders());
    }

    @Test
    void cancelAllInOneMarketOrEverywhere()
    {
        h.act(ALICE, bid(UNIT, UNIT));
        h.act(ALICE,
            new SpotPlaceOrder(OUTCOME, Book.YES, Side.BID, 400_000, UNIT, null, TimeInForce.GTC, false, false, -1));
        h.act(BOB, bid(UNIT, UNIT));
        final List<String> one = h.act(ALICE, new CancelAll(SPOT));
        assertEquals(1, one.stream().filter(l -> l.contains("\"type\":\"OrderDone\"")).count());
        assertEquals(2, h.engine.openOrders());
        h.act(ALICE, new CancelAll(CancelAll.ALL_MARKETS));
        assertEquals(1, h.engine.openOrders(), "Bob's order stays");
        assertEquals(0, locked(ALICE, USD));
    }

    @Test
    void splitAndMergeConvertCollateralAndShares()
    {
        final List<String> split = h.act(ALICE, new Split(OUTCOME, 5 * UNIT));
        line(split, "PositionChanged", "\"yes\":5000000", "\"no\":5000000");
        assertEquals(999_995 * UNIT, available(ALICE, USD));
        assertRejected(h.act(ALICE, new Merge(OUTCOME, 6 * UNIT)), "INSUFFICIENT_BALANCE");
        line(h.act(ALICE, new Merge(OUTCOME, 2 * UNIT)), "PositionChanged", "\"yes\":3000000", "\"no\":3000000");
        assertRejected(h.act(ALICE, new Split(SPOT, UNIT)), "BOOK_MISMATCH");
        // shares trade on their book against collateral
        h.act(ALICE,
            new SpotPlaceOrder(OUTCOME, Book.YES, Side.ASK, 600_000, 3 * UNIT, null, TimeInForce.GTC, false,
                false, -1));
        final List<String> buy = h.act(BOB,
            new SpotPlaceOrder(OUTCOME, Book.YES, Side.BID, 700_000, 3 * UNIT, null, TimeInForce.IOC, false,
                false, -1));
        line(buy, "Trade", "\"book\":\"YES\"", "\"price\":600000");
        line(buy, "PositionChanged", "\"yes\":3000000", "\"no\":0");
        assertEquals(1_000_000 * UNIT - 1_800_000, available(BOB, USD));
    }

    @Test
    void killSwitchCancelsOpenOrdersAndBlocksNewOnesButNotCancels()
    {
        h.act(ALICE, bid(UNIT, UNIT));
        final List<String> kill = h.admin(new SetKillSwitch(KillScope.ACCOUNT, ALICE, SetKillSwitch.NO_MARKET, true));
        line(kill, "KillSwitchChanged", "\"scope\":\"ACCOUNT\"", "\"active\":true");
        line(kill, "OrderDone", "\"reason\":\"CANCELLED\"");
        assertRejected(h.act(ALICE, bid(UNIT, UNIT)), "KILL_SWITCH");
        line(h.act(ALICE, new CancelAll(CancelAll.ALL_MARKETS)), "ActionAccepted");
        line(h.act(BOB, bid(UNIT, UNIT)), "OrderRested");
        h.admin(new SetKillSwitch(KillScope.ACCOUNT, ALICE, SetKillSwitch.NO_MARKET, false));
        line(h.act(ALICE, bid(UNIT, UNIT)), "OrderRested");

        h.admin(new SetKillSwitch(KillScope.VENUE, null, SetKillSwitch.NO_MARKET, true));
        assertEquals(0, h.engine.openOrders());
        assertRejected(h.act(BOB, bid(UNIT, UNIT)), "KILL_SWITCH");
    }

    @Test
    void aHaltedMarketRefusesOrdersUntilResumed()
    {
        line(h.admin(new HaltMarket(SPOT)), "MarketStatusChanged", "\"status\":\"HALTED\"");
        assertRejected(h.act(ALICE, bid(UNIT, UNIT)), "MARKET_HALTED");
        h.admin(new ResumeMarket(SPOT));
        line(h.act(ALICE, bid(UNIT, UNIT)), "OrderRested");
    }

    @Test
    void onlyOperatorKeysMayRunOperatorActions()
    {
        assertRejected(h.act(ALICE, new Deposit(ALICE, USD, UNIT)), "NOT_OPERATOR");
        final List<String> forged = h.send(
            new ActionPayload(EngineHarness.OPERATOR, 99, null, h.now, new Deposit(ALICE, USD, UNIT)),
            SignerMatch.OTHER, ALICE, null);
        assertRejected(forged, "NOT_OPERATOR");
        assertRejected(h.admin(new Withdraw(ALICE, USD, 2_000_000 * UNIT)), "INSUFFICIENT_BALANCE");
        line(h.admin(new Withdraw(ALICE, USD, UNIT)), "BalanceChanged", "\"available\":999999000000");
        assertRejected(h.admin(new CreateAsset(USD, "USD")), "ASSET_EXISTS");
        assertRejected(h.admin(new CreateSpotMarket(SPOT, BTC, USD, 1, 1, 1)), "MARKET_EXISTS");
        assertRejected(h.admin(new CreateSpotMarket(77, BTC, 55, 1, 1, 1)), "UNKNOWN_ASSET");
    }

    @Test
    void aSignerThatIsNotTheAccountNeedsAnAuthorizedAgent()
    {
        final ActionPayload payload = new ActionPayload(ALICE, 0, null, h.now, bid(UNIT, UNIT));
        assertRejected(h.send(payload, SignerMatch.OTHER, STRANGER, STRANGER), "UNAUTHORIZED_SIGNER");
        assertRejected(
            h.send(new ActionPayload(STRANGER, 0, null, h.now, bid(UNIT, UNIT)), SignerMatch.OTHER, ALICE, ALICE),
            "UNAUTHORIZED_SIGNER");
        assertEquals(-1, h.engine.view().account(STRANGER.toBytes()), "a refused stranger is not numbered");
    }

    @Test
    void theVaultOwnerMaySignForTheVaultUntilRemoved()
    {
        final ActionPayload first = new ActionPayload(ALICE, 0, null, h.now, bid(UNIT, UNIT));
        assertRejected(h.send(first, SignerMatch.OTHER, BOB, STRANGER), "UNAUTHORIZED_SIGNER");
        line(h.admin(new SetVaultOwner(ALICE, BOB)), "VaultOwnerChanged", "\"hasOwner\":true",
            "\"owner\":\"" + BOB + "\"");
        line(h.send(first, SignerMatch.OTHER, STRANGER, BOB), "OrderRested", "\"account\":\"" + ALICE + "\"");
        h.admin(new SetVaultOwner(ALICE, null));
        assertRejected(
            h.send(new ActionPayload(ALICE, 1, null, h.now, bid(UNIT, UNIT)), SignerMatch.OTHER, BOB, STRANGER),
            "UNAUTHORIZED_SIGNER");
    }

    @Test
    void theZeroAddressStandsForNobody()
    {
        final Address zero = Address.of("0x" + "00".repeat(20));
        // not as a vault owner
        assertRejected(h.admin(new SetVaultOwner(ALICE, zero)), "INVALID_ACTION");
        // nor as an agent an owner registered: a signer that was not recovered (all zeros) is not that agent
        new AgentCommands(h).create(ALICE, 77, zero, AgentCommands.TRADE, h.now + 86_400_000);
        assertRejected(
            h.send(new ActionPayload(ALICE, 0, null, h.now, bid(UNIT, UNIT)), SignerMatch.OTHER, STRANGER, zero),
            "UNAUTHORIZED_SIGNER");
        assertRejected(h.send(new ActionPayload(ALICE, 1, null, h.now, bid(UNIT, UNIT)), SignerMatch.OTHER, zero, zero),
            "UNAUTHORIZED_SIGNER");
    }

    @Test
    void levelPruningCancelsTheWorstLevelWithAnEvent()
    {
        h.act(ALICE, bid(UNIT, UNIT));
        h.act(ALICE, bid(2 * UNIT, UNIT));
        h.act(ALICE, bid(3 * UNIT, UNIT));
        final List<String> events = h.act(BOB, bid(4 * UNIT, UNIT));
        line(events, "OrderDone", "\"reason\":\"PRUNED\"", "\"account\":\"" + ALICE + "\"");
        assertEquals(5 * UNIT, locked(ALICE, USD), "the pruned bid's 1.0 USD is released");
    }

    @Test
    void restingOrdersExpireOnStampedTime()
    {
        h.act(ALICE,
            new SpotPlaceOrder(SPOT, null, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, h.now + 500));
        h.now += 499;
        assertFalse(h.act(BOB, new CancelAll(CancelAll.ALL_MARKETS)).stream().anyMatch(l -> l.contains("EXPIRED")));
        h.now += 1;
        line(h.act(BOB, new CancelAll(CancelAll.ALL_MARKETS)), "OrderDone", "\"reason\":\"EXPIRED\"");
        assertEquals(0, locked(ALICE, USD));
        line(
            h.act(ALICE,
                new SpotPlaceOrder(SPOT, null, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, h.now)),
            "OrderDone", "\"reason\":\"EXPIRED\"");
    }

    @Test
    void reduceOnlyMaySellHoldingsButNeverBuy()
    {
        assertRejected(
            h.act(ALICE, new SpotPlaceOrder(SPOT, null, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, true, -1)),
            "REDUCE_ONLY_VIOLATION");
        assertRejected(
            h.act(ALICE,
                new SpotPlaceOrder(SPOT, null, Side.ASK, UNIT, 101 * UNIT, null, TimeInForce.GTC, false, true, -1)),
            "REDUCE_ONLY_VIOLATION");
        line(
            h.act(ALICE,
                new SpotPlaceOrder(SPOT, null, Side.ASK, UNIT, 100 * UNIT, null, TimeInForce.GTC, false, true, -1)),
            "OrderRested");
    }

    @Test
    void openOrderLimitsPerAccountAndPerMarket()
    {
        final EngineHarness small = new EngineHarness(
            new EngineConfig().maxOpenOrdersPerAccountAndMarket(2).maxOpenOrdersPerAccount(3),
            true);
        small.admin(new CreateAsset(USD, "USD"));
        small.admin(new CreateAsset(BTC, "BTC"));
        small.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        small.admin(new CreateOutcomeMarket(OUTCOME, USD, 1000, 1000, 1000));
        small.admin(new Deposit(ALICE, USD, 1_000 * UNIT));
        small.act(ALICE, bid(UNIT, UNIT));
        small.act(ALICE, bid(UNIT, UNIT));
        assertRejected(small.act(ALICE, bid(UNIT, UNIT)), "OPEN_ORDER_LIMIT");
        small.act(ALICE,
            new SpotPlaceOrder(OUTCOME, Book.YES, Side.BID, 500_000, UNIT, null, TimeInForce.GTC, false, false, -1));
        assertRejected(small.act(ALICE,
            new SpotPlaceOrder(OUTCOME, Book.NO, Side.BID, 500_000, UNIT, null, TimeInForce.GTC, false, false, -1)),
            "OPEN_ORDER_LIMIT");
    }

    @Test
    void replayingTheCommandsGivesTheSameEventBytesAndState()
    {
        h.act(ALICE, bid(UNIT, 3 * UNIT));
        h.act(BOB, ask(UNIT, UNIT));
        h.act(ALICE, new Split(OUTCOME, UNIT));
        final Engine[] replayed = new Engine[1];
        final byte[] events = EngineHarness.replay(new EngineConfig().maxLevelsPerSide(3), h.commands,
            h.commandsLength(), replayed);
        assertArrayEquals(h.log.bytes(), events);
        assertArrayEquals(h.engine.stateHash(), replayed[0].stateHash());
        assertTrue(h.engine.commandCount() > 10);
    }

    @Test
    void recordsThatAreNotCommandsAreIgnoredWhole()
    {
        final byte[] before = h.engine.stateHash();
        final UnsafeBuffer junk = new UnsafeBuffer(new byte[64]);
        assertFalse(h.engine.onCommand(junk, 0, 4));
        assertFalse(h.engine.onCommand(junk, 0, 64));
        junk.putShort(2, (short)100); // an event's template id
        junk.putShort(4, (short)1);
        assertFalse(h.engine.onCommand(junk, 0, 64));
        assertArrayEquals(before, h.engine.stateHash());
    }
}
