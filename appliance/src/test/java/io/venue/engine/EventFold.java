package io.venue.engine;

import io.venue.engine.book.OrderBook;
import io.venue.journal.sbe.AssetCreatedDecoder;
import io.venue.journal.sbe.BalanceChangedDecoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BookDeltaDecoder;
import io.venue.journal.sbe.MarketCreatedDecoder;
import io.venue.journal.sbe.MarketKind;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.OrderRestedDecoder;
import io.venue.journal.sbe.PositionChangedDecoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Rebuilds every balance, position, open order and book level from the event stream alone, knowing nothing of
 * the commands or the engine, and checks them against an engine's state: the proof that the events say everything
 * that happened (ENGINE.md, "Events"). Each order's fills are summed from its trades over the id's whole life (an
 * amend that takes it out and enters it again keeps the id), and every event that states a size must say as much;
 * except that an {@code OrderAccepted} of journal version 4 or 5 (the version of the command that caused it) starts
 * the sum again from 0, as the amends of those versions entered an order again (JOURNAL-SCHEMA.md, section 9).
 */
final class EventFold
{
    private record Balance(long available, long locked)
    {
    }

    private record Position(long yes, long yesLocked, long no, long noLocked)
    {
    }

    private record Order(String account, long market, int book, boolean bid, long price, long remaining, long filled)
    {
    }

    private record Level(long qty, int count)
    {
    }

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
    private final OrderRestedDecoder rested = new OrderRestedDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final OrderDoneDecoder done = new OrderDoneDecoder();
    private final OrderAmendedDecoder amended = new OrderAmendedDecoder();
    private final BalanceChangedDecoder balance = new BalanceChangedDecoder();
    private final PositionChangedDecoder position = new PositionChangedDecoder();
    private final BookDeltaDecoder delta = new BookDeltaDecoder();
    private final MarketCreatedDecoder marketCreated = new MarketCreatedDecoder();
    private final AssetCreatedDecoder assetCreated = new AssetCreatedDecoder();

    private final Map<String, Balance> balances = new HashMap<>();
    private final Map<String, Position> positions = new HashMap<>();
    private final Map<String, Order> orders = new HashMap<>();
    /**
     * Every trade's quantity by order id, maker or taker, until the order is done, or since its last OrderAccepted of
     * a version before 6.
     */
    private final Map<String, Long> fills = new HashMap<>();
    private final Map<String, Level> levels = new HashMap<>();
    private final Set<Long> assets = new HashSet<>();
    private final Set<Long> outcomeMarkets = new HashSet<>();

    /** Folds the events of an {@link EventLog}'s bytes (each one after its little-endian length). */
    static EventFold of(final byte[] log)
    {
        final EventFold fold = new EventFold();
        final UnsafeBuffer buffer = new UnsafeBuffer(log);
        for (int at = 0; at < log.length; )
        {
            final int length = buffer.getInt(at, ByteOrder.LITTLE_ENDIAN);
            fold.apply(buffer, at + 4);
            at += 4 + length;
        }
        return fold;
    }

