package io.venue.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.venue.transport.http.OrderedAnswers.Slot;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.venue.transport.http.HttpResponses.error;
import static io.venue.transport.http.HttpResponses.json;

/**
 * The reconciliation reads the feed answers (docs/WEBSOCKET.md, "REST reconciliation reads"): a market's book and
 * its recent trades, stamped with their channel's {@code seq} so that a snapshot read here and the stream splice
 * exactly, and an account's open orders, balances and positions. Each is asked of the feed's thread and answered on
 * the event loop when it replies (or 504 after the answer timeout).
 */
final class FeedReads
{
    static final int DEFAULT_DEPTH = 100;
    static final int MAX_DEPTH = 10_000;
    static final int DEFAULT_TRADES = 100;
    static final int MAX_TRADES = 1_000;

    private final HttpGateway.Context context;
    private final OrderedAnswers answers;
    private final PrivateReadGate privateReads;

    FeedReads(final HttpGateway.Context context, final OrderedAnswers answers, final PrivateReadGate privateReads)
    {
        this.context = context;
        this.answers = answers;
        this.privateReads = privateReads;
    }

    /** Whether {@code path} is one of the market reads: {@code /api/v1/public/markets/{id}/book|trades}. */
    static boolean isMarketRead(final String path)
    {
        return path.startsWith(Routes.MARKETS) && (path.endsWith(Routes.BOOK) || path.endsWith(Routes.TRADES));
    }

    /** Whether {@code path} is one of an account's reads: {@code .../accounts/{account}/open-orders} and the like. */
    static String accountRead(final String path)
    {
        if (!path.startsWith(Routes.ACCOUNTS))
        {
            return null;
        }
        for (final Map.Entry<String, String> read : Routes.ACCOUNT_READS.entrySet())
        {
            if (path.endsWith(read.getKey()) && path.length() > Routes.ACCOUNTS.length() + read.getKey().length())
            {
                return read.getKey();
            }
        }
        return null;
    }

    /** GET /api/v1/public/markets/{marketId}/book?depth=&book= and .../trades?limit=&book=. */
    void market(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request, final String path)
    {
        if (!ReadRoutes.isRead(request.method()))
        {
            answers.fill(ctx, slot, HttpResponses.notAllowed(ReadRoutes.READ_METHODS));
            return;
        }
        if (context.feed == null)
        {
            answers.fill(ctx, slot,
                json(new SubmitResponse(404, error("NOT_FOUND", "this node serves no market data"))));
            return;
        }
        final boolean book = path.endsWith(Routes.BOOK);
        final String market = path.substring(Routes.MARKETS.length(),
            path.length() - (book ? Routes.BOOK : Routes.TRADES).length());
        if (!market.matches("0|[1-9][0-9]{0,9}") || Long.parseLong(market) > 0xFFFF_FFFFL)
        {
            answers.fill(ctx, slot, HttpResponses.badRequest("a market id is an integer from 0 to 4294967295"));
            return;
        }
        final Map<String, List<String>> query;
        try
        {
            query = new QueryStringDecoder(request.uri()).parameters();
        }
        catch (final IllegalArgumentException ex)
        {
            answers.fill(ctx, slot, HttpResponses.badRequest("the query does not decode: " + ex.getMessage()));
            return;
        }
        final String side = one(query, "book");
        if (side != null && !side.equals("YES") && !side.equals("NO"))
        {
            answers.fill(ctx, slot, HttpResponses.badRequest("book is YES or NO (an outcome market's books)"));
            return;
        }
        final String countName = book ? "depth" : "limit";
        final int count = count(one(query, countName), book ? DEFAULT_DEPTH : DEFAULT_TRADES,
            book ? MAX_DEPTH : MAX_TRADES);
        if (count < 0)
        {
            answers.fill(ctx, slot, HttpResponses.badRequest(countName + " is an integer from 1 to " +
                (book ? MAX_DEPTH : MAX_TRADES)));
            return;
        }
        if (!privateReads.admitAddress(ctx, slot))
        {
            return;
        }
        final long marketId = Long.parseLong(market);
        final Consumer<String> answer = answerer(ctx, slot, "UNKNOWN_MARKET",
            "no market " + marketId + (side == null ? "" : " with a " + side + " book") + " is listed");
        ask(ctx, slot, book ? context.feed.book(marketId, side, count, answer) :
            context.feed.trades(marketId, side, count, answer));
    }

    /** GET /api/v1/trading/accounts/{account}/open-orders, /balances and /positions, with a bearer token. */
    void account(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request, final String path,
        final String read)
    {
        if (context.feed == null && ReadRoutes.isRead(request.method()))
        {
            answers.fill(ctx, slot,
                json(new SubmitResponse(404, error("NOT_FOUND", "this node serves no account reads"))));
            return;
        }
        final String account = path.substring(Routes.ACCOUNTS.length(), path.length() - read.length());
        if (!privateReads.admit(ctx, slot, request, account))
        {
            return;
        }
        ask(ctx, slot, context.feed.account(account, Routes.ACCOUNT_READS.get(read),
            answerer(ctx, slot, "UNKNOWN_ACCOUNT", "the venue holds nothing for " + account)));
    }

    private void ask(final ChannelHandlerContext ctx, final Slot slot, final boolean queued)
    {
        if (queued)
        {
            answers.await(ctx, slot, "the feed did not answer within the answer timeout; ask again");
        }
        else
        {
            answers.fill(ctx, slot, json(new SubmitResponse(503,
                error("BUSY", "the feed has too many reads waiting; retry after the delay"), 1)));
        }
    }

    private Consumer<String> answerer(final ChannelHandlerContext ctx, final Slot slot, final String notFoundCode,
        final String notFound)
    {
        return body -> answers.answerLater(ctx, slot, () -> json(body == null ?
            new SubmitResponse(404, error(notFoundCode, notFound)) : new SubmitResponse(200, body)));
    }

    private static String one(final Map<String, List<String>> query, final String name)
    {
        final List<String> values = query.get(name);
        return values == null || values.size() != 1 ? null : values.get(0);
    }

    /** The count asked for, its default when absent, -1 when it is not an integer in 1..max. */
    private static int count(final String value, final int fallback, final int max)
    {
        if (value == null)
        {
            return fallback;
        }
        if (!value.matches("[1-9][0-9]{0,5}"))
        {
            return -1;
        }
        final int count = Integer.parseInt(value);
        return count <= max ? count : -1;
    }
}
