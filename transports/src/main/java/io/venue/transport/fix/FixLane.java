package io.venue.transport.fix;

import io.netty.handler.flush.FlushConsolidationHandler;
import io.venue.codec.MetricsText;
import io.venue.entry.ConnectionIds;
import io.venue.entry.EntryCore;
import io.venue.entry.credential.ApiKey;
import io.venue.entry.credential.FixOnboarding;
import io.venue.entry.credential.MachineCredentials;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.entry.lane.Lane;
import io.venue.journal.queue.JournalTailer;
import io.venue.transport.tcp.TcpLaneServer;
import io.venue.transport.tls.ServerTls;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The FIX 4.4 lane (named {@value #NAME}; docs/FIX.md): the venue's own acceptor (DECISIONS.md says why not Artio) on
 * Netty, one boss thread and {@code ioThreads} I/O threads. Each connection is a {@link FixSession} over the node's
 * {@link EntryCore}, with lane code {@link ConnectionIds#FIX}; the credential check is the core's.
 */
public final class FixLane implements Lane
{
    public static final String NAME = "fix";
    /** The largest HeartBtInt(108) a Logon may ask for, in seconds. */
    static final long MAX_HEART_BT_INT = 300;

    private final Context context;
    private final Counters counters = new Counters();
    private final ConnectionIds ids = new ConnectionIds(ConnectionIds.FIX);
    private volatile TcpLaneServer server;
    private FixReports reports;
    private AgentRunner reportsRunner;
    private boolean started;
    private boolean closed;

    public FixLane(final Context context)
    {
        this.context = context.conclude();
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public synchronized void start()
    {
        if (started || closed)
        {
            throw new IllegalStateException("the fix lane has " + (closed ? "closed" : "started already"));
        }
        started = true;
        final EntryCore core = context.entry;
        final LogonAttempts attempts = new LogonAttempts(context.logonAttemptsPerMinute, 60_000,
            context.maxTrackedLogonKeys);
        final FixOutbound.Marks marks = (connectionId, credentialId, subSession, kind, nextIn, nextOut, reserved,
            reportKey) ->
        {
            if (core.journalFixSessionMark(connectionId, credentialId, subSession, kind, nextIn, nextOut, reserved,
                reportKey))
            {
                return true;
            }
            counters.marksNotJournaled.incrementAndGet();
            return false;
        };
        final FixSequences sequences = new FixSequences(context.maxKnownSessions, context.journalMarks,
            apiKeyId -> accountOf(core, apiKeyId), marks, context.resendMaxMessages);
        if (context.commandTail != null)
        {
            // the ExecutionReports: a thread of the lane's own reads the journals from their start (the open orders'
            // views), then follows them; it backs off to a millisecond's sleep when they are quiet
            context.commandTail.handOver();
            context.eventTail.handOver();
            reports = new FixReports(context.commandTail, context.eventTail, context.released, context.deliverAfter,
                context.maxOrders, new FixReports.Sink()
                {
                    public void deliver(final FixReport report, final long reportKey, final boolean replaying)
                    {
                        sequences.deliver(report, reportKey, replaying);
                    }

                    public void caughtUp()
                    {
                        sequences.replayDone();
                    }
                }).clOrdIds(new FixClOrdIds(context.clOrdIdIndexMax));
            reportsRunner = new AgentRunner(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000),
                Throwable::printStackTrace, null, reports);
            AgentRunner.startOnThread(reportsRunner, runnable -> new Thread(runnable, "fix-reports"));
        }
        else
        {
            // no reports: the numbers come from the marks alone
            sequences.replayDone();
        }
        final FixReports views = reports;
        server = TcpLaneServer.bind(NAME, context.host, context.port, context.ioThreads, context.tls,
            // the messages of one event-loop turn (the answers to a read batch, or the reports the reports thread
            // hands over at once: an accepted order and its fills) leave in one flush, one write system call, rather
            // than one each: a flush made outside a read waits for a task after the turn's others
            channel -> channel.pipeline().addLast(new FixFrameDecoder(context.maxMessageBytes),
                new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true),
                new FixSession(context, counters, core, core.open(ids.next()), attempts, sequences, views)));
    }

    /** The account an active credential acts for ({@code 0x} and lowercase hex), or null. */
    private static String accountOf(final EntryCore core, final String apiKeyId)
    {
        final MachineCredentials credentials = core.credentials();
        final ApiKey key = credentials == null ? null : credentials.find(apiKeyId);
        return key == null || key.account() == null ? null : key.account().toLowerCase(Locale.ROOT);
    }

    /** New logons are refused SHUTTING_DOWN; live sessions go on until the close. */
    @Override
    public void drain()
    {
        context.draining = true;
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        context.draining = true;
        if (server != null)
        {
            server.close();
        }
        if (reportsRunner != null)
        {
            // the runner closes the agent on its own thread; the tailers are that thread's
            CloseHelper.quietClose(reportsRunner);
            CloseHelper.quietClose(context.commandTail);
            CloseHelper.quietClose(context.eventTail);
        }
    }

    /** The bound port, or -1 before the lane started. */
    public int port()
    {
        final TcpLaneServer bound = server;
        return bound == null ? -1 : bound.port();
    }

    @Override
    public void appendMetrics(final MetricsText text)
    {
        counters.appendTo(text);
        final FixReports views = reports;
        if (views != null)
        {
            text.family("venue_fix_reports_derived_total", "counter", "FIX reports derived from the journals")
                .sample("venue_fix_reports_derived_total", views.derived());
            text.family("venue_fix_orders_untracked_total", "counter", "orders the FIX reports do not follow (the " +
                "open-order limit was reached)").sample("venue_fix_orders_untracked_total", views.untracked());
            text.family("venue_fix_clordids_known", "gauge", "session NewOrderSingles' ClOrdIDs the FIX lane " +
                "remembers (a PossDup one is not a second order)").sample("venue_fix_clordids_known",
                views.clOrdIds().size());
            text.family("venue_fix_reports_failed", "gauge", "1 when the FIX reports stopped on a journal they " +
                "could not read").sample("venue_fix_reports_failed", views.failed() ? 1 : 0);
        }
    }

    @Override
    public List<ConnectivityEntry> connectivity()
    {
        final int port = port();
        return List.of(ConnectivityEntry.of(NAME).field("host", context.host)
            .field("port", port < 0 ? context.port : port)
            .field("beginString", FixTags.BEGIN_STRING)
            .field("senderCompId", "<your API key id, spk_...>")
            .field("targetCompId", context.compId)
            .field("targetSubIds", FixSession.ORDER_ENTRY + "," + FixSession.DROP_COPY)
            .field("username", "<your API key id> in Username(553)")
            .field("password", "<apiSecret>:<apiPassphrase> in Password(554)")
            .field("account", "<the credential's account, 0x...> in Account(1)")
            .field("maxHeartBtInt", MAX_HEART_BT_INT)
            .field("logonAttemptsPerMinute", (long)context.logonAttemptsPerMinute)
            .field("resendMaxMessages", (long)context.resendMaxMessages)
            .field("maxMessageBytes", (long)context.maxMessageBytes)
            .field("sendingTimeToleranceMs", context.sendingTimeToleranceMs)
            .field("orderEntry", context.commandTail != null)
            .field("symbol", "the market id in Symbol(55) or SecurityID(48); <id>.YES or <id>.NO for an outcome book")
            .field("orderMessages", "D,F,G,q,H")
            // the node's certificates, as the HTTP lane's (its sniHosts name the same ones)
            .field("tls", context.tls != null).build());
    }

    /** The lane's counters, read by the metrics' thread. */
    static final class Counters
    {
        final AtomicLong connections = new AtomicLong();
        final AtomicLong open = new AtomicLong();
        final AtomicLong messages = new AtomicLong();
        final AtomicLong logonsAccepted = new AtomicLong();
        final Map<String, AtomicLong> logonsRefused = new TreeMap<>();
        final AtomicLong sessionRejects = new AtomicLong();
        final AtomicLong businessRejects = new AtomicLong();
        final AtomicLong framingFaults = new AtomicLong();
        final AtomicLong resendRequests = new AtomicLong();
        final AtomicLong resentMessages = new AtomicLong();
        final AtomicLong resentReports = new AtomicLong();
        final AtomicLong resendsRefused = new AtomicLong();
        final AtomicLong marksNotJournaled = new AtomicLong();
        final AtomicLong orderMessages = new AtomicLong();
        final AtomicLong reportsSent = new AtomicLong();

        /** Counts a refused logon under its reason (a fixed set of names, never client input). */
        void logonRefused(final String reason)
        {
            synchronized (logonsRefused)
            {
                logonsRefused.computeIfAbsent(reason, k -> new AtomicLong()).incrementAndGet();
            }
        }

        long refused(final String reason)
        {
            synchronized (logonsRefused)
            {
                final AtomicLong count = logonsRefused.get(reason);
                return count == null ? 0 : count.get();
            }
        }

        void appendTo(final MetricsText text)
        {
            counter(text, "venue_fix_connections_total", "FIX connections accepted", connections);
            text.family("venue_fix_connections_open", "gauge", "FIX connections open now")
                .sample("venue_fix_connections_open", open.get());
            counter(text, "venue_fix_messages_total", "FIX messages read", messages);
            counter(text, "venue_fix_logons_accepted_total", "FIX logons accepted", logonsAccepted);
            text.family("venue_fix_logons_refused_total", "counter", "FIX logons refused, by reason");
            synchronized (logonsRefused)
            {
                for (final Map.Entry<String, AtomicLong> refused : logonsRefused.entrySet())
                {
                    text.sample("venue_fix_logons_refused_total", "reason", refused.getKey(),
                        refused.getValue().get());
                }
            }
            counter(text, "venue_fix_session_rejects_total", "FIX session Rejects sent (and sessions ended for a " +
                "sequence or header fault)", sessionRejects);
            counter(text, "venue_fix_business_rejects_total", "FIX BusinessMessageRejects sent", businessRejects);
            counter(text, "venue_fix_framing_faults_total", "FIX streams ended by a framing fault", framingFaults);
            counter(text, "venue_fix_resend_requests_total", "FIX ResendRequests received", resendRequests);
            counter(text, "venue_fix_resent_messages_total", "FIX messages answered by a resend (sent again or gap " +
                "filled)", resentMessages);
            counter(text, "venue_fix_resent_reports_total", "FIX reports sent again from the journal by a resend " +
                "(PossDupFlag Y)", resentReports);
            counter(text, "venue_fix_resends_refused_total", "FIX ResendRequests refused over the cap",
                resendsRefused);
            counter(text, "venue_fix_order_messages_total", "FIX order-entry messages taken (D, F, G, q, H)",
                orderMessages);
            counter(text, "venue_fix_reports_sent_total", "FIX ExecutionReports, OrderCancelRejects and " +
                "OrderMassCancelReports sent", reportsSent);
            counter(text, "venue_fix_marks_not_journaled_total", "FIX session marks dropped (the lanes' record " +
                "ring was full)", marksNotJournaled);
        }

        private static void counter(final MetricsText text, final String name, final String help,
            final AtomicLong value)
        {
            text.family(name, "counter", help).sample(name, value.get());
        }
    }

    /** Configuration, Aeron style: set what differs from the defaults; {@link #conclude} checks it once. */
    public static final class Context
    {
        public static final int DEFAULT_PORT = 9400;
        public static final String DEFAULT_COMP_ID = "VENUE";
        public static final long DEFAULT_LOGON_TIMEOUT_MS = 5_000;
        public static final int DEFAULT_MAX_SESSIONS = 256;
        public static final int DEFAULT_MAX_MESSAGE_BYTES = 65_536;
        public static final int DEFAULT_RESEND_MAX_MESSAGES = 10_000;
        public static final int DEFAULT_LOGON_ATTEMPTS_PER_MINUTE = 5;
        public static final long DEFAULT_SENDING_TIME_TOLERANCE_MS = 120_000;
        public static final int DEFAULT_CLORDID_INDEX_MAX = 250_000;
        /** The tiers' default rates, standard, enhanced and premium: messages a second. */
        static final long[] DEFAULT_TIER_MESSAGES_PER_SECOND = {50, 200, 1_000};

        private EntryCore entry;
        private String host = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private int ioThreads = 1;
        private String compId = DEFAULT_COMP_ID;
        private long logonTimeoutMs = DEFAULT_LOGON_TIMEOUT_MS;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private int resendMaxMessages = DEFAULT_RESEND_MAX_MESSAGES;
        private int logonAttemptsPerMinute = DEFAULT_LOGON_ATTEMPTS_PER_MINUTE;
        private long sendingTimeToleranceMs = DEFAULT_SENDING_TIME_TOLERANCE_MS;
        private int maxTrackedLogonKeys = 100_000;
        private int maxKnownSessions = 100_000;
        private int clOrdIdIndexMax = DEFAULT_CLORDID_INDEX_MAX;
        private long orderMessagesPerSecond;
        /** Messages a second of the rate tiers standard, enhanced and premium (docs/FIX.md, "Onboarding record"). */
        private final long[] tierMessagesPerSecond = DEFAULT_TIER_MESSAGES_PER_SECOND.clone();
        private Function<String, FixOnboarding> onboarding = apiKeyId -> null;
        private FixJournalMarks journalMarks;
        private JournalTailer commandTail;
        private JournalTailer eventTail;
        private LongSupplier released;
        private long deliverAfter;
        private int maxOrders = 1_000_000;
        private ServerTls tls;
        private volatile boolean draining;
        private boolean concluded;

        /** Serves the lane over TLS with these certificates (the node's, as the HTTP lane); null (default): plain. */
        public Context tls(final ServerTls tls)
        {
            this.tls = tls;
            return this;
        }

        public Context entry(final EntryCore entry)
        {
            this.entry = entry;
            return this;
        }

        public Context host(final String host)
        {
            this.host = host;
            return this;
        }

        /** The port to bind; 0 for any free one ({@link FixLane#port()} says which). */
        public Context port(final int port)
        {
            this.port = port;
            return this;
        }

        public Context ioThreads(final int ioThreads)
        {
            this.ioThreads = ioThreads;
            return this;
        }

        /** The venue's CompID: a client's TargetCompID(56), the SenderCompID(49) of what the venue sends. */
        public Context compId(final String compId)
        {
            this.compId = compId;
            return this;
        }

        public Context logonTimeoutMs(final long ms)
        {
            this.logonTimeoutMs = ms;
            return this;
        }

        public Context maxSessions(final int sessions)
        {
            this.maxSessions = sessions;
            return this;
        }

        public Context maxMessageBytes(final int bytes)
        {
            this.maxMessageBytes = bytes;
            return this;
        }

        /** Spec 8.4's FIX_RESEND_MAX_MESSAGES: the most messages one ResendRequest may ask for. */
        public Context resendMaxMessages(final int messages)
        {
            this.resendMaxMessages = messages;
            return this;
        }

        /** Spec 8.4: logon attempts a minute, per credential and per address. */
        public Context logonAttemptsPerMinute(final int attempts)
        {
            this.logonAttemptsPerMinute = attempts;
            return this;
        }

        /** The most session NewOrderSingle ClOrdIDs remembered for PossDup duplicates (docs/FIX.md, "PossDup"). */
        public Context clOrdIdIndexMax(final int max)
        {
            this.clOrdIdIndexMax = max;
            return this;
        }

        /**
         * Spec 8.4: order-entry messages (D, F, G, q) a second per session, a second's burst; 0 (default): no limit of
         * the lane's (the engine's per-account action limit applies to every order).
         */
        public Context orderMessagesPerSecond(final long perSecond)
        {
            this.orderMessagesPerSecond = perSecond;
            return this;
        }

        long orderMessagesPerSecond()
        {
            return orderMessagesPerSecond;
        }

        /**
         * Where the lane reads a credential's FIX onboarding record (the engine's events): null for a credential
         * without one, whose Logon is refused. Default: none has one.
         */
        public Context onboarding(final Function<String, FixOnboarding> onboarding)
        {
            this.onboarding = onboarding;
            return this;
        }

        FixOnboarding onboarding(final String apiKeyId)
        {
            return onboarding.apply(apiKeyId);
        }

        /**
         * Order-entry messages a second of a rate tier ({@code fix.rate.tier.standard}, {@code .enhanced},
         * {@code .premium}; defaults 50, 200 and 1,000), a second's burst.
         */
        public Context tierMessagesPerSecond(final String tier, final long perSecond)
        {
            final int index = FixOnboarding.TIERS.indexOf(tier);
            if (index < 0)
            {
                throw new IllegalArgumentException("a FIX rate tier is one of " + FixOnboarding.TIERS + ": " + tier);
            }
            tierMessagesPerSecond[index] = perSecond;
            return this;
        }

        /** The rate of a record's tier (1 to 3), or for tier 0 (none) {@link #orderMessagesPerSecond(long)}. */
        public long orderMessagesPerSecond(final int tier)
        {
            return tier >= 1 && tier <= tierMessagesPerSecond.length ? tierMessagesPerSecond[tier - 1] :
                orderMessagesPerSecond;
        }

        public Context sendingTimeToleranceMs(final long ms)
        {
            this.sendingTimeToleranceMs = ms;
            return this;
        }

        /** What the command journal recorded of the FIX sessions' numbers before this node started. */
        public Context journalMarks(final FixJournalMarks marks)
        {
            this.journalMarks = marks;
            return this;
        }

        /**
         * Order entry and ExecutionReports: tailers of the command and event journals at their start (the lane closes
         * them), what has been released ({@code released}: the last sequence a read may show), and the journal's last
         * sequence when the node started (reports of commands up to it only rebuild the orders' views). Without them
         * the lane is the session layer only: application messages are BusinessMessageRejects.
         */
        public Context orderEntry(final JournalTailer commands, final JournalTailer events,
            final LongSupplier released, final long deliverAfter, final int maxOrders)
        {
            this.commandTail = commands;
            this.eventTail = events;
            this.released = released;
            this.deliverAfter = deliverAfter;
            this.maxOrders = maxOrders;
            return this;
        }

        String compId()
        {
            return compId;
        }

        long logonTimeoutMs()
        {
            return logonTimeoutMs;
        }

        int maxSessions()
        {
            return maxSessions;
        }

        int resendMaxMessages()
        {
            return resendMaxMessages;
        }

        int logonAttemptsPerMinute()
        {
            return logonAttemptsPerMinute;
        }

        long sendingTimeToleranceMs()
        {
            return sendingTimeToleranceMs;
        }

        boolean draining()
        {
            return draining;
        }

        Context conclude()
        {
            if (concluded)
            {
                return this;
            }
            if (entry == null)
            {
                throw new IllegalStateException("the fix lane needs the order-entry core");
            }
            if (compId == null || compId.isEmpty() || !compId.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '='))
            {
                throw new IllegalStateException("fix.comp.id is visible ASCII without '='");
            }
            if (logonTimeoutMs < 1 || maxSessions < 1 || ioThreads < 1 || maxMessageBytes < 256 ||
                resendMaxMessages < 1 || clOrdIdIndexMax < 1 || orderMessagesPerSecond < 0 ||
                orderMessagesPerSecond > 1_000_000_000L || logonAttemptsPerMinute < 1 ||
                Arrays.stream(tierMessagesPerSecond).anyMatch(r -> r < 1 || r > 1_000_000_000L) ||
                sendingTimeToleranceMs < 1 || port < 0 ||
                port > 65_535)
            {
                throw new IllegalStateException("fix: a positive logon timeout, sessions, I/O threads, resend cap, " +
                    "logon attempts, tier rates and SendingTime tolerance, a max message of at least 256 bytes and a " +
                    "port 0 to 65535");
            }
            concluded = true;
            return this;
        }
    }
}