    private void apply(final DirectBuffer buffer, final int offset)
    {
        header.wrap(buffer, offset);
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int block = header.blockLength();
        final int version = header.version();
        switch (header.templateId())
        {
            case OrderAcceptedDecoder.TEMPLATE_ID ->
            {
                accepted.wrap(buffer, body, block, version);
                final String id = hex(buffer, body + OrderAcceptedDecoder.orderIdEncodingOffset(), 32);
                if (version < 6)
                {
                    // an amend of version 4 or 5 entered the order again as a new size: what it filled before is not in
                    // it (the version told here, not by the engine's JournalRecords.keepsFilledOnReentry, which is
                    // under test)
                    fills.remove(id);
                }
                assertEquals(filled(id), accepted.qty() - accepted.remaining(),
                    "OrderAccepted's size less its quantity: " + id);
            }
            case OrderRestedDecoder.TEMPLATE_ID ->
            {
                rested.wrap(buffer, body, block, version);
                final String id = hex(buffer, body + OrderRestedDecoder.orderIdEncodingOffset(), 32);
                assertEquals(filled(id), rested.qty() - rested.remaining(),
                    "OrderRested's size less its remaining: " + id);
                orders.put(id,
                    new Order(hex(buffer, body + OrderRestedDecoder.accountEncodingOffset(), 20), rested.market(),
                    which(rested.book()), rested.side() == Side.BID, rested.price(), rested.remaining(), filled(id)));
            }
            case TradeDecoder.TEMPLATE_ID ->
            {
                trade.wrap(buffer, body, block, version);
                final String maker = hex(buffer, body + TradeDecoder.makerOrderIdEncodingOffset(), 32);
                fills.merge(maker, trade.qty(), Long::sum);
                fills.merge(hex(buffer, body + TradeDecoder.takerOrderIdEncodingOffset(), 32), trade.qty(), Long::sum);
                final Order order = orders.get(maker);
                assertNotNull(order, "a trade's maker must have rested: " + maker);
                orders.put(maker, new Order(order.account(), order.market(), order.book(), order.bid(), order.price(),
                    trade.makerRemaining(), filled(maker)));
            }
            case OrderAmendedDecoder.TEMPLATE_ID ->
            {
                amended.wrap(buffer, body, block, version);
                final String id = hex(buffer, body + OrderAmendedDecoder.orderIdEncodingOffset(), 32);
                final Order order = orders.get(id);
                assertNotNull(order, "an amended order must have rested: " + id);
                assertEquals(filled(id), amended.qty() - amended.remaining(),
                    "OrderAmended's size less its remaining: " + id);
                orders.put(id, new Order(order.account(), order.market(), order.book(), order.bid(), amended.price(),
                    amended.remaining(), filled(id)));
            }
            case OrderDoneDecoder.TEMPLATE_ID ->
            {
                final String id = hex(buffer, body + OrderDoneDecoder.orderIdEncodingOffset(), 32);
                orders.remove(id);
                fills.remove(id);
            }
            case BalanceChangedDecoder.TEMPLATE_ID ->
            {
                balance.wrap(buffer, body, block, version);
                balances.put(
                    hex(buffer, body + BalanceChangedDecoder.accountEncodingOffset(), 20) + "/" + balance.asset(),
                    new Balance(balance.available(), balance.locked()));
            }
            case PositionChangedDecoder.TEMPLATE_ID ->
            {
                position.wrap(buffer, body, block, version);
                positions.put(
                    hex(buffer, body + PositionChangedDecoder.accountEncodingOffset(), 20) + "/" + position.market(),
                    new Position(position.yes(), position.yesLocked(), position.no(), position.noLocked()));
            }
            case BookDeltaDecoder.TEMPLATE_ID ->
            {
                delta.wrap(buffer, body, block, version);
                final String level = levelKey(delta.market(), which(delta.book()),
                    delta.side() == Side.BID, delta.price());
                if (delta.levelQty() == 0)
                {
                    levels.remove(level);
                }
                else
                {
                    levels.put(level, new Level(delta.levelQty(), (int)delta.orderCount()));
                }
            }
            case MarketCreatedDecoder.TEMPLATE_ID ->
            {
                marketCreated.wrap(buffer, body, block, version);
                if (marketCreated.kind() == MarketKind.OUTCOME)
                {
                    outcomeMarkets.add(marketCreated.market());
                }
            }
            case AssetCreatedDecoder.TEMPLATE_ID ->
            {
                assetCreated.wrap(buffer, body, block, version);
                assets.add(assetCreated.asset());
            }
            default ->
            {
                // the rest says nothing of balances, orders or books
            }
        }
    }

