package io.venue.engine;

import io.venue.action.Address;
import io.venue.action.Amend;
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
import io.venue.action.OrderId;
import io.venue.action.ResumeMarket;
import io.venue.action.Side;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.Withdraw;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A command stream made for matching: places, amends and cancels on three spot markets and an outcome market, many of
 * them crossing, from accounts that share the quote asset across markets, with a command of another kind
 * (cancel all, cancel by client order id, deposit, withdrawal, split, halt) now and then. The commands depend
 * only on the seed. {@link RandomStream} covers every kind of command evenly; this one keeps several shards busy.
 */
final class TradingStream
{
    static final long USD = 1;
    static final long BTC = 2;
    static final long ETH = 3;
    static final long[] SPOT = {7, 8, 11};
    static final long OUTCOME = 9;
    static final long UNIT = 1_000_000;
    private static final int ACCOUNTS = 16;

    private final EngineHarness h;
    private final SplittableRandom random;
    private final Address[] accounts = new Address[ACCOUNTS];
    private final List<Placed> placed = new ArrayList<>();
    private boolean expiries = true;

    TradingStream(final EngineHarness h, final long seed)
    {
        this.h = h;
        this.random = new SplittableRandom(seed);
        for (int i = 0; i < ACCOUNTS; i++)
        {
            accounts[i] = Address.of(String.format("0x%040x", 0x2000 + i));
        }
    }

    static EngineConfig config()
    {
        return new EngineConfig().maxLevelsPerSide(8).orderCapacityPerBook(128).maxOpenOrdersPerAccountAndMarket(20)
            .actionRate(1_000, 1_000).expectedAccounts(4);
    }

    /** Places without an expiry: the stream then gives one shard's decisions with any shard count, in groups of one. */
    TradingStream withoutExpiries()
    {
        expiries = false;
        return this;
    }

    TradingStream setUp()
    {
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateAsset(ETH, "ETH"));
        h.admin(new CreateSpotMarket(SPOT[0], BTC, USD, 1_000, 1_000, 1_000));
        h.admin(new CreateSpotMarket(SPOT[1], ETH, USD, 1_000, 1_000, 1_000));
        h.admin(new CreateOutcomeMarket(OUTCOME, USD, 10_000, 1_000, 1_000));
        h.admin(new CreateSpotMarket(SPOT[2], ETH, BTC, 1_000, 1_000, 1_000));
        for (final Address account : accounts)
        {
            h.admin(new Deposit(account, USD, 400 * UNIT));
            h.admin(new Deposit(account, BTC, 40 * UNIT));
            h.admin(new Deposit(account, ETH, 40 * UNIT));
        }
        return this;
    }

    TradingStream run(final int steps)
    {
        for (int step = 0; step < steps; step++)
        {
            step();
        }
        return this;
    }

    private void step()
    {
        h.now += random.nextInt(8) == 0 ? random.nextInt(300) : random.nextInt(2);
        final Address account = accounts[random.nextInt(ACCOUNTS)];
        final int kind = random.nextInt(1000);
        if (kind < 600)
        {
            final ClientOrderId cloid = random.nextInt(6) == 0 ? new ClientOrderId(clientId()) : null;
            final SpotPlaceOrder order = place();
            h.act(account, cloid, order);
            placed.add(new Placed(new OrderId(h.lastDigest), account, order.market() == OUTCOME, order.price()));
        }
        else if (kind < 700 && !placed.isEmpty())
        {
            amend();
        }
        else if (kind < 950)
        {
            // mostly one of the orders placed (perhaps someone else's, perhaps done), sometimes an id never placed
            final OrderId id = placed.isEmpty() || random.nextInt(20) == 0 ? new OrderId(clientIdLong()) :
                recent().id();
            h.act(account, new Cancel(id));
        }
        else if (kind < 965)
        {
            h.act(account, new CancelByClientOrderId(new ClientOrderId(clientId())));
        }
        else if (kind < 975)
        {
            h.act(account,
                new CancelAll(random.nextBoolean() ? CancelAll.ALL_MARKETS : SPOT[random.nextInt(SPOT.length)]));
        }
        else if (kind < 983)
        {
            h.admin(new Deposit(account, USD, (1 + random.nextInt(50)) * UNIT));
        }
        else if (kind < 990)
        {
            h.admin(new Withdraw(account, USD, (1 + random.nextInt(100)) * UNIT));
        }
        else if (kind < 996)
        {
            h.act(account, new Split(OUTCOME, 1_000 * (1 + random.nextInt(2_000))));
        }
        else
        {
            final long market = SPOT[random.nextInt(SPOT.length)];
            h.admin(new HaltMarket(market));
            h.admin(new ResumeMarket(market));
        }
    }

    /**
     * An amend of a recent order, mostly by its owner (perhaps done by now): a new price that may cross, the same
     * price with a smaller or larger quantity, now and then a price off the tick.
     */
    private void amend()
    {
        final Placed order = recent();
        final Address by = random.nextInt(8) == 0 ? accounts[random.nextInt(ACCOUNTS)] : order.owner();
        final int how = random.nextInt(10);
        final long price = how < 3 ? order.price() : how == 9 ? order.price() + 1 :
            order.outcome() ? 10_000 * (40 + random.nextInt(20)) : 1_000 * (993 + random.nextInt(14));
        h.act(by, new Amend(order.id(), price, 1_000 * (1 + random.nextInt(4_000))));
    }

    private Placed recent()
    {
        return placed.get(placed.size() - 1 - random.nextInt(Math.min(placed.size(), 40)));
    }

    private record Placed(OrderId id, Address owner, boolean outcome, long price)
    {
    }

    private SpotPlaceOrder place()
    {
        final int which = random.nextInt(4);
        final boolean outcome = which == 3;
        final long market = outcome ? OUTCOME : SPOT[which];
        final Book book = outcome ? (random.nextBoolean() ? Book.YES : Book.NO) : null;
        final Side side = random.nextBoolean() ? Side.BID : Side.ASK;
        final TimeInForce tif = random.nextInt(4) == 0 ? TimeInForce.values()[random.nextInt(4)] : TimeInForce.GTC;
        final StpMode stp = random.nextInt(3) == 0 ? null : StpMode.values()[random.nextInt(4)];
        final boolean isMarket = tif != TimeInForce.POST_ONLY && random.nextInt(15) == 0;
        final long expiresAt = random.nextInt(8) == 0 && expiries ? h.now + random.nextInt(2_000) - 100 :
            SpotPlaceOrder.NO_EXPIRY;
        // bids a little above asks on average, so many orders cross
        final long price = outcome ? 10_000 * (40 + random.nextInt(20)) :
            1_000 * (side == Side.BID ? 995 + random.nextInt(12) : 993 + random.nextInt(12));
        return new SpotPlaceOrder(market, book, side, price, 1_000 * (1 + random.nextInt(4_000)), stp, tif, isMarket,
            random.nextInt(20) == 0, expiresAt);
    }

    private byte[] clientId()
    {
        final byte[] bytes = new byte[16];
        bytes[15] = (byte)random.nextInt(6);
        return bytes;
    }

    private byte[] clientIdLong()
    {
        final byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return bytes;
    }
}
