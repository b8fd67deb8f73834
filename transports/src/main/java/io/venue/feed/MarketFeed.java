package io.venue.feed;

import io.venue.journal.JournalRecords;
import io.venue.journal.RecordError;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.tuning.Doorbell;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The market data and private streams, derived from the event journal (and each command's stamped time from the
 * command journal) alone, on one thread: each duty cycle answers the queued requests, then reads new events and
 * publishes each command's frames. On start it reads the event journal from its beginning, rebuilding the books,
 * the channels' numbering and the replay windows, before it answers any request, so the frames and their
 * {@code seq} are the same on every node and after every restart.
 */
public final class MarketFeed implements Feed, Agent, AutoCloseable
{
    /** What the feed reads and how much it keeps, Aeron style: setters, defaults, {@link #conclude}. */
    public static final class Context
    {
        public static final int WINDOW_FRAMES_DEFAULT = 10_000;
        public static final long WINDOW_BYTES_DEFAULT = 8L * 1024 * 1024;
        public static final int REQUEST_QUEUE_DEFAULT = 1_024;
        public static final int MAX_MARKETS_DEFAULT = 4_096;
        public static final int MAX_ACCOUNTS_DEFAULT = 65_536;
        public static final long MAX_OPEN_ORDERS_DEFAULT = 1_000_000;
        public static final int INDEX_INTERVAL_DEFAULT = 256;
        public static final int INDEX_ENTRIES_DEFAULT = 256;
        public static final int EXCERPTS_PER_CYCLE_DEFAULT = 64;
        public static final int REQUESTS_PER_CYCLE_DEFAULT = 64;
        public static final int RESENDS_AT_ONCE_DEFAULT = 16;

        private Journal events;
        private Journal commands;
        private int windowFrames = WINDOW_FRAMES_DEFAULT;
        private long windowBytes = WINDOW_BYTES_DEFAULT;
        private int requestQueueCapacity = REQUEST_QUEUE_DEFAULT;
        private int maxMarkets = MAX_MARKETS_DEFAULT;
        private int maxAccounts = MAX_ACCOUNTS_DEFAULT;
        private long maxOpenOrders = MAX_OPEN_ORDERS_DEFAULT;
        private int indexInterval = INDEX_INTERVAL_DEFAULT;
        private int indexEntries = INDEX_ENTRIES_DEFAULT;
        private int excerptsPerCycle = EXCERPTS_PER_CYCLE_DEFAULT;
        private int requestsPerCycle = REQUESTS_PER_CYCLE_DEFAULT;
        private int resendsAtOnce = RESENDS_AT_ONCE_DEFAULT;
        private ErrorHandler errorHandler = Throwable::printStackTrace;
        private LongSupplier released = () -> Long.MAX_VALUE;
        private Doorbell doorbell;

        /** The event journal: what the frames are derived from. Required. */
        public Context events(final Journal events)
        {
            this.events = events;
            return this;
        }

        /** The command journal: each frame's {@code ts} is its command's stamped time. Required. */
        public Context commands(final Journal commands)
        {
            this.commands = commands;
            return this;
        }

        /** Frames a public channel keeps for resuming subscribers (the spec's 10,000). */
        public Context windowFrames(final int windowFrames)
        {
            this.windowFrames = windowFrames;
            return this;
        }

        /** Bytes of frame text a public channel keeps at most, whatever the frame count. */
        public Context windowBytes(final long windowBytes)
        {
            this.windowBytes = windowBytes;
            return this;
        }

        /** Requests that may wait for the feed's thread; more are refused (the call returns false). */
        public Context requestQueueCapacity(final int requestQueueCapacity)
        {
            this.requestQueueCapacity = requestQueueCapacity;
            return this;
        }

        /** Markets followed; later listings are ignored (counted). */
        public Context maxMarkets(final int maxMarkets)
        {
            this.maxMarkets = maxMarkets;
            return this;
        }

        /** Accounts given private streams; later accounts get none (counted). The engine's capacity bounds them. */
        public Context maxAccounts(final int maxAccounts)
        {
            this.maxAccounts = maxAccounts;
            return this;
        }

