package io.venue.transport.bsltcp;

import io.netty.handler.flush.FlushConsolidationHandler;
import io.venue.action.Address;
import io.venue.codec.MetricsText;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.entry.ConnectionIds;
import io.venue.entry.EntryCore;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.entry.lane.Lane;
import io.venue.entry.mm.CompactAdmission;
import io.venue.transport.tcp.AddressSessions;
import io.venue.transport.tcp.TcpLaneServer;
import io.venue.transport.tls.ServerTls;

import java.net.InetAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.function.ToLongFunction;

/**
 * The BSL Direct TCP lane (named {@value #NAME}; docs/BSL-TCP.md): length-framed SBE sessions carrying the compact
 * orders of the HTTP compact route, on Netty (one boss thread, {@code ioThreads} I/O threads). Each connection is a
 * {@link BslSession} over the node's {@link EntryCore}, with lane code {@link ConnectionIds#BSL_TCP}.
 */
public final class BslTcpLane implements Lane
{
    public static final String NAME = "bsl-tcp";
    /** Where the schemas are served (the HTTP lane's public route), named in the connectivity bundle. */
    public static final String SCHEMAS_ROUTE = "/api/v1/public/schemas";

    private final Context context;
    private final Counters counters = new Counters();
    private final ConnectionIds ids = new ConnectionIds(ConnectionIds.BSL_TCP);
    private volatile TcpLaneServer server;
    private boolean started;
    private boolean closed;

    public BslTcpLane(final Context context)
    {
        this.context = context.conclude();
    }

    @Override
    public String name()
    {
        return NAME;
    }

