package io.venue.engine;

import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.KillScope;
import io.venue.action.OrderId;
import io.venue.action.SetKillSwitch;
import io.venue.action.Side;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.Withdraw;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateLimits;
import io.venue.journal.JournalRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static io.venue.engine.EngineTest.ALICE;
import static io.venue.engine.EngineTest.BOB;
import static io.venue.engine.EngineTest.STRANGER;
import static io.venue.engine.EngineTest.assertRejected;
import static io.venue.engine.EngineTest.line;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The state limits: every kind of record the engine makes (accounts, balance and position records, resting
 * orders, agents, credentials) stops at its limit with {@code CAPACITY_LIMIT} (a resting remainder with the
 * open-order refusal), changing nothing; fills never make a record; and a persisted engine at its limits
 * never overruns its Chronicle Maps.
 */
class StateLimitsTest
{
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long SPOT = 7;
    private static final long OUTCOME = 9;
    private static final long UNIT = 1_000_000;
    private static final Address CAROL = Address.of("0x" + "ca".repeat(20));

    @TempDir
    Path folder;

    /** Plenty of everything except what a test narrows. */
    private static StateLimits limits(final long accounts, final long balances, final long positions,
        final long openOrders, final long agents, final long credentials)
    {
        return new StateLimits(accounts, balances, positions, openOrders, agents, credentials);
    }