        /** Open orders followed for the account read, over every account. */
        public Context maxOpenOrders(final long maxOpenOrders)
        {
            this.maxOpenOrders = maxOpenOrders;
            return this;
        }

        /** Every how many frames of a private channel the sparse index keeps a journal position. */
        public Context indexInterval(final int indexInterval)
        {
            this.indexInterval = indexInterval;
            return this;
        }

        /** Positions the sparse index keeps per account and channel (the oldest go). */
        public Context indexEntries(final int indexEntries)
        {
            this.indexEntries = indexEntries;
            return this;
        }

        public Context excerptsPerCycle(final int excerptsPerCycle)
        {
            this.excerptsPerCycle = excerptsPerCycle;
            return this;
        }

        public Context requestsPerCycle(final int requestsPerCycle)
        {
            this.requestsPerCycle = requestsPerCycle;
            return this;
        }

        /** Private resends waiting or running at once on the resends' thread; more are refused RESEND_BUSY. */
        public Context resendsAtOnce(final int resendsAtOnce)
        {
            this.resendsAtOnce = resendsAtOnce;
            return this;
        }

        /**
         * The last command sequence the node may show (journaled, and with a synchronous standby held by the standby
         * too): the feed publishes nothing of a later command, so no frame shows what a failover would lose. Default:
         * every command the event journal holds.
         */
        public Context released(final LongSupplier released)
        {
            this.released = released;
            return this;
        }

        /**
         * The bell of the feed's thread, when it waits with a {@code DoorbellIdleStrategy}: rung by every request
         * queued (and, in the node, by the engine after each batch it journals), so the feed wakes at once instead of
         * at its next look. Optional.
         */
        public Context doorbell(final Doorbell doorbell)
        {
            this.doorbell = doorbell;
            return this;
        }

        /** Where an exception out of a subscriber or a callback goes (the feed carries on). */
        public Context errorHandler(final ErrorHandler errorHandler)
        {
            this.errorHandler = errorHandler;
            return this;
        }

        /** Checks the settings. */
        public Context conclude()
        {
            if (null == events || null == commands)
            {
                throw new IllegalStateException("the event and the command journal are required");
            }
            if (windowFrames < 1 || windowBytes < 1 || requestQueueCapacity < 1 || maxMarkets < 1 ||
                maxAccounts < 1 || maxOpenOrders < 0 || indexInterval < 1 || indexEntries < 1 ||
                excerptsPerCycle < 1 || requestsPerCycle < 1 || resendsAtOnce < 1 || null == errorHandler ||
                null == released)
            {
                throw new IllegalStateException("a bound of the feed is not positive");
            }
            if ((long)indexInterval * indexEntries < Feed.MAX_RESEND_FRAMES)
            {
                throw new IllegalStateException("the private index must cover at least one whole resend");
            }
            return this;
        }
    }

    private static final String ROLE = "market-feed";

    private final Context ctx;
    private final ManyToOneConcurrentArrayQueue<Runnable> requests;
    private final FrameWriter writer = new FrameWriter();
    private final JsonBytes answer = new JsonBytes(1024);
    private final PublicDeriver publicFrames;
    private final PrivateDeriver privateFrames;
    private final Map<ByteKey, AccountState> accounts = new HashMap<>();
    private final Map<String, AccountState> accountsByHex = new HashMap<>();
    private final Subscriptions subscriptions;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final JournalRecords records = new JournalRecords();
    private final CommandTimes times;
    private final Rederiver rederiver;
    private final Resends resends;
    private JournalTailer tailer;
    private long accountsIgnored;
    private long recordsRefused;

    /** The command whose events are being read; -1 between commands. */
    private long command = -1;
    private long lastCommand;
    private long excerpt;
    private boolean waitingForCommands;
    private final RecordHandler onRecord = this::onRecord;

