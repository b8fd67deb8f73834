package io.venue.feed;

import org.agrona.ErrorHandler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is subscribed to what: per connection its public channels and its account's private ones, and per account
 * the connections of each private channel (kept by the account's text, so a subscription may come before the
 * account's first event). Nothing per connection beyond its subscriptions.
 */
final class Subscriptions
{
    static final String SNAPSHOT = "snapshot";
    static final String RESUMED = "resumed";
    static final String RESUME_REQUIRED = "resume_required";
    static final String LIVE = "live";
    static final String ALREADY = "already_subscribed";

    /** One connection's subscriptions. */
    private static final class Subscriber
    {
        String account;
        final Map<String, PublicChannel> publicChannels = new HashMap<>();
        final boolean[] privateKinds = new boolean[AccountState.KINDS];

        boolean isEmpty()
        {
            if (!publicChannels.isEmpty())
            {
                return false;
            }
            for (final boolean kind : privateKinds)
            {
                if (kind)
                {
                    return false;
                }
            }
            return true;
        }
    }

    private final ErrorHandler errors;
    /**
     * The subscribers given a frame on the feed's thread since the last {@link #endBatch}, with repeats but for one
     * after itself (asking whether one is there already would cost more than telling it twice); the list's array is
     * kept from cycle to cycle.
     */
    private final ArrayList<FeedSubscriber> inBatch = new ArrayList<>();
    private final IdentityHashMap<FeedSubscriber, Subscriber> bySubscriber = new IdentityHashMap<>();
    private final Map<String, List<List<FeedSubscriber>>> byAccount = new HashMap<>();

    Subscriptions(final ErrorHandler errors)
    {
        this.errors = errors;
    }

    IdentityHashMap<FeedSubscriber, ?> bySubscriber()
    {
        return bySubscriber;
    }

    /** Connections with private subscriptions, by account (for tests of what is kept). */
    int accountsSubscribed()
    {
        return byAccount.size();
    }

    /** Whether the connection may take private channels of {@code account}: one account per connection. */
    boolean accountFits(final FeedSubscriber subscriber, final String account)
    {
        final Subscriber s = bySubscriber.get(subscriber);
        return null == s || null == s.account || s.account.equals(account);
    }

    boolean isSubscribed(final FeedSubscriber subscriber, final String channel)
    {
        final Subscriber s = bySubscriber.get(subscriber);
        if (null == s)
        {
            return false;
        }
        final ChannelName name = ChannelName.parse(channel);
        return null != name && (name.isPrivate() ? s.privateKinds[name.kind().privateIndex()] :
            s.publicChannels.containsKey(channel));
    }

    void addPublic(final FeedSubscriber subscriber, final PublicChannel channel)
    {
        bySubscriber.computeIfAbsent(subscriber, k -> new Subscriber()).publicChannels.put(channel.name(), channel);
        channel.subscribers().add(subscriber);
    }

    void addPrivate(final FeedSubscriber subscriber, final String account, final int kind)
    {
        final Subscriber s = bySubscriber.computeIfAbsent(subscriber, k -> new Subscriber());
        s.account = account;
        s.privateKinds[kind] = true;
        byAccount.computeIfAbsent(account, k ->
        {
            final List<List<FeedSubscriber>> lists = new ArrayList<>(AccountState.KINDS);
            for (int i = 0; i < AccountState.KINDS; i++)
            {
                lists.add(new ArrayList<>());
            }
            return lists;
        }).get(kind).add(subscriber);
    }

    /** Ends one subscription; false when the connection had none to it. */
    boolean removeOne(final FeedSubscriber subscriber, final ChannelName name)
    {
        final Subscriber s = bySubscriber.get(subscriber);
        if (null == s)
        {
            return false;
        }
        boolean removed = false;
        if (name.isPrivate())
        {
            final int kind = name.kind().privateIndex();
            if (s.privateKinds[kind])
            {
                s.privateKinds[kind] = false;
                removePrivate(subscriber, s.account, kind);
                removed = true;
            }
        }
        else
        {
            final PublicChannel channel = s.publicChannels.remove(name.name());
            if (null != channel)
            {
                channel.subscribers().remove(subscriber);
                removed = true;
            }
        }
        if (s.isEmpty())
        {
            bySubscriber.remove(subscriber);
        }
        return removed;
    }

    private void removePrivate(final FeedSubscriber subscriber, final String account, final int kind)
    {
        final List<List<FeedSubscriber>> lists = byAccount.get(account);
        if (null == lists)
        {
            return;
        }
        lists.get(kind).remove(subscriber);
        for (final List<FeedSubscriber> list : lists)
        {
            if (!list.isEmpty())
            {
                return;
            }
        }
        byAccount.remove(account);
    }

    /** Forgets a closed connection. */
    void remove(final FeedSubscriber subscriber)
    {
        final Subscriber s = bySubscriber.remove(subscriber);
        if (null == s)
        {
            return;
        }
        for (final PublicChannel channel : s.publicChannels.values())
        {
            channel.subscribers().remove(subscriber);
        }
        for (int kind = 0; kind < AccountState.KINDS; kind++)
        {
            if (s.privateKinds[kind])
            {
                removePrivate(subscriber, s.account, kind);
            }
        }
    }

    /** Whether a connection takes a private channel of {@code account}. */
    boolean hasPrivate(final String account)
    {
        return byAccount.containsKey(account);
    }

    void publishPrivate(final String account, final int kind, final FeedFrame frame)
    {
        final List<List<FeedSubscriber>> lists = byAccount.get(account);
        if (null == lists)
        {
            return;
        }
        final List<FeedSubscriber> subscribers = lists.get(kind);
        for (int i = 0, n = subscribers.size(); i < n; i++)
        {
            deliver(subscribers.get(i), frame);
        }
    }

    /** A frame on the feed's thread: delivered, and the subscriber told at the batch's end. */
    void deliver(final FeedSubscriber subscriber, final FeedFrame frame)
    {
        deliver(subscriber, frame, errors);
        final int n = inBatch.size();
        if (n == 0 || inBatch.get(n - 1) != subscriber)
        {
            inBatch.add(subscriber);
        }
    }

    /** Tells each subscriber given a frame since the last call that its batch ended (the feed's thread). */
    void endBatch()
    {
        for (int i = 0, n = inBatch.size(); i < n; i++)
        {
            try
            {
                inBatch.get(i).onBatchEnd();
            }
            catch (final RuntimeException ex)
            {
                errors.onError(ex);
            }
        }
        inBatch.clear();
    }

    /** A subscriber that throws is reported; the feed and the other subscribers carry on. */
    static void deliver(final FeedSubscriber subscriber, final FeedFrame frame, final ErrorHandler errors)
    {
        try
        {
            subscriber.onFrame(frame);
        }
        catch (final RuntimeException ex)
        {
            errors.onError(ex);
        }
    }
}