    private static EngineHarness listed(final StateLimits limits)
    {
        final EngineHarness h = new EngineHarness(new EngineConfig().stateLimits(limits), true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        h.admin(new CreateOutcomeMarket(OUTCOME, USD, 1000, 1, 1));
        return h;
    }

    private static SpotPlaceOrder spot(final Side side, final long price, final long qty)
    {
        return new SpotPlaceOrder(SPOT, null, side, price, qty, null, TimeInForce.GTC, false, false, -1);
    }

    @Test
    void accountsStopAtTheLimitOnEveryPathThatNumbersOne()
    {
        // the operator is an account too: operator, Alice, Bob
        final EngineHarness h = listed(limits(3, 100, 100, 100, 100, 100));
        line(h.admin(new Deposit(ALICE, USD, UNIT)), "BalanceChanged");
        line(h.admin(new Deposit(BOB, USD, UNIT)), "BalanceChanged");

        assertRejected(h.admin(new Deposit(CAROL, USD, UNIT)), "CAPACITY_LIMIT");
        assertRejected(h.admin(new SetKillSwitch(KillScope.ACCOUNT, CAROL, SetKillSwitch.NO_MARKET, true)),
            "CAPACITY_LIMIT");
        // a stranger's action is refused before capacity is asked (UnfundedAccountsTest); as a command of version 6 it
        // would be numbered once its nonce passed, and stops at the limit
        assertRejected(h.act(STRANGER, spot(Side.BID, 1000, 1000)), "ACCOUNT_NOT_FUNDED");
        h.version = JournalRecords.UNFUNDED_REFUSED_VERSION - 1;
        assertRejected(h.act(STRANGER, spot(Side.BID, 1000, 1000)), "CAPACITY_LIMIT");
        h.version = JournalRecords.SCHEMA_VERSION;
        // an owner the venue holds nothing for is refused before any account is made for it
        assertRejected(new AgentCommands(h).create(CAROL, 5, STRANGER, AgentCommands.TRADE, h.now + 1000),
            "ACCOUNT_NOT_FUNDED");
        assertEquals(-1, h.engine.view().account(CAROL.toBytes()));
        assertEquals(-1, h.engine.view().account(STRANGER.toBytes()));
        assertEquals(3, h.engine.view().accountCount());

        // known accounts go on as before
        line(h.admin(new Deposit(ALICE, USD, UNIT)), "BalanceChanged");
        line(h.act(ALICE, spot(Side.BID, 1000, 1000)), "OrderAccepted");
    }

    @Test
    void balanceRecordsAreMadeWhenAnOrderIsPlacedNeverByItsFills()
    {
        // Alice's USD and Bob's BTC by deposit; each order opens the other asset: 4 records
        final EngineHarness h = listed(limits(10, 4, 100, 100, 100, 100));
        h.admin(new Deposit(ALICE, USD, 1_000 * UNIT));
        h.admin(new Deposit(BOB, BTC, 1_000 * UNIT));
        // a withdrawal of an asset never held is refused without making a record (else the orders below would not fit)
        assertRejected(h.admin(new Withdraw(ALICE, BTC, 1)), "INSUFFICIENT_BALANCE");
        line(h.act(ALICE, spot(Side.BID, 1000, 1000)), "OrderAccepted");
        final List<String> sell = h.act(BOB, spot(Side.ASK, 1000, 1000));
        line(sell, "Trade");
        line(sell, "BalanceChanged");

        assertRejected(h.admin(new Deposit(CAROL, USD, UNIT)), "CAPACITY_LIMIT");
        assertEquals(-1, h.engine.view().account(CAROL.toBytes()), "a refused deposit numbers no account");
        // the records exist: more trading between the two makes none
        line(h.act(BOB, spot(Side.ASK, 1000, 1000)), "OrderAccepted");
        line(h.act(ALICE, spot(Side.BID, 1000, 1000)), "Trade");
        line(h.admin(new Withdraw(ALICE, BTC, 1000)), "BalanceChanged");
    }

    @Test
    void positionRecordsCountOncePerAccountAndMarket()
    {
        final EngineHarness h = listed(limits(10, 100, 1, 100, 100, 100));
        h.admin(new Deposit(ALICE, USD, 1_000 * UNIT));
        h.admin(new Deposit(BOB, USD, 1_000 * UNIT));
        line(h.act(ALICE, new Split(OUTCOME, UNIT)), "PositionChanged");
        line(h.act(ALICE, new Split(OUTCOME, UNIT)), "PositionChanged");
        // YES and NO of one market are one record: Alice selling NO shares opens nothing new
        line(
            h.act(ALICE,
                new SpotPlaceOrder(OUTCOME, Book.NO, Side.ASK, 400_000, UNIT, null, TimeInForce.GTC, false, false, -1)),
            "OrderAccepted");
        assertRejected(h.act(BOB, new Split(OUTCOME, UNIT)), "CAPACITY_LIMIT");
        assertRejected(
            h.act(BOB,
                new SpotPlaceOrder(OUTCOME, Book.NO, Side.BID, 400_000, UNIT, null, TimeInForce.GTC, false, false, -1)),
            "CAPACITY_LIMIT");
    }

    @Test
    void restingOrdersStopAtTheLimitAcrossBooks()
    {
        final EngineHarness h = listed(limits(10, 100, 100, 2, 100, 100));
        h.admin(new Deposit(ALICE, USD, 1_000 * UNIT));
        h.admin(new Deposit(BOB, BTC, 1_000 * UNIT));
        line(h.act(ALICE, spot(Side.BID, 1000, 1000)), "OrderAccepted");
        line(
            h.act(ALICE,
                new SpotPlaceOrder(OUTCOME, Book.YES, Side.BID, 500_000, UNIT, null, TimeInForce.GTC, false, false,
                    -1)),
            "OrderAccepted");
        assertRejected(h.act(ALICE, spot(Side.BID, 900, 1000)), "OPEN_ORDER_LIMIT");
        // an order that trades needs no record: Bob's ask fills Alice's bid and rests nothing
        line(h.act(BOB, spot(Side.ASK, 1000, 1000)), "Trade");
        assertEquals(1, h.engine.openOrders());
        line(h.act(ALICE, spot(Side.BID, 900, 1000)), "OrderAccepted");
        assertEquals(2, h.engine.openOrders());
    }

    @Test
    void agentsAndCredentialsStopAtTheirLimits()
    {
        final EngineHarness h = listed(limits(10, 100, 100, 100, 1, 2));
        h.admin(new Deposit(ALICE, USD, UNIT));
        final AgentCommands agents = new AgentCommands(h);
        line(agents.create(ALICE, 1, STRANGER, AgentCommands.TRADE, h.now + 100_000), "AgentChanged");
        assertRejected(agents.create(ALICE, 2, CAROL, AgentCommands.TRADE, h.now + 100_000), "CAPACITY_LIMIT");
        line(agents.rotate(ALICE, 1, 11, CAROL), "AgentChanged");
        assertRejected(agents.rotate(ALICE, 1, 12, BOB), "CAPACITY_LIMIT");
    }

    @Test
    void aRefusalAtTheLimitChangesNoStateBeyondTheNonce()
    {
        final EngineHarness limited = listed(limits(3, 100, 100, 100, 100, 100));
        final EngineHarness roomy = listed(limits(4, 100, 100, 100, 100, 100));
        for (final EngineHarness h : List.of(limited, roomy))
        {
            h.admin(new Deposit(ALICE, USD, UNIT));
            h.admin(new Deposit(BOB, USD, UNIT));
            // only a command of version 6 numbers a stranger's account
            h.version = JournalRecords.UNFUNDED_REFUSED_VERSION - 1;
        }
        assertRejected(limited.act(STRANGER, new Cancel(new OrderId(new byte[32]))), "CAPACITY_LIMIT");
        assertArrayEquals(roomy.engine.stateHash(), limited.engine.stateHash(), "the refused account was not numbered");
    }

    @ParameterizedTest(name = "seed={0}")
    @ValueSource(longs = {3, 41})
    void aPersistedEngineAtItsLimitsNeverOverrunsItsMaps(final long seed) throws Exception
    {
        // limits so small that the random stream runs into every one of them
        final StateLimits tight = limits(4, 7, 2, 9, 2, 3);
        final EngineConfig config = RandomStream.config().stateLimits(tight);
        final EngineHarness plain = new EngineHarness(config, true);
        new RandomStream(plain, seed).setUp().run(3_000);
        assertTrue(plain.log.lines().stream().filter(l -> l.contains("CAPACITY_LIMIT")).count() > 10,
            "the limits were hit");
        try (EngineState stored = EngineState.open(
            new EngineState.Context().directory(folder).sizeFor(tight).commandsPerFlush(1)))
        {
            final EngineHarness mirrored = new EngineHarness(config, false, stored);
            new RandomStream(mirrored, seed).setUp().run(3_000);
            assertArrayEquals(plain.log.bytes(), mirrored.log.bytes());
            assertTrue(stored.openOrders().size() <= tight.openOrders());
            assertTrue(stored.nonceWindows().size() <= tight.accounts());
            assertTrue(stored.balances().size() <= tight.balances());
            assertTrue(stored.positions().size() <= tight.positions());
            assertTrue(stored.agents().size() <= tight.agents());
            assertTrue(stored.credentials().size() <= tight.credentials());
        }
    }

    @Test
    void anEngineDoesNotStartOnMapsSmallerThanItsLimits()
    {
        final EngineConfig config = new EngineConfig().stateLimits(StateLimits.forAccounts(1_000, 5_000));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () ->
            PersistedEngine.open(config, (b, o, l) -> { },
                new EngineState.Context().directory(folder).sizeFor(100, 5_000)));
        assertTrue(refused.getMessage().contains("NONCE_WINDOWS"), refused.getMessage());
    }
}