    private final FrameSink live = new FrameSink()
    {
        public void onPublic(final PublicChannel channel, final FeedFrame frame, final long engineSeq, final long ts)
        {
            channel.publish(frame, engineSeq, ts, subscriptions);
        }

        public void onPrivate(final AccountState account, final int kind, final FeedFrame frame, final long engineSeq)
        {
            account.indexes[kind].onFrame(frame.seq(), excerpt, engineSeq);
            subscriptions.publishPrivate(account.hex, kind, frame);
        }

        public void onPrivateNumbered(final AccountState account, final int kind, final long seq, final long engineSeq)
        {
            account.indexes[kind].onFrame(seq, excerpt, engineSeq);
        }
    };

    public MarketFeed(final Context ctx)
    {
        this.ctx = ctx.conclude();
        requests = new ManyToOneConcurrentArrayQueue<>(ctx.requestQueueCapacity);
        publicFrames = new PublicDeriver(ctx.maxMarkets, ctx.windowFrames, ctx.windowBytes);
        privateFrames = new PrivateDeriver(new PrivateDeriver.Accounts()
        {
            public AccountState find(final ByteKey address)
            {
                return account(address);
            }

            public boolean writesFrames(final AccountState account)
            {
                return subscriptions.hasPrivate(account.hex);
            }
        }, true, ctx.maxOpenOrders);
        times = new CommandTimes(ctx.commands);
        rederiver = new Rederiver(ctx.events, ctx.commands, "");
        resends = new Resends(ctx.events, ctx.commands, ctx.resendsAtOnce, ctx.errorHandler);
        subscriptions = new Subscriptions(ctx.errorHandler);
    }

    /** The live account an event names, made on first sight while there is room. */
    private AccountState account(final ByteKey address)
    {
        AccountState account = accounts.get(address);
        if (null == account)
        {
            if (accounts.size() >= ctx.maxAccounts)
            {
                accountsIgnored++;
                return null;
            }
            final ByteKey key = address.copy();
            final String hex = hex0x(key.bytes());
            account = new AccountState(key, hex, ctx.indexInterval, ctx.indexEntries);
            accounts.put(key, account);
            accountsByHex.put(hex, account);
        }
        return account;
    }

    private static String hex0x(final byte[] bytes)
    {
        return new JsonBytes(48).hex0x(bytes, 0, bytes.length).toString().replace("\"", "");
    }

    @Override
    public String roleName()
    {
        return ROLE;
    }

    /** Reads the event journal from its beginning (no subscriber can be there yet), then the feed is live. */
    @Override
    public void onStart()
    {
        tailer = ctx.events.tailer();
        while (readExcerpt())
        {
            // rebuilding the books, numbering and windows
        }
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (int i = 0; i < ctx.requestsPerCycle; i++)
        {
            final Runnable request = requests.poll();
            if (null == request)
            {
                break;
            }
            request.run();
            work++;
        }
        for (int i = 0; i < ctx.excerptsPerCycle && readExcerpt(); i++)
        {
            work++;
        }
        if (work > 0)
        {
            // the cycle's frames go out together: a subscriber writes them once, not once per command
            subscriptions.endBatch();
        }
        return work;
    }

    /**
     * Whether the last look stopped at events not yet released to readers (a synchronous standby's hold) or whose
     * commands the command journal does not hold yet (a follower): nobody rings for those, so the feed's thread polls.
     * The feed's thread only.
     */
    public boolean waitsForCommands()
    {
        return waitingForCommands;
    }

    /** Reads one excerpt and publishes the frames of its commands; false at the end or while commands lag. */
    private boolean readExcerpt()
    {
        waitingForCommands = false;
        if (!tailer.read(onRecord))
        {
            return false;
        }
        if (command >= 0)
        {
            // a command's events are never split between excerpts: the excerpt's end is its last command's end
            endCommand();
        }
        return !waitingForCommands;
    }

