package io.venue.engine;

import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.Cancel;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.state.StateLimits;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A command stream made for amends of partly filled orders: makers rest large orders on two spot markets, takers hit
 * them with small immediate-or-cancel orders, so they fill in part, and their owners amend their recent orders to
 * prices that may cross or not and to quantities above or below what remains, now and then in a batch's amend leg. Many
 * of the amends take a partly filled order out of the book and enter it again: what journal version 6 changed
 * (JOURNAL-SCHEMA.md, section 9). The commands depend only on the seed.
 */
final class AmendStream
{
    static final long USD = 1;
    static final long BTC = 2;
    static final long ETH = 3;
    static final long[] SPOT = {7, 8};
    static final long UNIT = 1_000_000;
    private static final int ACCOUNTS = 4;

    private final EngineHarness h;
    private final SplittableRandom random;
    private final Address[] accounts = new Address[ACCOUNTS];
    private final List<List<Placed>> own = new ArrayList<>();

    private record Placed(OrderId id, long market)
    {
    }

    AmendStream(final EngineHarness h, final long seed)
    {
        this.h = h;
        this.random = new SplittableRandom(seed);
        for (int i = 0; i < ACCOUNTS; i++)
        {
            accounts[i] = Address.of(String.format("0x%040x", 0x3000 + i));
            own.add(new ArrayList<>());
        }
    }

    static EngineConfig config()
    {
        return new EngineConfig().maxLevelsPerSide(16).orderCapacityPerBook(256).actionRate(1_000, 1_000)
            .stateLimits(StateLimits.forAccounts(1_000, 10_000));
    }

    AmendStream setUp()
    {
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateAsset(ETH, "ETH"));
        h.admin(new CreateSpotMarket(SPOT[0], BTC, USD, 1_000, 1_000, 1_000));
        h.admin(new CreateSpotMarket(SPOT[1], ETH, USD, 1_000, 1_000, 1_000));
        for (final Address account : accounts)
        {
            h.admin(new Deposit(account, USD, 1_000_000 * UNIT));
            h.admin(new Deposit(account, BTC, 10_000 * UNIT));
            h.admin(new Deposit(account, ETH, 10_000 * UNIT));
        }
        return this;
    }

    AmendStream run(final int steps)
    {
        for (int step = 0; step < steps; step++)
        {
            step();
        }
        return this;
    }

    private void step()
    {
        h.now += random.nextInt(3);
        final int who = random.nextInt(ACCOUNTS);
        final Address account = accounts[who];
        final List<Placed> mine = own.get(who);
        final int kind = random.nextInt(100);
        final long market = SPOT[random.nextInt(SPOT.length)];
        if (kind < 35 || mine.isEmpty())
        {
            // a maker: bids at 96 to 100, asks at 100 to 104, large
            final boolean bid = random.nextBoolean();
            h.act(account,
                order(market, bid ? Side.BID : Side.ASK, (bid ? 96 : 100) + random.nextInt(5), 5 + random.nextInt(11),
                TimeInForce.GTC));
            mine.add(new Placed(new OrderId(h.lastDigest), market));
        }
        else if (kind < 60)
        {
            // a taker through the whole range, small: it fills makers in part
            final boolean bid = random.nextBoolean();
            h.act(account,
                order(market, bid ? Side.BID : Side.ASK, bid ? 104 : 96, 1 + random.nextInt(4), TimeInForce.IOC));
        }
        else if (kind < 90)
        {
            h.act(account, amend(recent(mine)));
        }
        else if (kind < 94)
        {
            h.act(account, new Cancel(recent(mine).id()));
        }
        else
        {
            final List<BatchLeg> legs = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++)
            {
                legs.add(random.nextInt(3) > 0 ? amend(recent(mine)) :
                    order(market, random.nextBoolean() ? Side.BID : Side.ASK, 98 + random.nextInt(5),
                        1 + random.nextInt(4), TimeInForce.GTC));
            }
            h.act(account, new Batch(legs));
        }
    }

    /** A new price at which the order may rest or trade, and a quantity above or below what it may have left. */
    private Amend amend(final Placed order)
    {
        return new Amend(order.id(), (96 + random.nextInt(9)) * UNIT, (1 + random.nextInt(15)) * UNIT);
    }

    private Placed recent(final List<Placed> mine)
    {
        return mine.get(mine.size() - 1 - random.nextInt(Math.min(mine.size(), 6)));
    }

    private static SpotPlaceOrder order(final long market, final Side side, final long price, final long qty,
        final TimeInForce tif)
    {
        return new SpotPlaceOrder(market, null, side, price * UNIT, qty * UNIT, null, tif, false, false,
            SpotPlaceOrder.NO_EXPIRY);
    }
}
