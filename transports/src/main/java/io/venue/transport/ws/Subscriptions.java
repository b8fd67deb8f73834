package io.venue.transport.ws;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One connection's subscriptions as the limits see them (spec 6, 8.3): at most {@code maxSubscriptions} channels,
 * and on a public connection channels of at most {@code maxMarkets} distinct markets. A channel counts from the
 * request that names it (so a burst of subscribes cannot pass the limit before the feed answers) until it is
 * unsubscribed, or the feed refuses the request. Event loop only.
 */
final class Subscriptions
{
    /** The market channels' kinds: {@code kind.{market}} with an optional book suffix. */
    private static final Set<String> MARKET_KINDS = Set.of("book", "trades", "bbo");

    private final int maxSubscriptions;
    /** 0: no market limit (a private connection). */
    private final int maxMarkets;
    private final Set<String> channels = new HashSet<>();
    /**
     * Subscribe requests the feed has not answered yet, by id: their channels, given back if it refuses. Ids need not
     * be unique, and the feed answers a connection's requests in the order sent: each id keeps its requests in order.
     */
    private final Map<Long, ArrayDeque<List<String>>> pending = new HashMap<>();

    Subscriptions(final int maxSubscriptions, final int maxMarkets)
    {
        this.maxSubscriptions = maxSubscriptions;
        this.maxMarkets = maxMarkets;
    }

    /** Why subscribing to {@code requested} would pass a limit, or null (nothing is changed either way). */
    String overLimit(final List<String> requested)
    {
        final List<String> added = added(requested);
        if (channels.size() + added.size() > maxSubscriptions)
        {
            return "over " + maxSubscriptions + " subscriptions";
        }
        if (maxMarkets > 0)
        {
            final Set<String> markets = new HashSet<>();
            for (final String channel : channels)
            {
                addMarket(markets, channel);
            }
            for (final String channel : added)
            {
                addMarket(markets, channel);
            }
            if (markets.size() > maxMarkets)
            {
                return "over " + maxMarkets + " markets";
            }
        }
        return null;
    }

    /** Counts the channels of a subscribe the feed took. */
    void subscribed(final long requestId, final List<String> requested)
    {
        final List<String> added = added(requested);
        channels.addAll(added);
        pending.computeIfAbsent(requestId, id -> new ArrayDeque<>()).addLast(added);
    }

    void unsubscribed(final List<String> requested)
    {
        channels.removeAll(requested);
    }

    /** The feed answered a request: when it refused a subscribe, its channels no longer count. */
    void answered(final long requestId, final boolean refused)
    {
        final ArrayDeque<List<String>> requests = pending.get(requestId);
        final List<String> added = requests == null ? null : requests.pollFirst();
        if (requests != null && requests.isEmpty())
        {
            pending.remove(requestId);
        }
        if (refused && added != null)
        {
            channels.removeAll(added);
        }
    }

    boolean awaitingAnswers()
    {
        return !pending.isEmpty();
    }

    int size()
    {
        return channels.size();
    }

    private List<String> added(final List<String> requested)
    {
        final List<String> added = new ArrayList<>(requested.size());
        for (final String channel : requested)
        {
            if (!channels.contains(channel))
            {
                added.add(channel);
            }
        }
        return added;
    }

    /** {@code book.7}, {@code book.7.YES}, {@code trades.7}, {@code bbo.7.NO}: market 7; other channels none. */
    static String market(final String channel)
    {
        final int dot = channel.indexOf('.');
        if (dot < 0 || !MARKET_KINDS.contains(channel.substring(0, dot)))
        {
            return null;
        }
        final int end = channel.indexOf('.', dot + 1);
        return channel.substring(dot + 1, end < 0 ? channel.length() : end);
    }

    private static void addMarket(final Set<String> markets, final String channel)
    {
        final String market = market(channel);
        if (market != null)
        {
            markets.add(market);
        }
    }
}