    private void onRecord(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        if (records.wrap(buffer, offset, length) != RecordError.NONE)
        {
            recordsRefused++;
            return;
        }
        if (writer.epoch().isEmpty())
        {
            epoch(buffer, offset, length);
        }
        final long sequence = JournalRecords.sequence(buffer, offset);
        if (sequence != command)
        {
            if (command >= 0)
            {
                endCommand();
            }
            if (sequence > ctx.released.getAsLong())
            {
                // not yet released to readers (a synchronous standby does not hold it yet): read it again next time
                waitingForCommands = true;
                tailer.stopHere();
                return;
            }
            final long ts = times.timestampOf(sequence);
            if (ts == CommandTimes.NOT_YET)
            {
                // the command journal is behind (a follower): read this record again next time
                waitingForCommands = true;
                tailer.stopHere();
                return;
            }
            command = sequence;
            excerpt = index;
            publicFrames.begin(sequence, ts);
            privateFrames.begin(sequence, ts);
        }
        header.wrap(buffer, offset);
        publicFrames.onEvent(buffer, offset, header);
        privateFrames.onEvent(buffer, offset, header);
    }

    private void endCommand()
    {
        publicFrames.end(writer, live);
        privateFrames.end(writer, live, false);
        lastCommand = command;
        command = -1;
    }