    /** Checks that what the events say equals the engine's state: every balance, position, open order and level. */
    void check(final EngineView view)
    {
        for (int account = 0; account < view.accountCount(); account++)
        {
            final String address = HexFormat.of().formatHex(view.addressOf(account));
            for (final long asset : assets)
            {
                final Balance folded = balances.getOrDefault(address + "/" + asset, new Balance(0, 0));
                assertEquals(folded,
                    new Balance(view.available(account, view.asset(asset)), view.locked(account, view.asset(asset))),
                    "balance of " + address + " in asset " + asset);
            }
            for (final long market : outcomeMarkets)
            {
                final int yes = view.yesAsset(market);
                final int no = view.noAsset(market);
                assertEquals(positions.getOrDefault(address + "/" + market, new Position(0, 0, 0, 0)),
                    new Position(view.available(account, yes), view.locked(account, yes), view.available(account, no),
                        view.locked(account, no)), "position of " + address + " in market " + market);
            }
        }
        final Map<String, Order> open = new HashMap<>();
        final Map<String, Level> bookLevels = new HashMap<>();
        final byte[] id = new byte[32];
        forEachResting(view, new Resting()
        {
            @Override
            // FQN-CLASH: the action's Side (Side here is the codec's)
            public void level(final long market, final int which, final OrderBook book, final io.venue.action.Side side,
                final int depth)
            {
                // FQN-CLASH: the action's Side (Side here is the codec's)
                bookLevels.put(levelKey(market, which, side == io.venue.action.Side.BID, book.levelPrice(side, depth)),
                    new Level(book.levelQty(side, depth), book.levelOrderCount(side, depth)));
            }

            @Override
            // FQN-CLASH: the action's Side (Side here is the codec's)
            public void order(final long market, final int which, final OrderBook book,
                // FQN-CLASH: the action's Side (Side here is the codec's)
                final io.venue.action.Side side, final int slot)
            {
                book.orderIdInto(slot, id, 0);
                open.put(HexFormat.of().formatHex(id),
                    new Order(HexFormat.of().formatHex(view.addressOf(book.accountOf(slot))),
                    // FQN-CLASH: the action's Side (Side here is the codec's)
                    market, which, side == io.venue.action.Side.BID, book.priceOf(slot), book.remainingOf(slot),
                    book.filledOf(slot)));
            }
        });
        assertEquals(open, orders, "the open orders");
        assertEquals(bookLevels, levels, "the book levels");
    }

    /** Visits every book's levels, best first, and each level's orders in time priority. */
    interface Resting
    {
        // FQN-CLASH: the action's Side (Side here is the codec's)
        default void level(final long market, final int which, final OrderBook book, final io.venue.action.Side side,
            final int depth)
        {
        }

        // FQN-CLASH: the action's Side (Side here is the codec's)
        void order(long market, int which, OrderBook book, io.venue.action.Side side, int slot);
    }

    static void forEachResting(final EngineView view, final Resting resting)
    {
        for (int m = 0; m < view.marketCount(); m++)
        {
            final long market = view.marketId(m);
            for (int which = 0; which < 2; which++)
            {
                final OrderBook book = view.book(market, which);
                if (book == null)
                {
                    continue;
                }
                // FQN-CLASH: the action's Side (Side here is the codec's)
                for (final io.venue.action.Side side : io.venue.action.Side.values())
                {
                    for (int depth = 0; depth < book.levelCount(side); depth++)
                    {
                        resting.level(market, which, book, side, depth);
                        for (int slot = book.levelHead(side, depth); slot != OrderBook.NULL_SLOT;
                            slot = book.nextInLevel(slot))
                        {
                            resting.order(market, which, book, side, slot);
                        }
                    }
                }
            }
        }
    }

    private long filled(final String id)
    {
        return fills.getOrDefault(id, 0L);
    }

    private static int which(final Book book)
    {
        return book == Book.NO ? 1 : 0;
    }

    private static String levelKey(final long market, final int which, final boolean bid, final long price)
    {
        return market + "/" + which + "/" + (bid ? "bid" : "ask") + "/" + price;
    }

    private static String hex(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
