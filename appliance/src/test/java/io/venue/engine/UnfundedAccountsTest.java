package io.venue.engine;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.state.StateLimits;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.SignerMatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.venue.engine.EngineTest.ALICE;
import static io.venue.engine.EngineTest.assertRejected;
import static io.venue.engine.EngineTest.line;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23: a stranger's fresh keys cannot exhaust the accounts. From journal version 7 a signed action of an account
 * the engine does not know is refused {@code ACCOUNT_NOT_FUNDED} before its nonce, numbering nothing; only the
 * operator's deposit makes an account. An older command numbers it as its build did, so old journals replay alike.
 */
class UnfundedAccountsTest
{
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long SPOT = 7;
    private static final long UNIT = 1_000_000;
    private static final Address NEWCOMER = Address.of("0x" + "ab".repeat(20));

    private static EngineHarness listed(final EngineConfig config)
    {
        final EngineHarness h = new EngineHarness(config, true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        return h;
    }

    private static SpotPlaceOrder spot(final Side side, final long price, final long qty)
    {
        return new SpotPlaceOrder(SPOT, null, side, price, qty, null, TimeInForce.GTC, false, false, -1);
    }

    /** The i-th stranger: an address no deposit names. */
    private static Address stranger(final int i)
    {
        return Address.of(String.format("0x5700%036x", i));
    }

    @ParameterizedTest(name = "shards={0}")
    @ValueSource(ints = {1, 2})
    void moreStrangersThanTheCapacityTakeNoneOfIt(final int shards)
    {
        final EngineConfig config = new EngineConfig().shards(shards).stateLimits(StateLimits.DEMO);
        final EngineHarness h = listed(config);
        final int before = h.engine.view().accountCount();
        final long capacity = StateLimits.DEMO.accounts();
        for (int i = 0; i <= capacity; i++)
        {
            final Address stranger = stranger(i);
            final List<String> events = h.act(stranger, spot(Side.BID, 1000, 1000));
            assertRejected(events, "ACCOUNT_NOT_FUNDED");
            // no window was made or consumed: the refusal reports none
            line(events, "ActionRejected", "\"nonceFloor\":0", "\"nextUsableNonce\":0");
            if (i % 2_500 == 0)
            {
                assertEquals(-1, h.engine.view().account(stranger.toBytes()));
            }
        }
        assertEquals(before, h.engine.view().accountCount(), "no stranger was numbered");

        // the operator's deposit to a new address still makes the account, which trades with another new one
        line(h.admin(new Deposit(NEWCOMER, USD, 10 * UNIT)), "BalanceChanged");
        line(h.admin(new Deposit(ALICE, BTC, 10 * UNIT)), "BalanceChanged");
        assertEquals(before + 2, h.engine.view().accountCount());
        line(h.act(NEWCOMER, spot(Side.BID, 1000, 1000)), "OrderRested");
        line(h.act(ALICE, spot(Side.ASK, 1000, 1000)), "Trade", "\"price\":1000", "\"qty\":1000");
    }

    @Test
    void theRefusedNonceIsStillUsableOnceTheAccountIsFunded()
    {
        final EngineHarness h = listed(new EngineConfig());
        final byte[] before = h.engine.stateHash();
        assertRejected(h.act(NEWCOMER, spot(Side.BID, 1000, 1000)), "ACCOUNT_NOT_FUNDED");
        assertArrayEquals(before, h.engine.stateHash(), "the refusal changed no state");
        assertEquals(-1, h.engine.view().account(NEWCOMER.toBytes()));

        line(h.admin(new Deposit(NEWCOMER, USD, 10 * UNIT)), "BalanceChanged");
        // the same nonce (0) again: the refusal consumed nothing
        assertEquals(1, h.nonce(NEWCOMER));
        final List<String> events = h.send(new ActionPayload(NEWCOMER, 0, null, h.now, spot(Side.BID, 1000, 1000)),
            SignerMatch.ACCOUNT_RAW, NEWCOMER, null);
        line(events, "ActionAccepted", "\"nextUsableNonce\":1");
        line(events, "OrderRested");
    }

    @Test
    void anOlderCommandStillNumbersTheAccountAsItsBuildDid()
    {
        final EngineHarness h = listed(new EngineConfig().stateLimits(StateLimits.forAccounts(2, 100)));
        h.version = JournalRecords.UNFUNDED_REFUSED_VERSION - 1;
        // version 6: the stranger is numbered once its nonce passes (its place then fails on credit, nonce used)
        line(h.act(stranger(1), spot(Side.BID, 1000, 1000)), "ActionRejected", "\"nextUsableNonce\":1");
        assertTrue(h.engine.view().account(stranger(1).toBytes()) >= 0);
        assertRejected(h.act(stranger(2), spot(Side.BID, 1000, 1000)), "CAPACITY_LIMIT");

        h.version = JournalRecords.UNFUNDED_REFUSED_VERSION;
        assertRejected(h.act(stranger(3), spot(Side.BID, 1000, 1000)), "ACCOUNT_NOT_FUNDED");
    }
}
