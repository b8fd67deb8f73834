package io.venue.transport.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.venue.entry.Answer;
import io.venue.entry.ConnectionIds;
import io.venue.entry.EntryCore;
import io.venue.entry.EntrySession;
import io.venue.entry.PendingRequests;
import io.venue.entry.admission.BoundedBuckets;
import io.venue.entry.credential.TokenSigners;
import io.venue.entry.credential.WsTokens;
import io.venue.feed.Feed;
import io.venue.transport.tls.ServerTls;
import io.venue.transport.ws.WsGateway;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The HTTP lane (Netty): signed actions in, answers after the journal, and the public reads. The I/O threads
 * only decode, register the request and offer its body to the verifier pool; the answer is written by the
 * responder's thread when the engine has decided (see {@link PendingRequests}).
 */
public final class HttpGateway implements AutoCloseable
{
    /** The names of the handlers a WebSocket upgrade removes ({@link #toWebSocket}). */
    private static final String DEADLINES_RAW = "deadlines-raw";
    private static final String DEADLINES_DECODED = "deadlines-decoded";
    private static final String API = "api";

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel server;
    private final Context context;
    private final ConnectionLimits limits;
    /** Null: the WebSocket paths answer 404. */
    private final WsGateway webSocket;

    private HttpGateway(final Context context)
    {
        this.context = context;
        this.webSocket = context.webSocket == null ? null : new WsGateway(context.webSocket);
        this.limits = new ConnectionLimits(context.maxConnectionsPerAddress, context.maxConnections,
            context.connectionsExempt, context.counters);
        // read first (it loads the SVC-Nonce store): a failure leaves no threads behind
        final ConnectionIds connectionIds = new ConnectionIds(ConnectionIds.HTTP);
        boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(context.ioThreads, NioIoHandler.newFactory());
        try
        {
            server = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // a client that sends its request and then shuts its side (half-close) still reads the answer
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel channel)
                    {
                        final boolean fromProxy = context.trustedProxies.contains(channel.remoteAddress().getAddress());
                        // a connection over a cap costs its accept and a few bytes written, nothing more; one from a
                        // trusted proxy is admitted by the client its PROXY header names, once that is read
                        if (!fromProxy && !limits.admit(channel, channel, channel.remoteAddress().getAddress()))
                        {
                            return;
                        }
                        final EntrySession session = context.entry.open(connectionIds.next());
                        if (!fromProxy)
                        {
                            session.from(channel.remoteAddress().getAddress());
                        }
                        final ConnectionDeadlines deadlines = new ConnectionDeadlines(context.headerTimeoutMs,
                            context.bodyTimeoutMs, context.idleTimeoutMs, context.counters);
                        // the deadlines see the raw bytes first: a TLS handshake counts against the header deadline
                        channel.pipeline().addLast(DEADLINES_RAW, deadlines.raw());
                        if (fromProxy || !context.trustedProxies.isEmpty())
                        {
                            channel.pipeline().addLast(new ProxyHeaderHandler(fromProxy, (ctx, client) ->
                            {
                                session.from(client);
                                return limits.admit(channel, ctx, client);
                            }));
                        }
                        if (context.tls != null)
                        {
                            channel.pipeline().addLast(context.tls.handler(channel.alloc()));
                        }
                        channel.pipeline()
                            .addLast(new HttpServerCodec(4096, 16 * 1024, 8192))
                            .addLast(DEADLINES_DECODED, deadlines.decoded())
                            .addLast(new BodyLimit(context, session))
                            .addLast(API, new ApiHandler(context, session, webSocket));
                    }
                })
                .bind(context.host, context.port).sync().channel();
            // the counts of addresses that stopped sending, and the connections refused, once a second
            workers.next().scheduleAtFixedRate(() ->
            {
                context.entry.flushEdgeRefusals();
                limits.report(context.log);
            }, 1, 1, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while binding " + context.host + ":" + context.port, ex);
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * Hands a connection over to the WebSocket gateway after its upgrade request, on its event loop: the HTTP read
     * deadlines and the request handler go (the body aggregator and the codec go with the handshake), the WebSocket
     * connection's own deadlines take over. The connection keeps its place under the connection caps.
     */
    static void toWebSocket(final Channel channel, final WsGateway webSocket, final FullHttpRequest request,
        final boolean privateStream, final boolean secure)
    {
        channel.pipeline().remove(DEADLINES_RAW);
        channel.pipeline().remove(DEADLINES_DECODED);
        webSocket.upgrade(channel, request, privateStream, secure);
        channel.pipeline().remove(API);
    }

    /** Binds and starts serving; fails if the address is taken. */
    public static HttpGateway start(final Context context)
    {
        context.validate();
        return new HttpGateway(context);
    }

    /** The bound port (the configured one, or the one the system chose for port 0). */
    public int port()
    {
        return ((InetSocketAddress)server.localAddress()).getPort();
    }

    /**
     * Stops taking submits (new ones are answered 503 SHUTTING_DOWN, new connections refused) while the ones taken
     * are still answered on their connections; {@link #close} then closes everything.
     */
    public void drain()
    {
        context.entry.drain();
        if (webSocket != null)
        {
            webSocket.drain();
        }
        if (server != null)
        {
            server.close().syncUninterruptibly();
        }
    }

    @Override
    public void close()
    {
        if (server != null)
        {
            server.close().syncUninterruptibly();
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();        if (webSocket != null)
        {
            webSocket.close();
        }
    }

    /** Configuration, Aeron style: set what differs from the defaults, then {@link #start}. */
    public static final class Context
    {
        public static final long DEFAULT_HEADER_TIMEOUT_MS = 5_000;
        public static final long DEFAULT_BODY_TIMEOUT_MS = 10_000;
        public static final long DEFAULT_IDLE_TIMEOUT_MS = 60_000;
        public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
        public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;
        /** Private reads (the executions pages): an account's rate and burst, an address's, and each table's keys. */
        public static final long DEFAULT_READS_ACCOUNT_RATE = 5;
        public static final long DEFAULT_READS_ACCOUNT_BURST = 10;
        public static final long DEFAULT_READS_ADDRESS_RATE = 20;
        public static final long DEFAULT_READS_ADDRESS_BURST = 40;
        public static final int READ_THROTTLE_KEYS = 100_000;

        String host = "127.0.0.1";
        int port = 8080;
        /** Null: plain HTTP. */
        ServerTls tls;
        /** The peers whose connections start with a PROXY v2 header naming the client. */
        Set<InetAddress> trustedProxies = Set.of();
        int ioThreads = 1;
        int maxBodyBytes = 512 * 1024;
        long headerTimeoutMs = DEFAULT_HEADER_TIMEOUT_MS;
        long bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS;
        long idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS;
        int maxConnections = DEFAULT_MAX_CONNECTIONS;
        int maxConnectionsPerAddress = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
        Set<InetAddress> connectionsExempt = Set.of();
        BoundedBuckets<String> readsByAccount = new BoundedBuckets<>(DEFAULT_READS_ACCOUNT_RATE,
            DEFAULT_READS_ACCOUNT_BURST, READ_THROTTLE_KEYS, System::nanoTime);
        BoundedBuckets<InetAddress> readsByAddress = new BoundedBuckets<>(DEFAULT_READS_ADDRESS_RATE,
            DEFAULT_READS_ADDRESS_BURST, READ_THROTTLE_KEYS, System::nanoTime);
        /** Where the lane's rare lines go (connections refused, at most one line a second). */
        Consumer<String> log = line ->
        {
        };
        Supplier<String> exchangeInfo;
        Supplier<String> connectivity;
        /** The trading route's limits and the book and order limits, for GET /api/v1/bsl/limits (a JSON object). */
        String tradingLimits;
        /** The engine's per-account limit (actions per window), named by X-RateLimit-Limit on every submit answer. */
        long accountRateLimit;
        /** What the lane counts: the node's metrics read it through the lane ({@link HttpLane#appendMetrics}). */
        final LaneCounters counters = new LaneCounters();
        /** The node's metrics text, every lane's counters in it; null: no metrics route. */
        Supplier<String> metrics;
        /** The addresses the metrics route answers; any other gets 404. */
        Set<InetAddress> metricsAllowed = Set.of();
        Function<byte[], Answer> actionStatus;
        Function<String, String> nonceStatus;
        /** A credential's FIX onboarding record as JSON, or null; null function: no such route. */
        Function<String, String> fixOnboarding;
        Function<String, String> orderStatus;
        ToLongFunction<String> orderMarket;
        LongPredicate marketListed;
        CancelReplaceRequests cancelReplaces;
        long mmActionTsSkewMs = CompactOrderRoute.MAX_ACTION_TS_SKEW_MS;
        OwnerIntents ownerIntents;
        ProtectionSignatures protectionSignatures;
        TokenSigners tokenSigners;
        WsTokens wsTokens;
        long wsTokenTtlMs = WsTokens.DEFAULT_TTL_MS;
        BiFunction<String, Long, CompletableFuture<String>> executions;
        /** The market data and account reads; null: those routes answer 404. */
        Feed feed;
        EntryCore entry;
        /** Whether the compact binary order routes are served. */
        boolean compactOrders;
        /** The WebSocket endpoints' configuration; null: they answer 404. */
        WsGateway.Context webSocket;

        public Context host(final String host)
        {
            this.host = host;
            return this;
        }

        /** 0 lets the system choose (tests); read it back with {@link HttpGateway#port()}. */
        public Context port(final int port)
        {
            this.port = port;
            return this;
        }

        /** Serves HTTPS with these certificates ({@link ServerTls}); null (the default): plain HTTP. */
        public Context tls(final ServerTls tls)
        {
            this.tls = tls;
            return this;
        }

        /**
         * The local proxies ({@code http.trusted.proxies}) whose connections must start with a PROXY v2 header: the
         * client it names is the connection's address for every per-address rule. A PROXY header from any other peer
         * closes its connection.
         */
        public Context trustedProxies(final Set<InetAddress> proxies)
        {
            this.trustedProxies = Set.copyOf(proxies);
            return this;
        }

        public Context ioThreads(final int threads)
        {
            this.ioThreads = threads;
            return this;
        }

        /**
         * Larger bodies are answered 413 without being read further (default 512 KiB, the verifier pool's: a batch of
         * 1,000 legs fits).
         */
        public Context maxBodyBytes(final int bytes)
        {
            this.maxBodyBytes = bytes;
            return this;
        }

        /**
         * A connection's read deadlines ({@link ConnectionDeadlines}): a request head must be whole within
         * {@code headerMs} of the connection opening or of its first byte, a body within {@code bodyMs} of its head,
         * and a kept-alive connection with every request answered must start the next within {@code idleMs}; past one
         * the connection is closed.
         */
        public Context deadlines(final long headerMs, final long bodyMs, final long idleMs)
        {
            this.headerTimeoutMs = headerMs;
            this.bodyTimeoutMs = bodyMs;
            this.idleTimeoutMs = idleMs;
            return this;
        }

        /**
         * The connection caps ({@link ConnectionLimits}): at most {@code total} open on the lane and {@code perAddress}
         * from one address (an IPv6 address by its /64); one more is answered 503 CONNECTION_LIMIT and closed at once.
         * The {@code exempt} addresses are never refused (they count toward the total).
         */
        public Context connections(final int total, final int perAddress, final Set<InetAddress> exempt)
        {
            this.maxConnections = total;
            this.maxConnectionsPerAddress = perAddress;
            this.connectionsExempt = Set.copyOf(exempt);
            return this;
        }

        /**
         * The private reads' throttles (the executions pages, each a read of the event journal on one shared thread):
         * requests a second and burst per account (after its token is checked) and per address (an IPv6 address by its
         * /64, before; the exempt addresses of {@link #connections} pass), each table holding the last
         * {@value #READ_THROTTLE_KEYS} keys used. Over either: 429 {@code rate_limited} with Retry-After.
         */
        public Context privateReads(final long accountRate, final long accountBurst, final long addressRate,
            final long addressBurst)
        {
            this.readsByAccount = new BoundedBuckets<>(accountRate, accountBurst, READ_THROTTLE_KEYS, System::nanoTime);
            this.readsByAddress = new BoundedBuckets<>(addressRate, addressBurst, READ_THROTTLE_KEYS, System::nanoTime);
            return this;
        }

        /** Where the lane logs what an operator should see: connections refused over a cap, a line a second at most. */
        public Context log(final Consumer<String> log)
        {
            this.log = log;
            return this;
        }

        /** The body of GET /api/v1/public/exchange-info, computed per request. */
        public Context exchangeInfo(final Supplier<String> exchangeInfo)
        {
            this.exchangeInfo = exchangeInfo;
            return this;
        }

        /** The body of GET /api/v1/bsl/connectivity and /api/v1/fix/connectivity. */
        public Context connectivity(final Supplier<String> connectivity)
        {
            this.connectivity = connectivity;
            return this;
        }

        /**
         * GET /api/v1/admin/metrics: the operator's metrics (Prometheus text), answered only to {@code allowed}
         * addresses (404 to any other, as if there were no such route).
         */
        public Context metrics(final Set<InetAddress> allowed, final Supplier<String> metrics)
        {
            this.metricsAllowed = Set.copyOf(allowed);
            this.metrics = metrics;
            return this;
        }

        /**
         * The engine's per-account limit, actions per window: X-RateLimit-Limit on submit answers the engine did
         * not decide.
         */
        public Context accountRateLimit(final long actionsPerWindow)
        {
            this.accountRateLimit = actionsPerWindow;
            return this;
        }

        /** The limits outside the MM windows that GET /api/v1/bsl/limits serves beside them: a JSON object. */
        public Context tradingLimits(final String json)
        {
            this.tradingLimits = json;
            return this;
        }

        /**
         * GET /api/v1/trading/actions/{digest}: the answer that says what happened to the action with that digest, or
         * null when it is not among the recent ones.
         */
        public Context actionStatus(final Function<byte[], Answer> actionStatus)
        {
            this.actionStatus = actionStatus;
            return this;
        }

        /**
         * GET /api/v1/admin/fix/onboarding/{apiKeyId}: a credential's FIX onboarding record as JSON, or null when it
         * has none; answered to the metrics route's addresses only.
         */
        public Context fixOnboarding(final Function<String, String> fixOnboarding)
        {
            this.fixOnboarding = fixOnboarding;
            return this;
        }

        /** GET /api/v1/trading/accounts/{account}/nonce: the account's nonce window as JSON. */
        public Context nonceStatus(final Function<String, String> nonceStatus)
        {
            this.nonceStatus = nonceStatus;
            return this;
        }

        /**
         * The MM lane on HTTP: POST /api/v1/mm/orders/replace (and /cancel-replace) with an institutional agent's SVC-*
         * headers, under {@code windows}, which GET /api/v1/bsl/limits and /api/v1/mm/limits serve. Needs
         * {@link #machineAuth}.
         */
        public Context mmOrderEntry(final CancelReplaceRequests requests)
        {
            this.cancelReplaces = requests;
            return this;
        }

        /**
         * The compact binary order routes of the MM lane (POST /api/v1/bsl/orders/compact and its two aliases): each
         * order is offered to {@code submitter} typed, as it is in the body, to be verified as a submit of the MM lane,
         * its ts within {@code actionTsSkewMs} of the clock. Needs {@link #mmOrderEntry} (its windows).
         */
        public Context compactOrderEntry(final long actionTsSkewMs)
        {
            if (actionTsSkewMs < 1)
            {
                throw new IllegalArgumentException("the action ts skew must be positive");
            }
            this.compactOrders = true;
            this.mmActionTsSkewMs = actionTsSkewMs;
            return this;
        }

        /** Whether a market id is listed, for GET /api/v1/bsl/markets/{marketId}/quote-obligations. */
        public Context marketListed(final LongPredicate listed)
        {
            this.marketListed = listed;
            return this;
        }

        /** GET /api/v1/trading/orders/{orderId}: the order's status as JSON, or null when it is not known. */
        public Context orderStatus(final Function<String, String> orderStatus)
        {
            this.orderStatus = orderStatus;
            return this;
        }

        /**
         * The market of a known order (its 0x id), or -1: a compact request's amend counts in the MM window of its
         * order's market. Unset, every amend counts in its request's market.
         */
        public Context orderMarket(final ToLongFunction<String> orderMarket)
        {
            this.orderMarket = orderMarket;
            return this;
        }

        /**
         * Lets the protection routes take the account's own signature (docs/API.md, "Protections") beside an agent's
         * machine headers; without it they take machine headers only.
         */
        public Context protectionSignatures(final ProtectionSignatures signatures)
        {
            this.protectionSignatures = signatures;
            return this;
        }

        /** Serves the agent routes (create, rotate, revoke, owner-revoke); without it they answer 404. */
        public Context ownerIntents(final OwnerIntents intents)
        {
            this.ownerIntents = intents;
            return this;
        }

        /**
         * Machine credentials (SVC-* headers, spec 5.4) and the tokens they obtain: POST /api/v1/ws/token.
         *
         * @param apiKeys       an API key id to its active credential, null when unknown, revoked or expired.
         * @param defaultTtlMs  the TTL of a token whose request names none (clamped to 60-300 s).
         */
        public Context wsTokens(final WsTokens tokens, final long defaultTtlMs)
        {
            this.wsTokens = tokens;
            this.wsTokenTtlMs = defaultTtlMs;
            return this;
        }

        /**
         * Lets a wallet obtain a token by signing (spec 5.7) instead of machine headers; needs {@link #ownerIntents}
         * and {@link #machineAuth}.
         */
        public Context tokenSigners(final TokenSigners signers)
        {
            this.tokenSigners = signers;
            return this;
        }

        /** The feed behind the market and account reads (FeedReads) and the WebSocket streams. */
        public Context feed(final Feed feed)
        {
            this.feed = feed;
            return this;
        }

        /**
         * GET /api/v1/bsl/accounts/{account}/executions?cursor=: a page of the account's executions after the cursor,
         * as JSON, computed off the I/O threads. Needs {@link #machineAuth} for its bearer tokens.
         */
        public Context executions(
            final BiFunction<String, Long, CompletableFuture<String>> executions)
        {
            this.executions = executions;
            return this;
        }

        /**
         * Serves {@value WsGateway#PUBLIC_PATH} and {@value WsGateway#PRIVATE_PATH} (docs/WEBSOCKET.md) on this port,
         * over its TLS and PROXY v2. Without its own token verifier and grant check, the context gets this lane's:
         * {@link #wsTokens} and the check a private read makes of its token.
         */
        public Context webSocket(final WsGateway.Context webSocket)
        {
            this.webSocket = webSocket;
            return this;
        }

        /** The WebSocket endpoints' configuration, or null. */
        public WsGateway.Context webSocket()
        {
            return webSocket;
        }

        /** The order-entry core this lane's connections enter by (shared with the node's other lanes). */
        public Context entry(final EntryCore core)
        {
            this.entry = core;
            return this;
        }

        void validate()
        {
            if (entry == null || exchangeInfo == null || connectivity == null || actionStatus == null ||
                nonceStatus == null)
            {
                throw new IllegalStateException(
                    "entry, exchangeInfo, connectivity, actionStatus and nonceStatus are required");
            }
            final EntryCore.Context core = entry.context();
            if (cancelReplaces != null && (core.cancelReplaceSubmitter() == null || entry.credentials() == null))
            {
                throw new IllegalStateException(
                    "mmOrderEntry needs the core's cancel-replace submitter and machine credentials");
            }
            if (compactOrders &&
                (core.mmSubmitter() == null || core.mmWindows() == null || entry.credentials() == null))
            {
                throw new IllegalStateException(
                    "compactOrderEntry needs the core's MM submitter, MM windows and machine credentials");
            }
            if (ownerIntents != null && core.intentSubmitter() == null)
            {
                throw new IllegalStateException("ownerIntents needs the core's intent submitter");
            }
            if (tokenSigners != null && (ownerIntents == null || wsTokens == null))
            {
                throw new IllegalStateException("tokenSigners needs ownerIntents and wsTokens");
            }
            if (webSocket != null)
            {
                if (!webSocket.hasTokens() && wsTokens != null)
                {
                    webSocket.tokens(wsTokens, new TokenRoute(this, null)::stillGranted);
                }
                webSocket.conclude();
            }
            if (port < 0 || port > 65_535 || ioThreads < 1 || maxBodyBytes < 1)
            {
                throw new IllegalArgumentException("port 0-65535, ioThreads and maxBodyBytes positive");
            }
            if (headerTimeoutMs < 1 || bodyTimeoutMs < 1 || idleTimeoutMs < 1 || maxConnections < 1 ||
                maxConnectionsPerAddress < 1)
            {
                throw new IllegalArgumentException("the deadlines and the connection caps must be positive");
            }
        }
    }
}
