package io.venue.feed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A subscribe request's channels checked before anything changes: each parsed once, duplicates dropped. */
final class SubscribePlan
{
    /** Channels one request may name (the gateway's own limit per connection is lower). */
    static final int MAX_CHANNELS = 256;

    final List<ChannelName> names = new ArrayList<>();
    boolean hasPrivate;
    FeedError error;

    /** Parses the request's channels; returns null, or the error's message with {@link #error} set. */
    String parse(final List<String> channels, final String account)
    {
        if (null == channels || channels.isEmpty() || channels.size() > MAX_CHANNELS)
        {
            error = FeedError.INVALID_REQUEST;
            return "subscribe names 1 to " + MAX_CHANNELS + " channels";
        }
        final Set<String> seen = new HashSet<>();
        for (final String text : channels)
        {
            final ChannelName name = ChannelName.parse(text);
            if (null == name)
            {
                error = FeedError.UNKNOWN_CHANNEL;
                return "not a channel: " + cut(text);
            }
            if (!seen.add(name.name()))
            {
                continue;
            }
            if (name.isPrivate())
            {
                if (null == account)
                {
                    error = FeedError.AUTH_REQUIRED;
                    return "a private channel needs an authenticated account: " + name;
                }
                if (!MarketFeed.isAccount(account))
                {
                    error = FeedError.INVALID_ACCOUNT;
                    return "not an account: " + cut(account);
                }
                hasPrivate = true;
            }
            names.add(name);
        }
        return null;
    }

    static String cut(final String text)
    {
        if (null == text)
        {
            return "null";
        }
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
