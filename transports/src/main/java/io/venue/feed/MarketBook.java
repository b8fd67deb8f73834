package io.venue.feed;

/**
 * One book of one market (a spot market's, or an outcome market's YES or NO): its levels, its three channels,
 * what the command being applied changed, and its latest trades for the REST read.
 */
final class MarketBook
{
    static final int RECENT_TRADES = 1_000;

    final long market;
    final int book;
    final L2Book levels = new L2Book();
    final PublicChannel bookChannel;
    final PublicChannel tradesChannel;
    final PublicChannel bboChannel;

    /** What the current command changed: the levels (quantity unused), and its trades' text. */
    boolean touched;
    final Levels changedBids = new Levels(true);
    final Levels changedAsks = new Levels(false);
    final JsonBytes trades = new JsonBytes();

    /** The best bid and ask last published on the bbo channel; qty 0 for none. */
    long bidPrice;
    long bidQty;
    long askPrice;
    long askQty;

    private final long[] tradePrices = new long[RECENT_TRADES];
    private final long[] tradeQtys = new long[RECENT_TRADES];
    private final long[] tradeSeqs = new long[RECENT_TRADES];
    private final long[] tradeTimes = new long[RECENT_TRADES];
    private final boolean[] tradeBuys = new boolean[RECENT_TRADES];
    private int tradeHead;
    private int tradeCount;

    MarketBook(final long market, final int book, final int windowFrames, final long windowBytes)
    {
        this.market = market;
        this.book = book;
        bookChannel = new PublicChannel(ChannelName.name(ChannelName.Kind.BOOK, market, book),
            ChannelName.Kind.BOOK, windowFrames, windowBytes);
        tradesChannel = new PublicChannel(ChannelName.name(ChannelName.Kind.TRADES, market, book),
            ChannelName.Kind.TRADES, windowFrames, windowBytes);
        bboChannel = new PublicChannel(ChannelName.name(ChannelName.Kind.BBO, market, book),
            ChannelName.Kind.BBO, windowFrames, windowBytes);
    }

    PublicChannel channel(final ChannelName.Kind kind)
    {
        return kind == ChannelName.Kind.BOOK ? bookChannel : kind == ChannelName.Kind.TRADES ? tradesChannel :
            bboChannel;
    }

    void recordTrade(final long price, final long qty, final boolean takerBuys, final long engineSeq, final long ts)
    {
        final int at = (tradeHead + tradeCount) % RECENT_TRADES;
        tradePrices[at] = price;
        tradeQtys[at] = qty;
        tradeBuys[at] = takerBuys;
        tradeSeqs[at] = engineSeq;
        tradeTimes[at] = ts;
        if (tradeCount == RECENT_TRADES)
        {
            tradeHead = (tradeHead + 1) % RECENT_TRADES;
        }
        else
        {
            tradeCount++;
        }
    }

    /** The newest {@code limit} trades, newest first, as JSON objects into {@code out}. */
    void recentTrades(final int limit, final JsonBytes out)
    {
        out.ch('[');
        final int n = Math.min(limit, tradeCount);
        for (int i = 0; i < n; i++)
        {
            final int at = (tradeHead + tradeCount - 1 - i) % RECENT_TRADES;
            out.comma().ch('{');
            out.key("price").num(tradePrices[at]);
            out.key("qty").num(tradeQtys[at]);
            out.key("side").ascii(tradeBuys[at] ? "\"buy\"" : "\"sell\"");
            out.key("engineSeq").num(tradeSeqs[at]);
            out.key("ts").num(tradeTimes[at]);
            out.ch('}');
        }
        out.ch(']');
    }
}