    /** The journal's identity: the first 8 bytes of the SHA-256 of its first record, in hex. */
    private void epoch(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] first = new byte[length];
        buffer.getBytes(offset, first);
        try
        {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(first);
            final String epoch = new JsonBytes(32).hex0x(digest, 0, 8).toString().substring(3, 19);
            writer.epoch(epoch);
            rederiver.epoch(epoch);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** The epoch frames carry: empty until the journal holds a record. */
    public String epoch()
    {
        return writer.epoch();
    }

    /** The last command whose frames were published. */
    public long lastCommand()
    {
        return lastCommand;
    }

    /** Private resends taken and not yet sent in full (they run on a thread of their own). */
    public int resendsPending()
    {
        return resends.pending();
    }

    /** Event records the feed could not decode and passed over. */
    public long recordsRefused()
    {
        return recordsRefused;
    }

    /** Accounts past {@link Context#maxAccounts} given no private streams. */
    public long accountsIgnored()
    {
        return accountsIgnored;
    }

    @Override
    public void onClose()
    {
        close();
    }

    @Override
    public void close()
    {
        resends.close();
        times.close();
        rederiver.close();
        if (null != tailer)
        {
            tailer.close();
            tailer = null;
        }
    }

    // ---- requests: queued by any thread, run on the feed's

    /** Queues a request and wakes the feed's thread if it is parked. */
    private boolean request(final Runnable request)
    {
        if (!requests.offer(request))
        {
            return false;
        }
        if (null != ctx.doorbell)
        {
            ctx.doorbell.ring();
        }
        return true;
    }

    @Override
    public boolean subscribe(final FeedSubscriber subscriber, final String account, final long requestId,
        final List<String> channels, final Map<String, Cursor> resume)
    {
        return request(() -> onSubscribe(subscriber, account, requestId, channels, resume));
    }

    @Override
    public boolean unsubscribe(final FeedSubscriber subscriber, final long requestId, final List<String> channels)
    {
        return request(() -> onUnsubscribe(subscriber, requestId, channels));
    }

    @Override
    public boolean resend(final FeedSubscriber subscriber, final String account, final long requestId,
        final String channel, final long fromSeq, final long toSeq)
    {
        return request(() -> onResend(subscriber, account, requestId, channel, fromSeq, toSeq));
    }

    /** Each duty cycle ends its subscribers' batches ({@link FeedSubscriber#onBatchEnd}), and so does a resend. */
    @Override
    public boolean endsBatches()
    {
        return true;
    }

    @Override
    public boolean remove(final FeedSubscriber subscriber)
    {
        return request(() -> subscriptions.remove(subscriber));
    }

    @Override
    public boolean book(final long market, final String book, final int depth, final Consumer<String> answer)
    {
        return request(() -> reply(answer, bookBody(market, book, depth)));
    }

    @Override
    public boolean trades(final long market, final String book, final int limit, final Consumer<String> answer)
    {
        return request(() -> reply(answer, tradesBody(market, book, limit)));
    }

    @Override
    public boolean account(final String account, final String what, final Consumer<String> answer)
    {
        return request(() -> reply(answer, accountBody(account, what)));
    }

    private void reply(final Consumer<String> callback, final String body)
    {
        try
        {
            callback.accept(body);
        }
        catch (final RuntimeException ex)
        {
            ctx.errorHandler.onError(ex);
        }
    }

    private void answer(final FeedSubscriber subscriber, final byte[] json)
    {
        try
        {
            subscriber.onAnswer(json);
        }
        catch (final RuntimeException ex)
        {
            ctx.errorHandler.onError(ex);
        }
    }

    private void error(final FeedSubscriber subscriber, final long requestId, final FeedError code,
        final String message)
    {
        final JsonBytes out = answer.reset().ch('{');
        out.key("type").ascii("\"error\"");
        out.key("id").num(requestId);
        out.key("code").ch('"').ascii(code.name()).ch('"');
        out.key("message").quoted(message);
        answer(subscriber, out.ch('}').toByteArray());
    }

    /** A client's text in a message, cut so that an error never grows with what it quotes. */
    private static String quote(final String text)
    {
        if (null == text)
        {
            return "null";
        }
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    static boolean isAccount(final String account)
    {
        if (null == account || account.length() != 42 || !account.startsWith("0x"))
        {
            return false;
        }
        for (int i = 2; i < 42; i++)
        {
            final char c = account.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f'))
            {
                return false;
            }
        }
        return true;
    }

    private void onSubscribe(final FeedSubscriber subscriber, final String account, final long requestId,
        final List<String> channels, final Map<String, Cursor> resume)
    {
        if (null == subscriber)
        {
            return;
        }
        final SubscribePlan plan = new SubscribePlan();
        final String problem = plan.parse(channels, account);
        if (null != problem)
        {
            error(subscriber, requestId, plan.error, problem);
            return;
        }
        for (final ChannelName name : plan.names)
        {
            if (name.kind().perBook() && null == publicFrames.book(name.market(), name.book()))
            {
                error(subscriber, requestId, FeedError.UNKNOWN_MARKET, "no such market or book: " + name);
                return;
            }
        }
        if (plan.hasPrivate && !subscriptions.accountFits(subscriber, account))
        {
            error(subscriber, requestId, FeedError.ACCOUNT_MISMATCH,
                "this connection's private channels are another account's");
            return;
        }
        final String[] outcomes = new String[plan.names.size()];
        for (int i = 0; i < outcomes.length; i++)
        {
            final ChannelName name = plan.names.get(i);
            final Cursor cursor = null == resume ? null : resume.get(name.name());
            outcomes[i] = subscriptions.isSubscribed(subscriber, name.name()) ? Subscriptions.ALREADY :
                name.isPrivate() ? privateOutcome(account, name, cursor) : publicOutcome(name, cursor);
        }
        final JsonBytes out = answer.reset().ch('{');
        out.key("type").ascii("\"ack\"");
        out.key("id").num(requestId);
        out.key("channels").ch('{');
        for (int i = 0; i < outcomes.length; i++)
        {
            out.key(plan.names.get(i).name()).ch('"').ascii(outcomes[i]).ch('"');
        }
        answer(subscriber, out.ch('}').ch('}').toByteArray());
        for (int i = 0; i < outcomes.length; i++)
        {
            final ChannelName name = plan.names.get(i);
            if (Subscriptions.ALREADY.equals(outcomes[i]))
            {
                continue;
            }
            final Cursor cursor = null == resume ? null : resume.get(name.name());
            if (name.isPrivate())
            {
                startPrivate(subscriber, account, name, cursor, outcomes[i]);
            }
            else
            {
                startPublic(subscriber, name, cursor, outcomes[i]);
            }
        }
    }

    private PublicChannel publicChannel(final ChannelName name)
    {
        return name.kind() == ChannelName.Kind.STATUS ? publicFrames.status() :
            publicFrames.book(name.market(), name.book()).channel(name.kind());
    }

    private static boolean hasState(final ChannelName.Kind kind)
    {
        return kind == ChannelName.Kind.BOOK || kind == ChannelName.Kind.BBO;
    }

    private String publicOutcome(final ChannelName name, final Cursor cursor)
    {
        if (null == cursor)
        {
            return hasState(name.kind()) ? Subscriptions.SNAPSHOT : Subscriptions.LIVE;
        }
        return canResume(publicChannel(name), cursor) ? Subscriptions.RESUMED : Subscriptions.RESUME_REQUIRED;
    }

    private boolean canResume(final PublicChannel channel, final Cursor cursor)
    {
        final long oldest = channel.window().count() == 0 ? channel.seq() + 1 : channel.window().oldestSeq();
        return sameEpoch(cursor) && cursor.seq() >= oldest - 1 && cursor.seq() <= channel.seq();
    }

    private boolean sameEpoch(final Cursor cursor)
    {
        return !writer.epoch().isEmpty() && writer.epoch().equals(cursor.epoch());
    }

    private void startPublic(final FeedSubscriber subscriber, final ChannelName name, final Cursor cursor,
        final String outcome)
    {
        final PublicChannel channel = publicChannel(name);
        if (Subscriptions.RESUMED.equals(outcome))
        {
            if (cursor.seq() < channel.seq())
            {
                subscriptions.deliver(subscriber, gapFill(name.name(), cursor.seq() + 1, channel.seq()));
                for (long seq = cursor.seq() + 1; seq <= channel.seq(); seq++)
                {
                    subscriptions.deliver(subscriber, channel.window().get(seq));
                }
            }
        }
        else if (Subscriptions.RESUME_REQUIRED.equals(outcome))
        {
            final long oldest = channel.window().count() == 0 ? channel.seq() + 1 : channel.window().oldestSeq();
            subscriptions.deliver(subscriber, resumeRequired(name.name(), oldest, hasState(name.kind())));
            snapshot(subscriber, name, channel);
        }
        else
        {
            snapshot(subscriber, name, channel);
        }
        subscriptions.addPublic(subscriber, channel);
    }

    private void snapshot(final FeedSubscriber subscriber, final ChannelName name, final PublicChannel channel)
    {
        if (!hasState(name.kind()))
        {
            return;
        }
        final MarketBook book = publicFrames.book(name.market(), name.book());
        final byte[] json = name.kind() == ChannelName.Kind.BOOK ?
            publicFrames.snapshot(book, writer, Integer.MAX_VALUE) : publicFrames.bboSnapshot(book, writer);
        subscriptions.deliver(subscriber, new FeedFrame(channel.name(), channel.seq(), channel.conflatable(), json));
    }

    private FeedFrame gapFill(final String channel, final long from, final long to)
    {
        final JsonBytes out = writer.notice("gap_fill");
        out.key("ch").quoted(channel);
        out.key("fromSeq").num(from);
        out.key("toSeq").num(to);
        return new FeedFrame(channel, 0, false, writer.finish());
    }

    private FeedFrame resumeRequired(final String channel, final long oldest, final boolean snapshot)
    {
        final JsonBytes out = writer.notice("resume_required");
        out.key("ch").quoted(channel);
        out.key("epoch").quoted(writer.epoch());
        out.key("oldestSeq").num(oldest);
        out.key("then").ascii(snapshot ? "\"snapshot\"" : "\"live\"");
        return new FeedFrame(channel, 0, false, writer.finish());
    }

    private String privateOutcome(final String account, final ChannelName name, final Cursor cursor)
    {
        if (null == cursor)
        {
            return Subscriptions.LIVE;
        }
        return privateResumeEntry(account, name, cursor) >= 0 || privateUpToDate(account, name, cursor) ?
            Subscriptions.RESUMED : Subscriptions.RESUME_REQUIRED;
    }

    private long privateLastSeq(final String account, final ChannelName name)
    {
        final AccountState state = accountsByHex.get(account);
        return null == state ? 0 : state.seqs[name.kind().privateIndex()];
    }

    /** A cursor at the channel's last frame: nothing was missed. */
    private boolean privateUpToDate(final String account, final ChannelName name, final Cursor cursor)
    {
        return sameEpoch(cursor) && cursor.seq() == privateLastSeq(account, name);
    }

    /** The index entry to re-derive a resume's missed frames from; -1 when it cannot be done. */
    private int privateResumeEntry(final String account, final ChannelName name, final Cursor cursor)
    {
        final AccountState state = accountsByHex.get(account);
        if (null == state || !sameEpoch(cursor))
        {
            return -1;
        }
        final int kind = name.kind().privateIndex();
        final long last = state.seqs[kind];
        if (cursor.seq() < 0 || cursor.seq() >= last || last - cursor.seq() > Feed.MAX_RESEND_FRAMES)
        {
            return -1;
        }
        return state.indexes[kind].entryFor(cursor.seq() + 1);
    }

    private void startPrivate(final FeedSubscriber subscriber, final String account, final ChannelName name,
        final Cursor cursor, final String outcome)
    {
        final int kind = name.kind().privateIndex();
        if (Subscriptions.RESUMED.equals(outcome))
        {
            final int entry = privateResumeEntry(account, name, cursor);
            if (entry >= 0)
            {
                final AccountState state = accountsByHex.get(account);
                final long last = state.seqs[kind];
                subscriptions.deliver(subscriber, gapFill(name.name(), cursor.seq() + 1, last));
                rederiver.derive(state, kind, entry, cursor.seq() + 1, last, lastCommand, false,
                    frame -> subscriptions.deliver(subscriber, frame));
            }
        }
        else if (Subscriptions.RESUME_REQUIRED.equals(outcome))
        {
            final AccountState state = accountsByHex.get(account);
            final long oldest = null == state ? 1 : Math.max(state.indexes[kind].oldestSeq(),
                state.seqs[kind] - Feed.MAX_RESEND_FRAMES + 1);
            subscriptions.deliver(subscriber, resumeRequired(name.name(), Math.max(1, oldest), false));
        }
        subscriptions.addPrivate(subscriber, account, kind);
    }

    private void onUnsubscribe(final FeedSubscriber subscriber, final long requestId, final List<String> channels)
    {
        if (null == subscriber)
        {
            return;
        }
        if (null == channels || channels.isEmpty() || channels.size() > SubscribePlan.MAX_CHANNELS)
        {
            error(subscriber, requestId, FeedError.INVALID_REQUEST, "unsubscribe names 1 to " +
                SubscribePlan.MAX_CHANNELS + " channels");
            return;
        }
        final JsonBytes out = answer.reset().ch('{');
        out.key("type").ascii("\"ack\"");
        out.key("id").num(requestId);
        out.key("channels").ch('{');
        final Set<String> seen = new HashSet<>();
        for (final String text : channels)
        {
            final ChannelName name = ChannelName.parse(text);
            if (null == name || !seen.add(name.name()))
            {
                continue;
            }
            final boolean removed = subscriptions.removeOne(subscriber, name);
            out.key(name.name()).ascii(removed ? "\"unsubscribed\"" : "\"not_subscribed\"");
        }
        answer(subscriber, out.ch('}').ch('}').toByteArray());
    }

    private void onResend(final FeedSubscriber subscriber, final String account, final long requestId,
        final String channel, final long fromSeq, final long toSeq)
    {
        if (null == subscriber)
        {
            return;
        }
        final ChannelName name = ChannelName.parse(channel);
        if (null == name)
        {
            error(subscriber, requestId, FeedError.UNKNOWN_CHANNEL, "not a channel: " + quote(channel));
            return;
        }
        if (!name.isPrivate())
        {
            error(subscriber, requestId, FeedError.NOT_PRIVATE_CHANNEL, "only private channels are resent; " +
                name + " resumes instead");
            return;
        }
        if (null == account)
        {
            error(subscriber, requestId, FeedError.AUTH_REQUIRED, "a private channel needs an authenticated account");
            return;
        }
        if (!isAccount(account))
        {
            error(subscriber, requestId, FeedError.INVALID_ACCOUNT, "not an account: " + quote(account));
            return;
        }
        if (fromSeq < 1 || toSeq < fromSeq)
        {
            error(subscriber, requestId, FeedError.INVALID_RANGE, "the range must be 1 <= fromSeq <= toSeq");
            return;
        }
        if (toSeq - fromSeq >= Feed.MAX_RESEND_FRAMES)
        {
            error(subscriber, requestId, FeedError.RANGE_TOO_LARGE, "at most " + Feed.MAX_RESEND_FRAMES +
                " frames per resend");
            return;
        }
        final AccountState state = accountsByHex.get(account);
        final int kind = name.kind().privateIndex();
        final long last = null == state ? 0 : state.seqs[kind];
        if (toSeq > last)
        {
            error(subscriber, requestId, FeedError.RANGE_NOT_AVAILABLE, "the channel's last frame is " + last);
            return;
        }
        final int entry = state.indexes[kind].entryFor(fromSeq);
        if (entry < 0)
        {
            error(subscriber, requestId, FeedError.RANGE_NOT_AVAILABLE, "the oldest frame that can be resent is " +
                state.indexes[kind].oldestSeq());
            return;
        }
        if (!resends.reserve())
        {
            error(subscriber, requestId, FeedError.RESEND_BUSY, "at most " + ctx.resendsAtOnce +
                " resends are served at once; ask again in a moment");
            return;
        }
        final JsonBytes out = answer.reset().ch('{');
        out.key("type").ascii("\"ack\"");
        out.key("id").num(requestId);
        out.key("resend").ch('{');
        out.key("ch").quoted(name.name());
        out.key("fromSeq").num(fromSeq);
        out.key("toSeq").num(toSeq);
        answer(subscriber, out.ch('}').ch('}').toByteArray());
        // off the feed's thread: reading the journal for old frames delays no live frame
        final PrivateIndex index = state.indexes[kind];
        resends.submit(new Resends.Job(state, kind, index.seq(entry), index.command(entry), index.excerpt(entry),
            fromSeq, toSeq, lastCommand, writer.epoch(), subscriber));
    }

    // ---- REST reads

    private String bookBody(final long market, final String book, final int depth)
    {
        final int b = ChannelName.bookOf(book);
        final MarketBook state = b < 0 ? null : publicFrames.book(market, b);
        if (null == state)
        {
            return null;
        }
        final PublicChannel channel = state.bookChannel;
        final JsonBytes out = answer.reset().ch('{');
        out.key("market").num(market);
        if (b != ChannelName.SPOT)
        {
            out.key("book").quoted(book);
        }
        out.key("ch").quoted(channel.name());
        out.key("epoch").quoted(writer.epoch());
        out.key("seq").num(channel.seq());
        out.key("engineSeq").num(channel.engineSeq());
        out.key("ts").num(channel.ts());
        publicFrames.levels(state, depth < 1 ? Integer.MAX_VALUE : depth, out);
        return out.ch('}').toString();
    }

    private String tradesBody(final long market, final String book, final int limit)
    {
        final int b = ChannelName.bookOf(book);
        final MarketBook state = b < 0 ? null : publicFrames.book(market, b);
        if (null == state)
        {
            return null;
        }
        final JsonBytes out = answer.reset().ch('{');
        out.key("market").num(market);
        if (b != ChannelName.SPOT)
        {
            out.key("book").quoted(book);
        }
        out.key("engineSeq").num(lastCommand);
        out.key("trades");
        state.recentTrades(Math.max(1, Math.min(MarketBook.RECENT_TRADES, limit)), out);
        return out.ch('}').toString();
    }

    private String accountBody(final String account, final String what)
    {
        if (!isAccount(account) || null == what)
        {
            return null;
        }
        final AccountState state = accountsByHex.get(account);
        final JsonBytes out = answer.reset().ch('{');
        out.key("account").quoted(account);
        out.key("engineSeq").num(lastCommand);
        switch (what)
        {
            case "orders":
                AccountReads.orders(state, out);
                break;
            case "balances":
                AccountReads.balances(state, out);
                break;
            case "positions":
                AccountReads.positions(state, out);
                break;
            default:
                return null;
        }
        return out.ch('}').toString();
    }

    /** Visible to tests: the identity map of who is subscribed. */
    IdentityHashMap<FeedSubscriber, ?> subscribers()
    {
        return subscriptions.bySubscriber();
    }

    PublicDeriver publicFrames()
    {
        return publicFrames;
    }
}
