package io.venue.engine;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
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
import io.venue.engine.state.StateLimits;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelReplaceEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedEncoder;
import io.venue.journal.sbe.SignerMatch;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A random command stream of every kind the engine takes, as in {@link EnginePropertyTest} plus what a restart
 * must carry over that it does not exercise: agents (create, rotate, revoke, owner revoke, agent-signed
 * actions), market and venue kill switches, halts of the outcome market, accounts first named by a deposit,
 * and the sequencer's RequestRejected audit records. The commands depend only on the seed, never on what the
 * engine answered, so the same seed gives the same records whichever engine runs them.
 */
final class RandomStream
{
    static final long USD = 1;
    static final long BTC = 2;
    static final long SPOT = 7;
    static final long OUTCOME = 9;
    static final long UNIT = 1_000_000;
    private static final int ACCOUNTS = 6;

    private final EngineHarness h;
    private final SplittableRandom random;
    /**
     * Draws the limit class of order actions apart from {@link #random}, so the streams' other draws are what
     * they were.
     */
    private final SplittableRandom limitClasses;
    /**
     * Draws, apart from {@link #random}, which amends are of a recent order by its owner (half of them): some of those
     * rest after a part fill, so an amend that takes one out of the book and enters it again (what journal version 6
     * changed) happens now and then ({@link AmendStream} makes many).
     */
    private final SplittableRandom ownAmends;
    private final AgentCommands agents;
    private final Address[] accounts = new Address[ACCOUNTS];
    private final Address[] agentSigners = new Address[4];
    private final List<OrderId> placed = new ArrayList<>();
    /** Who placed each of {@link #placed}. */
    private final List<Address> placedBy = new ArrayList<>();
    private final ExpandableArrayBuffer record = new ExpandableArrayBuffer(256);
    private int newcomers;
    private long credentialIds = 100;

    RandomStream(final EngineHarness h, final long seed)
    {
        this.h = h;
        this.random = new SplittableRandom(seed);
        this.limitClasses = new SplittableRandom(~seed);
        this.ownAmends = new SplittableRandom(seed * 31 + 17);
        this.agents = new AgentCommands(h);
        for (int i = 0; i < ACCOUNTS; i++)
        {
            accounts[i] = Address.of(String.format("0x%040x", 0x1000 + i));
        }
        for (int i = 0; i < agentSigners.length; i++)
        {
            agentSigners[i] = Address.of(String.format("0x%040x", 0xa9e0 + i));
        }
    }

    static EngineConfig config()
    {
        return new EngineConfig().maxLevelsPerSide(6).orderCapacityPerBook(64).maxOpenOrdersPerAccountAndMarket(12)
            .actionRate(30, 1000).expectedAccounts(4)
            // the state folders of the persisted tests are sized for these
            .stateLimits(StateLimits.forAccounts(1_000, 10_000));
    }

