package io.venue.bench.peer;

import exchange.core2.core.common.CoreSymbolSpecification;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.OrderType;
import exchange.core2.core.common.SymbolType;
import exchange.core2.core.common.api.ApiAddUser;
import exchange.core2.core.common.api.ApiAdjustUserBalance;
import exchange.core2.core.common.api.ApiCancelOrder;
import exchange.core2.core.common.api.ApiCommand;
import exchange.core2.core.common.api.ApiMoveOrder;
import exchange.core2.core.common.api.ApiPlaceOrder;
import exchange.core2.core.common.api.ApiReduceOrder;
import io.venue.action.ActionPayload;
import io.venue.action.Amend;
import io.venue.action.Cancel;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.bench.workload.ExchangeCoreWorkload;
import io.venue.sequencer.ActionCommandDecoder;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The command stream of {@link ExchangeCoreWorkload}, record for record, as exchange-core's API commands: a place is
 * a place (price in ticks, size in lots, the id the order has in our stream), an amend to a new price is a move, an
 * amend at the same price is a reduce to the new size, a cancel is a cancel. Built once, outside the measurement, as
 * exchange-core's own benchmarks prepare their commands.
 * <p>
 * One difference the API forces: exchange-core's move has no size, so an amend that moves an order and also sets its
 * size moves it with the size it had. The books of the two engines then drift apart in their sizes, and with them
 * which orders IOCs fill, so a few amends and cancels of our stream name orders that exchange-core has already seen
 * filled, which it refuses. {@link PeerBookModel} follows the translated stream with exchange-core's rules: it gives
 * each reduce its size and tells the book (and the count of refusals) that exchange-core must end with.
 */
final class PeerStream
{
    /** What each account gets of both currencies: far more than any order here can lock. */
    static final long FUNDS = 1_000_000_000_000_000L;
    /**
     * A bid locks its size at this price (in ticks) and cannot be moved above it: far above any price of the stream,
     * and small enough that all the bids of one account stay within {@link #FUNDS}.
     */
    static final long RESERVE_BID_PRICE = 1_000_000_000L;

    private final CoreSymbolSpecification symbol;
    private final List<ApiCommand> setup;
    private final List<ApiCommand> measured;
    private final BookLevels expectedBook;
    private final long expectedRefusals;
    private final long[] mix;

    private PeerStream(final CoreSymbolSpecification symbol, final List<ApiCommand> setup,
        final List<ApiCommand> measured, final BookLevels expectedBook, final long expectedRefusals, final long[] mix)
    {
        this.symbol = symbol;
        this.setup = setup;
        this.measured = measured;
        this.expectedBook = expectedBook;
        this.expectedRefusals = expectedRefusals;
        this.mix = mix;
    }

    static PeerStream translate(final ExchangeCoreWorkload workload)
    {
        final Translator translator = new Translator(workload.setupCommands());
        workload.forEach(translator::onCommand);
        return translator.result();
    }

    CoreSymbolSpecification symbol()
    {
        return symbol;
    }

    /** Users, their funds and the resting orders the workload starts from: applied before the clock starts. */
    List<ApiCommand> setup()
    {
        return setup;
    }

    List<ApiCommand> measured()
    {
        return measured;
    }

    /** The book exchange-core must hold after the whole stream. */
    BookLevels expectedBook()
    {
        return expectedBook;
    }

    /** The measured commands exchange-core must refuse (orders it no longer holds). */
    long expectedRefusals()
    {
        return expectedRefusals;
    }

    String mix()
    {
        final double total = measured.size();
        return String.format(Locale.ROOT, "GTC %.1f%%, IOC %.1f%%, move %.1f%%, cancel %.1f%%, reduce %.1f%%",
            100 * mix[0] / total, 100 * mix[1] / total, 100 * mix[2] / total, 100 * mix[3] / total,
            100 * mix[4] / total);
    }

    private static final class Translator
    {
        private static final int SYMBOL = 1;

        private final ActionCommandDecoder decoder = new ActionCommandDecoder();
        private final byte[] digest = new byte[32];
        private final PeerBookModel model = new PeerBookModel();
        private final Map<String, Long> uids = new HashMap<>();
        /** The price each order has in our stream, to tell a move from a reduce whatever the model holds. */
        private final Map<Long, Long> prices = new HashMap<>();
        private final List<ApiCommand> setup = new ArrayList<>();
        private final List<ApiCommand> measured = new ArrayList<>();
        private final long[] mix = new long[5];
        private final int setupCommands;
        private CoreSymbolSpecification symbol;
        private long tick;
        private long lot;
        private int index;
        private long refusalsInSetup;
        private long transactions;