    /** Binds; fails if the address is taken, or the lane started or closed already. */
    @Override
    public synchronized void start()
    {
        if (started || closed)
        {
            throw new IllegalStateException("the bsl-tcp lane has " + (closed ? "closed" : "started already"));
        }
        started = true;
        final EntryCore core = context.entry;
        final CompactAdmission admission = new CompactAdmission(core.context().mmWindows(), context.tsSkewMs,
            context.marketListed, context.orderMarket);
        final WalletLogins walletLogins = new WalletLogins(context.maxWalletLogins, SessionLogin.WALLET_SKEW_MS);
        final long startedMs = System.currentTimeMillis();
        final Secp256k1Recoveries recoveries = Secp256k1Recoveries.select();
        final AddressSessions perAddress = new AddressSessions(context.maxSessionsPerAddress, context.maxSessions,
            context.exempt);
        server = TcpLaneServer.bind(NAME, context.host, context.port, context.ioThreads, context.tls,
            // the answers of one event-loop turn (a read batch, or the answers handed over by the responder) leave in
            // one flush, one write system call, rather than one each (FlushConsolidationHandler defers a flush made
            // outside a read to a task after the turn's other tasks)
            channel -> channel.pipeline().addLast(new FrameDecoder(context.maxFrameBytes),
                new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true),
                new BslSession(context,
                counters, perAddress, core, core.open(ids.next()), admission, new SessionLogin(core.credentials(),
                recoveries.newRecovery(), walletLogins, context.chainId, context.verifyingContract, startedMs))));
    }

    /** New logins are refused SHUTTING_DOWN (and new orders by the core); taken requests are still answered. */
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
    }

    @Override
    public List<ConnectivityEntry> connectivity()
    {
        final int port = port();
        return List.of(ConnectivityEntry.of("bslTcp").field("host", context.host)
            .field("port", port < 0 ? context.port : port)
            .field("framing", "u32 little-endian length of the message, then one SBE message")
            .field("byteOrder", "littleEndian")
            .field("sessionSchema", "venue-bsl-session.xml, schema 5, version 1")
            .field("ordersSchema", "venue-bsl.xml, schema 4, version 1")
            .field("schemasRoute", SCHEMAS_ROUTE)
            .field("heartbeatIntervalMs", (long)context.heartbeatIntervalMs)
            .field("loginTimeoutMs", context.loginTimeoutMs)
            .field("maxFrameBytes", (long)context.maxFrameBytes)
            .field("sessionKinds", "session-key,wallet")
            .field("resultModes", "ack,detailed")
            // the node's certificates, as the HTTP lane's (its sniHosts name the same ones)
            .field("tls", context.tls != null).build());
    }

    /** The lane's counters, read by the metrics' thread. */
    static final class Counters
    {
        final AtomicLong connections = new AtomicLong();
        final AtomicLong open = new AtomicLong();
        final AtomicLong logins = new AtomicLong();
        final AtomicLong loginsRefused = new AtomicLong();
        final AtomicLong frames = new AtomicLong();
        final AtomicLong requests = new AtomicLong();
        final AtomicLong requestsRefused = new AtomicLong();
        final AtomicLong windowRefusals = new AtomicLong();
        final AtomicLong answers = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicLong addressRefusals = new AtomicLong();

        void appendTo(final MetricsText text)
        {
            counter(text, "venue_bsltcp_connections_total", "BSL TCP connections accepted", connections);
            text.family("venue_bsltcp_connections_open", "gauge", "BSL TCP connections open now")
                .sample("venue_bsltcp_connections_open", open.get());
            counter(text, "venue_bsltcp_logins_total", "BSL TCP logins accepted", logins);
            counter(text, "venue_bsltcp_logins_refused_total", "BSL TCP logins refused", loginsRefused);
            counter(text, "venue_bsltcp_frames_total", "BSL TCP frames read", frames);
            counter(text, "venue_bsltcp_requests_total", "BSL TCP Orders requests taken", requests);
            counter(text, "venue_bsltcp_requests_refused_total", "BSL TCP Orders requests refused whole",
                requestsRefused);
            counter(text, "venue_bsltcp_window_refusals_total", "BSL TCP requests refused by an MM window",
                windowRefusals);
            counter(text, "venue_bsltcp_answers_total", "BSL TCP OrderAnswers sent", answers);
            counter(text, "venue_bsltcp_errors_total", "BSL TCP protocol errors (each closed its connection)", errors);
            counter(text, "venue_bsltcp_address_refusals_total", "BSL TCP connections refused by the per-address " +
                "cap (bsl.tcp.max.sessions.per.address)", addressRefusals);
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
        public static final int DEFAULT_PORT = 9300;
        public static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;
        public static final long DEFAULT_LOGIN_TIMEOUT_MS = 5_000;
        public static final int DEFAULT_MAX_SESSIONS = 256;
        /** A market maker runs a few sessions per host (one per strategy or book), not dozens. */
        public static final int DEFAULT_MAX_SESSIONS_PER_ADDRESS = 16;

        private EntryCore entry;
        private String host = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private int ioThreads = 1;
        private int heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;
        private long loginTimeoutMs = DEFAULT_LOGIN_TIMEOUT_MS;
        private int maxFrameBytes = BslFraming.DEFAULT_MAX_MESSAGE_BYTES;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private int maxSessionsPerAddress = DEFAULT_MAX_SESSIONS_PER_ADDRESS;
        private Set<InetAddress> exempt = Set.of();
        private int maxWalletLogins = 100_000;
        private long tsSkewMs = 15_000;
        private LongPredicate marketListed;
        private ToLongFunction<String> orderMarket;
        private long chainId;
        private Address verifyingContract;
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

        /** The port to bind; 0 for any free one ({@link BslTcpLane#port()} says which). */
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

        /** Each side sends something at least this often; a peer silent for three intervals is disconnected. */
        public Context heartbeatIntervalMs(final int ms)
        {
            this.heartbeatIntervalMs = ms;
            return this;
        }

        /** How long a connection may take to log in. */
        public Context loginTimeoutMs(final long ms)
        {
            this.loginTimeoutMs = ms;
            return this;
        }

        /** The largest message a client may send (the frame's length field). */
        public Context maxFrameBytes(final int bytes)
        {
            this.maxFrameBytes = bytes;
            return this;
        }

        /** The most connections open at once, logged in or not. */
        public Context maxSessions(final int sessions)
        {
            this.maxSessions = sessions;
            return this;
        }

        /**
         * The most connections open at once from one address (an IPv6 address by its /64), logged in or not; one more
         * is sent Error TOO_MANY_SESSIONS and closed before it may log in. The {@code exempt} addresses (the node's
         * edge.ip.exempt) are never refused by it; they still count toward {@link #maxSessions}.
         */
        public Context maxSessionsPerAddress(final int sessions, final Set<InetAddress> exempt)
        {
            this.maxSessionsPerAddress = sessions;
            this.exempt = Set.copyOf(exempt);
            return this;
        }

        /** Spec 8.2's maxActionTsSkewMs, as the HTTP compact route's. */
        public Context tsSkewMs(final long ms)
        {
            this.tsSkewMs = ms;
            return this;
        }

        public Context marketListed(final LongPredicate listed)
        {
            this.marketListed = listed;
            return this;
        }

        public Context orderMarket(final ToLongFunction<String> orderMarket)
        {
            this.orderMarket = orderMarket;
            return this;
        }

        /** The deployment a wallet login text is bound to. */
        public Context deployment(final long chainId, final Address verifyingContract)
        {
            this.chainId = chainId;
            this.verifyingContract = verifyingContract;
            return this;
        }

        int heartbeatIntervalMs()
        {
            return heartbeatIntervalMs;
        }

        long loginTimeoutMs()
        {
            return loginTimeoutMs;
        }

        int maxFrameBytes()
        {
            return maxFrameBytes;
        }

        int maxSessions()
        {
            return maxSessions;
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
            if (entry == null || entry.context().mmSubmitter() == null || entry.context().mmWindows() == null)
            {
                throw new IllegalStateException("the bsl-tcp lane needs the order-entry core with MM order entry");
            }
            if (verifyingContract == null)
            {
                throw new IllegalStateException("the bsl-tcp lane needs the deployment (chain id, contract)");
            }
            if (heartbeatIntervalMs < 10 || loginTimeoutMs < 1 || maxSessions < 1 || maxSessionsPerAddress < 1 ||
                ioThreads < 1 ||
                maxFrameBytes < BslFraming.MIN_MESSAGE_BYTES || port < 0 || port > 65_535)
            {
                throw new IllegalStateException("bsl-tcp: heartbeat at least 10 ms, a positive login timeout, " +
                    "sessions, sessions per address and I/O threads, a max frame of at least " +
                    BslFraming.MIN_MESSAGE_BYTES + " bytes and a port 0 to 65535");
            }
            concluded = true;
            return this;
        }
    }
}
