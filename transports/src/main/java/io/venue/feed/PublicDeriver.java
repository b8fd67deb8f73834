package io.venue.feed;

import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.BookDeltaDecoder;
import io.venue.journal.sbe.KillSwitchChangedDecoder;
import io.venue.journal.sbe.MarketCreatedDecoder;
import io.venue.journal.sbe.MarketStatusChangedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.TradeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The public channels' state and frames: the markets listed, each book's levels, and per command at most one frame
 * per channel — a book delta carrying every level the command changed (each at its new total), the command's
 * trades, the new best bid and offer when it moved, and the listings, halts and kill switches on {@code status}.
 */
final class PublicDeriver
{
    private final int maxMarkets;
    private final int windowFrames;
    private final long windowBytes;
    private final Long2ObjectHashMap<Market> markets = new Long2ObjectHashMap<>();
    private final PublicChannel status;
    private final List<MarketBook> touched = new ArrayList<>();
    private final JsonBytes statusEvents = new JsonBytes();
    private final BookChecksum checksum = new BookChecksum();
    private final BookDeltaDecoder delta = new BookDeltaDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final MarketCreatedDecoder created = new MarketCreatedDecoder();
    private final MarketStatusChangedDecoder statusChanged = new MarketStatusChangedDecoder();
    private final KillSwitchChangedDecoder kill = new KillSwitchChangedDecoder();
    private long engineSeq;
    private long ts;
    private long marketsIgnored;

    PublicDeriver(final int maxMarkets, final int windowFrames, final long windowBytes)
    {
        this.maxMarkets = maxMarkets;
        this.windowFrames = windowFrames;
        this.windowBytes = windowBytes;
        status = new PublicChannel("status", ChannelName.Kind.STATUS, windowFrames, windowBytes);
    }

    PublicChannel status()
    {
        return status;
    }

    Market market(final long id)
    {
        return markets.get(id);
    }

    /** The book's state, or null for an unknown market or a book the market does not have. */
    MarketBook book(final long market, final int book)
    {
        final Market m = markets.get(market);
        return null == m ? null : m.book(book);
    }

    /** Listings past {@code maxMarkets}, which the feed does not follow. */
    long marketsIgnored()
    {
        return marketsIgnored;
    }