    /** Lists the assets and markets and funds the accounts. */
    RandomStream setUp()
    {
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 1_000, 1_000, 1_000));
        h.admin(new CreateOutcomeMarket(OUTCOME, USD, 10_000, 1_000, 1_000));
        for (final Address account : accounts)
        {
            h.admin(new Deposit(account, USD, 200 * UNIT));
            h.admin(new Deposit(account, BTC, 20 * UNIT));
        }
        return this;
    }

    /** Sends {@code steps} random commands. */
    RandomStream run(final int steps)
    {
        for (int step = 0; step < steps; step++)
        {
            step();
        }
        return this;
    }

    /** An order action of limit class TRADING, or one time in four of class MM, which the account limiter skips. */
    private void order(final Address account, final ClientOrderId cloid, final Action action)
    {
        if (limitClasses.nextInt(4) == 0)
        {
            h.actInMmLimitClass(account, cloid, action);
        }
        else
        {
            h.act(account, cloid, action);
        }
    }

    private void step()
    {
        h.now += random.nextInt(4) == 0 ? random.nextInt(400) : random.nextInt(3);
        final Address account = accounts[random.nextInt(ACCOUNTS)];
        final int kind = random.nextInt(100);
        if (kind < 40)
        {
            final ClientOrderId cloid = random.nextInt(4) == 0 ? new ClientOrderId(bytes(16, 3)) : null;
            order(account, cloid, place());
            placed(account, new OrderId(h.lastDigest));
        }
        else if (kind < 48 && !placed.isEmpty())
        {
            order(account, null, new Cancel(anyPlaced()));
        }
        else if (kind < 55 && !placed.isEmpty())
        {
            final OrderId drawn = anyPlaced();
            final long price = price(SPOT);
            final long qty = lots();
            if (ownAmends.nextBoolean())
            {
                // one of the last orders placed, amended by its owner
                final int recent = placed.size() - 1 - ownAmends.nextInt(Math.min(placed.size(), 8));
                order(placedBy.get(recent), null, new Amend(placed.get(recent), price, qty));
            }
            else
            {
                order(account, null, new Amend(drawn, price, qty));
            }
        }
        else if (kind < 59)
        {
            final List<BatchLeg> legs = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(5); i < n; i++)
            {
                legs.add(random.nextBoolean() || placed.isEmpty() ? place() :
                    random.nextBoolean() ? new Cancel(anyPlaced()) :
                    new CancelByClientOrderId(new ClientOrderId(bytes(16, 3))));
            }
            h.act(account, new Batch(legs));
        }
        else if (kind < 61)
        {
            h.act(account, new CancelAll(random.nextBoolean() ? CancelAll.ALL_MARKETS : SPOT));
        }
        else if (kind < 65)
        {
            h.act(account, new Split(OUTCOME, lots()));
        }
        else if (kind < 68)
        {
            h.act(account, new Merge(OUTCOME, lots()));
        }
        else if (kind < 72)
        {
            h.admin(new Deposit(account, random.nextBoolean() ? USD : BTC, lots() * 10));
        }
        else if (kind < 74)
        {
            h.admin(new Withdraw(account, random.nextBoolean() ? USD : BTC, lots() * 10));
        }
        else if (kind < 76)
        {
            final long market = random.nextBoolean() ? SPOT : OUTCOME;
            h.admin(random.nextInt(5) == 0 ? new HaltMarket(market) : new ResumeMarket(market));
        }
        else if (kind < 78)
        {
            // switched on now and then, off more often, so trading goes on most of the time
            final int which = random.nextInt(20);
            final boolean on = random.nextInt(5) == 0;
            if (which < 12)
            {
                h.admin(new SetKillSwitch(KillScope.ACCOUNT, account, SetKillSwitch.NO_MARKET, on));
            }
            else if (which < 18)
            {
                h.admin(new SetKillSwitch(KillScope.MARKET, null, random.nextBoolean() ? SPOT : OUTCOME, on));
            }
            else
            {
                h.admin(new SetKillSwitch(KillScope.VENUE, null, SetKillSwitch.NO_MARKET, on && random.nextBoolean()));
            }
        }
        else if (kind < 83)
        {
            if (random.nextInt(4) == 0)
            {
                // vault owners come and go; an owner's signature then acts for the vault
                final Address owner = accounts[random.nextInt(accounts.length)];
                h.admin(new SetVaultOwner(account, owner.equals(account) || random.nextInt(3) == 0 ? null : owner));
            }
            else
            {
                agentLifecycle();
            }
        }
        else if (kind < 86)
        {
            // an action signed by one of the owner's agent keys (valid, rotated out, revoked or never seen)
            final Address owner = accounts[random.nextInt(2)];
            final var action = random.nextInt(3) == 0 && !placed.isEmpty() ? new Cancel(anyPlaced()) : place();
            h.send(new ActionPayload(owner, h.takeNonce(owner), null, h.now, action), SignerMatch.OTHER,
                agentSigners[random.nextInt(agentSigners.length)], null);
            if (action instanceof SpotPlaceOrder)
            {
                placed(owner, new OrderId(h.lastDigest));
            }
        }
        else if (kind < 88)
        {
            // an account first named by a deposit, then trading
            final Address newcomer = Address.of(String.format("0x%040x", 0x7000 + newcomers++));
            h.admin(new Deposit(newcomer, USD, 50 * UNIT));
            h.act(newcomer, place());
            placed(newcomer, new OrderId(h.lastDigest));
        }
        else if (kind < 89)
        {
            if (random.nextBoolean() || placed.isEmpty())
            {
                requestRejected(account);
            }
            else
            {
                cancelReplace(account);
            }
        }
        else
        {
            // replays, stale and far nonces, and strangers' signatures
            final long nonce = random.nextBoolean() ? random.nextLong(Math.max(1, h.nonce(account))) :
                h.nonce(account) + 300;
            h.send(new ActionPayload(account, nonce, null, h.now, place()),
                random.nextBoolean() ? SignerMatch.ACCOUNT_RAW : SignerMatch.OTHER, account, null);
        }
    }

    private void agentLifecycle()
    {
        final Address owner = accounts[random.nextInt(2)];
        final long agentId = 1 + random.nextInt(3);
        agents.intentNonce(h.takeNonce(owner));
        agents.keyKind(random.nextInt(4) == 0 ? AgentKeyKind.ED25519 : AgentKeyKind.SECP256K1);
        final int which = random.nextInt(10);
        if (which < 4)
        {
            agents.create(owner, agentId, agentSigners[random.nextInt(agentSigners.length)],
                AgentCommands.TRADE | (random.nextBoolean() ? AgentCommands.CANCEL : 0),
                h.now + 1 + random.nextInt(100_000));
        }
        else if (which < 7)
        {
            agents.rotate(owner, agentId, credentialIds++, agentSigners[random.nextInt(agentSigners.length)]);
        }
        else if (which < 9)
        {
            final boolean all = random.nextBoolean();
            agents.revoke(owner, agentId, all ? agentId : 100 + random.nextInt((int)(credentialIds - 99)), all);
        }
        else
        {
            agents.ownerRevoke(owner);
        }
    }

    private void requestRejected(final Address account)
    {
        final RequestRejectedEncoder e = new RequestRejectedEncoder()
            .wrapAndApplyHeader(record, 0, new MessageHeaderEncoder())
            .sequence(h.nextSequence()).timestampMs(h.now).epoch(1).connectionId(3).correlationId(4)
            .reason(RequestRejectReason.values()[0]);
        e.putAccount(account.toBytes(), 0, 20).putDigest(new byte[32], 0, 32);
        e.detail("bad signature");
        h.apply(record, MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength());
    }

    /** An MM cancel-replace: a placed order (often another account's, so refused) cancelled, a new one placed. */
    private long cancelReplaces;

    private void cancelReplace(final Address account)
    {
        final SpotPlaceOrder place = place();
        final CancelReplaceEncoder e = new CancelReplaceEncoder()
            .wrapAndApplyHeader(record, 0, new MessageHeaderEncoder()).sequence(h.nextSequence())
            .timestampMs(h.now).epoch(1);
        // the EIP-712 hash the pool would have put here: unique per replace
        final byte[] orderId = new byte[32];
        orderId[0] = 0x7C;
        ByteBuffer.wrap(orderId, 24, 8).putLong(++cancelReplaces);
        e.envelope().putAccount(account.toBytes(), 0, 20).nonce(h.takeNonce(account)).ts(0)
            .hasClientOrderId(BooleanType.FALSE).putDigest(orderId, 0, 32)
            .signerMatch(SignerMatch.ACCOUNT_RAW).putRawSigner(account.toBytes(), 0, 20);
        e.putCancelOrderId(anyPlaced().toBytes(), 0, 32).market(place.market())
            // FQN-CLASH: the codec's enums (the action's are imported)
            .book(place.book() == null ? io.venue.journal.sbe.Book.NONE :
                // FQN-CLASH: the codec's enums (the action's are imported)
                place.book() == Book.YES ? io.venue.journal.sbe.Book.YES : io.venue.journal.sbe.Book.NO)
            // FQN-CLASH: the codec's enums (the action's are imported)
            .side(place.side() == Side.BID ? io.venue.journal.sbe.Side.BID : io.venue.journal.sbe.Side.ASK)
            .price(place.price()).qty(place.qty())
            // FQN-CLASH: the codec's enums (the action's are imported)
            .timeInForce(random.nextBoolean() ? io.venue.journal.sbe.TimeInForce.GTC :
                // FQN-CLASH: the codec's enums (the action's are imported)
                io.venue.journal.sbe.TimeInForce.POST_ONLY)
            .expiry(random.nextInt(4) == 0 ? (EngineHarness.T0 + random.nextInt(200_000)) / 1000 : 0);
        h.apply(record, MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength());
        placed(account, new OrderId(orderId));
    }

    private void placed(final Address by, final OrderId id)
    {
        placed.add(id);
        placedBy.add(by);
    }

    private OrderId anyPlaced()
    {
        return placed.get(random.nextInt(placed.size()));
    }

    private SpotPlaceOrder place()
    {
        final boolean outcome = random.nextInt(3) == 0;
        final long market = outcome ? OUTCOME : SPOT;
        final Book book = outcome ? (random.nextBoolean() ? Book.YES : Book.NO) : null;
        final Side side = random.nextBoolean() ? Side.BID : Side.ASK;
        final TimeInForce tif = TimeInForce.values()[random.nextInt(4)];
        final StpMode stp = random.nextInt(3) == 0 ? null : StpMode.values()[random.nextInt(4)];
        final boolean isMarket = tif != TimeInForce.POST_ONLY && random.nextInt(10) == 0;
        final long expiresAt = random.nextInt(6) == 0 ? EngineHarness.T0 + random.nextInt(200_000) :
            SpotPlaceOrder.NO_EXPIRY;
        return new SpotPlaceOrder(market, book, side, price(market), lots(), stp, tif, isMarket,
            random.nextInt(12) == 0, expiresAt);
    }

    private long price(final long market)
    {
        return market == OUTCOME ? 10_000 * (20 + random.nextInt(60)) : 1_000 * (900 + random.nextInt(200));
    }

    private long lots()
    {
        return 1_000 * (1 + random.nextInt(3_000));
    }

    private byte[] bytes(final int length, final int distinct)
    {
        final byte[] bytes = new byte[length];
        bytes[length - 1] = (byte)random.nextInt(distinct);
        return bytes;
    }
}