        Translator(final int setupCommands)
        {
            this.setupCommands = setupCommands;
        }

        void onCommand(final DirectBuffer buffer, final int offset, final int length)
        {
            final ActionPayload payload = decoder.decode(buffer, offset, length);
            if (index++ == setupCommands)
            {
                refusalsInSetup = model.refused();
            }
            final List<ApiCommand> out = index <= setupCommands ? setup : measured;
            if (payload.action() instanceof CreateSpotMarket market)
            {
                tick = market.tickSize();
                lot = market.lotSize();
                symbol = CoreSymbolSpecification.builder().symbolId(SYMBOL).type(SymbolType.CURRENCY_EXCHANGE_PAIR)
                    .baseCurrency((int)market.baseAsset()).quoteCurrency((int)market.quoteAsset())
                    .baseScaleK(1).quoteScaleK(1).takerFee(0).makerFee(0).build();
            }
            else if (payload.action() instanceof Deposit deposit)
            {
                // accounts become users 1, 2, ... in the order of their first deposit
                Long uid = uids.get(deposit.account().toString());
                if (null == uid)
                {
                    uid = uids.size() + 1L;
                    uids.put(deposit.account().toString(), uid);
                    out.add(ApiAddUser.builder().uid(uid).build());
                }
                out.add(ApiAdjustUserBalance.builder().uid(uid).currency((int)deposit.asset()).amount(FUNDS)
                    .transactionId(++transactions).build());
            }
            else if (payload.action() instanceof SpotPlaceOrder place)
            {
                decoder.envelope().getDigest(digest, 0, 32);
                final long orderId = idOf(digest);
                final long uid = uids.get(payload.account().toString());
                final boolean bid = place.side() == Side.BID;
                final boolean ioc = place.timeInForce() == TimeInForce.IOC;
                final long price = place.price() / tick;
                final long size = place.qty() / lot;
                prices.put(orderId, place.price());
                model.place(orderId, uid, bid, price, size, ioc);
                out.add(ApiPlaceOrder.builder().symbol(SYMBOL).uid(uid).orderId(orderId).price(price).size(size)
                    .reservePrice(bid ? RESERVE_BID_PRICE : price).action(bid ? OrderAction.BID : OrderAction.ASK)
                    .orderType(ioc ? OrderType.IOC : OrderType.GTC).build());
                count(out, ioc ? 1 : 0);
            }
            else if (payload.action() instanceof Amend amend)
            {
                final long orderId = idOf(amend.orderId().toBytes());
                final long uid = uids.get(payload.account().toString());
                final Long before = prices.put(orderId, amend.price());
                if (null == before || before != amend.price())
                {
                    model.move(orderId, uid, amend.price() / tick);
                    out.add(ApiMoveOrder.builder().symbol(SYMBOL).uid(uid).orderId(orderId)
                        .newPrice(amend.price() / tick).build());
                    count(out, 2);
                }
                else
                {
                    // a reduce of what exchange-core's order has left; of 0 (refused) when it has nothing left
                    final long by = model.remaining(orderId, uid) - amend.qty() / lot;
                    final long asked = model.remaining(orderId, uid) == 0 ? 1 : by;
                    model.reduce(orderId, uid, asked);
                    out.add(ApiReduceOrder.builder().symbol(SYMBOL).uid(uid).orderId(orderId).reduceSize(asked)
                        .build());
                    count(out, 4);
                }
            }
            else if (payload.action() instanceof Cancel cancel)
            {
                final long orderId = idOf(cancel.orderId().toBytes());
                final long uid = uids.get(payload.account().toString());
                model.cancel(orderId, uid);
                out.add(ApiCancelOrder.builder().symbol(SYMBOL).uid(uid).orderId(orderId).build());
                count(out, 3);
            }
            // the assets themselves have no command: exchange-core knows currencies by number
        }

        /** The mix of the measured commands only, as the workload reports its own. */
        private void count(final List<ApiCommand> out, final int kind)
        {
            if (out == measured)
            {
                mix[kind]++;
            }
        }

        PeerStream result()
        {
            if (index <= setupCommands)
            {
                refusalsInSetup = model.refused();
            }
            if (refusalsInSetup != 0)
            {
                throw new IllegalStateException(refusalsInSetup + " setup commands would be refused");
            }
            return new PeerStream(symbol, setup, measured, model.levels(), model.refused(), mix);
        }

        /** The stream's ids are a counter in the last 8 bytes of the digest (see ExchangeCoreWorkload). */
        private static long idOf(final byte[] bytes)
        {
            long id = 0;
            for (int i = 24; i < 32; i++)
            {
                id = id << 8 | (bytes[i] & 0xFF);
            }
            return id;
        }
    }
}