    void begin(final long engineSeq, final long ts)
    {
        this.engineSeq = engineSeq;
        this.ts = ts;
    }

    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        final int body = offset + JournalRecords.HEADER_LENGTH;
        switch (header.templateId())
        {
            case BookDeltaDecoder.TEMPLATE_ID:
                delta.wrap(buffer, body, header.blockLength(), header.version());
                onDelta();
                break;
            case TradeDecoder.TEMPLATE_ID:
                trade.wrap(buffer, body, header.blockLength(), header.version());
                onTrade();
                break;
            case MarketCreatedDecoder.TEMPLATE_ID:
                created.wrap(buffer, body, header.blockLength(), header.version());
                onCreated();
                break;
            case MarketStatusChangedDecoder.TEMPLATE_ID:
                statusChanged.wrap(buffer, body, header.blockLength(), header.version());
                statusEvents.comma().ch('{');
                statusEvents.key("event").ascii("\"market_status\"");
                statusEvents.key("market").num(statusChanged.market());
                statusEvents.key("status").ascii(statusChanged.statusRaw() == 1 ? "\"halted\"" : "\"active\"");
                statusEvents.ch('}');
                break;
            case KillSwitchChangedDecoder.TEMPLATE_ID:
                kill.wrap(buffer, body, header.blockLength(), header.version());
                onKill();
                break;
            default:
                break;
        }
    }

    private MarketBook touch(final long market, final int book)
    {
        final MarketBook b = book(market, book);
        if (null != b && !b.touched)
        {
            b.touched = true;
            touched.add(b);
        }
        return b;
    }

    private void onDelta()
    {
        final MarketBook b = touch(delta.market(), delta.bookRaw());
        if (null == b)
        {
            return;
        }
        final int side = delta.sideRaw();
        b.levels.set(side, delta.price(), delta.levelQty());
        (side == 0 ? b.changedBids : b.changedAsks).set(delta.price(), 1);
    }

    private void onTrade()
    {
        final MarketBook b = touch(trade.market(), trade.bookRaw());
        if (null == b)
        {
            return;
        }
        final boolean buy = trade.takerSideRaw() == 0;
        b.trades.comma().ch('{');
        b.trades.key("price").num(trade.price());
        b.trades.key("qty").num(trade.qty());
        b.trades.key("side").ascii(buy ? "\"buy\"" : "\"sell\"");
        b.trades.ch('}');
        b.recordTrade(trade.price(), trade.qty(), buy, engineSeq, ts);
    }

    private void onCreated()
    {
        final long id = created.market();
        final boolean outcome = created.kindRaw() == 1;
        if (markets.containsKey(id))
        {
            return;
        }
        if (markets.size() >= maxMarkets)
        {
            marketsIgnored++;
            return;
        }
        markets.put(id, new Market(id, outcome, windowFrames, windowBytes));
        statusEvents.comma().ch('{');
        statusEvents.key("event").ascii("\"market_created\"");
        statusEvents.key("market").num(id);
        statusEvents.key("kind").ascii(outcome ? "\"outcome\"" : "\"spot\"");
        if (outcome)
        {
            statusEvents.key("collateralAsset").num(created.collateralAsset());
        }
        else
        {
            statusEvents.key("baseAsset").num(created.baseAsset());
            statusEvents.key("quoteAsset").num(created.quoteAsset());
        }
        statusEvents.key("tickSize").num(created.tickSize());
        statusEvents.key("lotSize").num(created.lotSize());
        statusEvents.key("minQty").num(created.minQty());
        statusEvents.ch('}');
    }

    /** Market and venue switches are public; an account's goes to its own {@code orders} channel. */
    private void onKill()
    {
        final int scope = kill.scopeRaw();
        if (scope == 0)
        {
            return;
        }
        statusEvents.comma().ch('{');
        statusEvents.key("event").ascii("\"kill_switch\"");
        statusEvents.key("scope").ascii(scope == 1 ? "\"market\"" : "\"venue\"");
        if (scope == 1)
        {
            statusEvents.key("market").num(kill.market());
        }
        statusEvents.key("active").ascii(kill.activeRaw() == 1 ? "true" : "false");
        statusEvents.ch('}');
    }

    /** Writes the command's frames: status, then per book touched (in the order touched) book, trades, bbo. */
    void end(final FrameWriter writer, final FrameSink sink)
    {
        if (!statusEvents.isEmpty())
        {
            final JsonBytes out = writer.begin(status.name(), FrameWriter.EVENT, status.nextSeq(), engineSeq, ts,
                false);
            out.key("events").ch('[').append(statusEvents).ch(']');
            sink.onPublic(status, new FeedFrame(status.name(), status.nextSeq(), false, writer.finish()),
                engineSeq, ts);
            statusEvents.reset();
        }
        for (int i = 0, n = touched.size(); i < n; i++)
        {
            final MarketBook b = touched.get(i);
            endBook(b, writer, sink);
            b.touched = false;
            b.changedBids.clear();
            b.changedAsks.clear();
            b.trades.reset();
        }
        touched.clear();
    }

    private void endBook(final MarketBook b, final FrameWriter writer, final FrameSink sink)
    {
        if (b.changedBids.count() > 0 || b.changedAsks.count() > 0)
        {
            final PublicChannel channel = b.bookChannel;
            final JsonBytes out = writer.begin(channel.name(), FrameWriter.DELTA, channel.nextSeq(), engineSeq, ts,
                false);
            out.key("bids");
            changed(b.changedBids, b.levels.bids(), out);
            out.key("asks");
            changed(b.changedAsks, b.levels.asks(), out);
            out.key("checksum").num(checksum.of(b.levels));
            sink.onPublic(channel, new FeedFrame(channel.name(), channel.nextSeq(), false, writer.finish()),
                engineSeq, ts);
        }
        if (!b.trades.isEmpty())
        {
            final PublicChannel channel = b.tradesChannel;
            final JsonBytes out = writer.begin(channel.name(), FrameWriter.EVENT, channel.nextSeq(), engineSeq, ts,
                false);
            out.key("trades").ch('[').append(b.trades).ch(']');
            sink.onPublic(channel, new FeedFrame(channel.name(), channel.nextSeq(), false, writer.finish()),
                engineSeq, ts);
        }
        final Levels bids = b.levels.bids();
        final Levels asks = b.levels.asks();
        final long bidPrice = bids.count() > 0 ? bids.price(0) : 0;
        final long bidQty = bids.count() > 0 ? bids.qty(0) : 0;
        final long askPrice = asks.count() > 0 ? asks.price(0) : 0;
        final long askQty = asks.count() > 0 ? asks.qty(0) : 0;
        if (bidPrice != b.bidPrice || bidQty != b.bidQty || askPrice != b.askPrice || askQty != b.askQty)
        {
            b.bidPrice = bidPrice;
            b.bidQty = bidQty;
            b.askPrice = askPrice;
            b.askQty = askQty;
            final PublicChannel channel = b.bboChannel;
            bbo(b, writer.begin(channel.name(), FrameWriter.EVENT, channel.nextSeq(), engineSeq, ts, false));
            sink.onPublic(channel, new FeedFrame(channel.name(), channel.nextSeq(), true, writer.finish()),
                engineSeq, ts);
        }
    }

    /** The changed levels, best first, each at its total now (0: removed). */
    private static void changed(final Levels changed, final Levels book, final JsonBytes out)
    {
        out.ch('[');
        for (int i = 0; i < changed.count(); i++)
        {
            final long price = changed.price(i);
            out.comma().ch('[').num(price).ch(',').num(book.qtyAt(price)).ch(']');
        }
        out.ch(']');
    }

    static void bbo(final MarketBook b, final JsonBytes out)
    {
        out.key("bid");
        level(b.bidPrice, b.bidQty, out);
        out.key("ask");
        level(b.askPrice, b.askQty, out);
    }

    private static void level(final long price, final long qty, final JsonBytes out)
    {
        if (qty == 0)
        {
            out.ascii("null");
        }
        else
        {
            out.ch('[').num(price).ch(',').num(qty).ch(']');
        }
    }

    /** A book snapshot frame of the channel's current state (seq: its last frame's), full depth or {@code depth}. */
    byte[] snapshot(final MarketBook b, final FrameWriter writer, final int depth)
    {
        final PublicChannel channel = b.bookChannel;
        final JsonBytes out = writer.begin(channel.name(), FrameWriter.SNAPSHOT, channel.seq(), channel.engineSeq(),
            channel.ts(), false);
        levels(b, depth, out);
        return writer.finish();
    }

    /** {@code "bids":[…],"asks":[…],"checksum":C} of the book, at most {@code depth} levels a side. */
    void levels(final MarketBook b, final int depth, final JsonBytes out)
    {
        out.key("bids");
        side(b.levels.bids(), depth, out);
        out.key("asks");
        side(b.levels.asks(), depth, out);
        out.key("checksum").num(checksum.of(b.levels));
    }

    private static void side(final Levels levels, final int depth, final JsonBytes out)
    {
        out.ch('[');
        final int n = Math.min(depth, levels.count());
        for (int i = 0; i < n; i++)
        {
            out.comma().ch('[').num(levels.price(i)).ch(',').num(levels.qty(i)).ch(']');
        }
        out.ch(']');
    }

    byte[] bboSnapshot(final MarketBook b, final FrameWriter writer)
    {
        final PublicChannel channel = b.bboChannel;
        bbo(b, writer.begin(channel.name(), FrameWriter.SNAPSHOT, channel.seq(), channel.engineSeq(), channel.ts(),
            false));
        return writer.finish();
    }
}
