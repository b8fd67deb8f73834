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
import io.netty.handler.codec.http.HttpServerCodec;

import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * The HTTP lane (Netty): signed actions in, answers after the journal, and the public reads. The I/O threads
 * only decode, register the request and offer its body to the verifier pool; the answer is written by the
 * responder's thread when the engine has decided (see {@link PendingSubmits}).
 */
public final class HttpGateway implements AutoCloseable
{
    /**
     * Offers a request body to verification, on the pool's pre-batched ring when {@code prebatched} (a large MM batch, or
     * a request behind one on its connection) and on its low-latency ring otherwise; false when that ring is full.
     */
    @FunctionalInterface
    public interface Submitter
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, byte[] body, int offset, int length);
    }

    /**
     * Offers one order of a binary lane to verification as the typed action it is, with no JSON: its bytes in the typed
     * order's layout ({@link io.venue.action.typed.TypedOrder}: the action, then its signature),
     * {@code order[offset, offset + TypedOrder.ORDER_LENGTH)}, and the market of a place; on the pool's pre-batched ring
     * when {@code prebatched}; false when that ring is full. The compact routes' orders are the MM lane's
     * ({@code VerifierPool::offerTypedMm}).
     */
    @FunctionalInterface
    public interface TypedSubmitter
    {
        boolean offerTyped(boolean prebatched, long connectionId, long correlationId, org.agrona.DirectBuffer order, int offset,
            long market);
    }

    /** Offers an owner's intent (text, signature, command) to verification; false when the pool's ring is full. */
    @FunctionalInterface
    public interface IntentSubmitter
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, byte[] owner, byte[] signature, byte[] text,
            byte[] command, int commandLength);
    }

    /** Offers an MM cancel-replace (its signed fields, both signatures, the command) to verification; false when full. */
    @FunctionalInterface
    public interface CancelReplaceSubmitter
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, io.venue.verifier.CancelReplaceCheck.Order order,
            byte[] signatures, byte[] command, int commandLength);
    }

    /** Spec 8.2's {@code actions.lowLatencyMaxActions}: a compact request of more orders is pre-batched. */
    public static final int DEFAULT_LOW_LATENCY_MAX_ACTIONS = 32;
    /**
     * Spec 8.2's {@code backlog.prebatchedMaxBatches} (not shown there): batches waiting at once. Eight batches of 1,000
     * orders are under a second of work on the project's machine (DECISIONS.md).
     */
    public static final int DEFAULT_PREBATCHED_MAX_BATCHES = 8;

    /** A private executions page stops after this many executions, or after this many commands read. */
    public static final int EXECUTIONS_PAGE = 100;
    public static final int EXECUTIONS_SCAN = 100_000;

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel server;
    private final Context context;

    private HttpGateway(final Context context)
    {
        this.context = context;
        // read first (it loads the SVC-Nonce store): a failure leaves no threads behind
        final ApiHandler.Shared shared = new ApiHandler.Shared(context);
        boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(context.ioThreads, NioIoHandler.newFactory());
        try
        {
            server = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel channel)
                    {
                        final long connectionId = shared.connectionIds.incrementAndGet();
                        channel.pipeline()
                            .addLast(new HttpServerCodec(4096, 16 * 1024, 8192))
                            .addLast(new BodyLimit(context))
                            .addLast(new ApiHandler(shared, connectionId));
                    }
                })
                .bind(context.host, context.port).sync().channel();
            if (context.edgeThrottle != null)
            {
                // the counts of addresses that stopped sending, once a second
                final java.util.function.ObjLongConsumer<String> journal = (address, count) ->
                    ApiHandler.journalEdge(context, 0, address, count);
                workers.next().scheduleAtFixedRate(() ->
                {
                    context.edgeThrottle.flushHeld(journal);
                    context.mmAuthThrottle.flushHeld(journal);
                }, 1, 1, java.util.concurrent.TimeUnit.SECONDS);
            }
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
        context.draining = true;
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
        boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Configuration, Aeron style: set what differs from the defaults, then {@link #start}. */
    public static final class Context
    {
        String host = "127.0.0.1";
        int port = 8080;
        int ioThreads = 1;
        int maxBodyBytes = 512 * 1024;
        long answerTimeoutMs = 10_000;
        Submitter submitter;
        PendingSubmits pending;
        Supplier<String> exchangeInfo;
        Supplier<String> connectivity;
        /** The trading route's limits and the book and order limits, for GET /api/v1/bsl/limits (a JSON object). */
        String tradingLimits;
        /** The engine's per-account limit (actions per window), named by X-RateLimit-Limit on every submit answer. */
        long accountRateLimit;
        /** What the lane counts, for the metrics route. */
        final LaneCounters counters = new LaneCounters();
        /** The metrics text, given the lane's counters; null: no metrics route. */
        java.util.function.Function<LaneCounters, String> metrics;
        /** The addresses the metrics route answers; any other gets 404. */
        java.util.Set<java.net.InetAddress> metricsAllowed = java.util.Set.of();
        java.util.function.Function<String, SubmitResponse> actionStatus;
        java.util.function.Function<String, String> nonceStatus;
        java.util.function.Function<String, String> orderStatus;
        java.util.function.ToLongFunction<String> orderMarket;
        java.util.function.LongPredicate marketListed;
        CancelReplaceRequests cancelReplaces;
        CancelReplaceSubmitter cancelReplaceSubmitter;
        TypedSubmitter mmSubmitter;
        long mmActionTsSkewMs = CompactOrderRoute.MAX_ACTION_TS_SKEW_MS;
        int lowLatencyMaxActions = DEFAULT_LOW_LATENCY_MAX_ACTIONS;
        int prebatchedMaxBatches = DEFAULT_PREBATCHED_MAX_BATCHES;
        SvcNonceStore svcNonceStore;
        MmWindows mmWindows;
        java.util.function.LongSupplier backlog;
        long busyBacklog;
        EdgeThrottle edgeThrottle;
        /** The MM lane's count of failed authentications: the edge throttle's settings, buckets of its own. */
        EdgeThrottle mmAuthThrottle;
        volatile boolean draining;
        PreJournalRefusals refusals;
        OwnerIntents ownerIntents;
        IntentSubmitter intentSubmitter;
        java.util.function.Function<String, ApiKey> apiKeys;
        TokenSigners tokenSigners;
        WsTokens wsTokens;
        long wsTokenTtlMs = WsTokens.DEFAULT_TTL_MS;
        java.util.function.BiFunction<String, Long, java.util.concurrent.CompletableFuture<String>> executions;

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

        public Context ioThreads(final int threads)
        {
            this.ioThreads = threads;
            return this;
        }

        /** Larger bodies are answered 413 without being read further (default 512 KiB, the verifier pool's: a batch of 1,000 legs fits). */
        public Context maxBodyBytes(final int bytes)
        {
            this.maxBodyBytes = bytes;
            return this;
        }

        /** How long a submit waits for its decision before a 504 (default 10 s). */
        public Context answerTimeoutMs(final long ms)
        {
            this.answerTimeoutMs = ms;
            return this;
        }

        public Context submitter(final Submitter submitter)
        {
            this.submitter = submitter;
            return this;
        }

        public Context pending(final PendingSubmits pending)
        {
            this.pending = pending;
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
         * GET /api/v1/admin/metrics: the operator's metrics (Prometheus text), answered only to {@code allowed} addresses
         * (404 to any other, as if there were no such route).
         */
        public Context metrics(final java.util.Set<java.net.InetAddress> allowed,
            final java.util.function.Function<LaneCounters, String> metrics)
        {
            this.metricsAllowed = java.util.Set.copyOf(allowed);
            this.metrics = metrics;
            return this;
        }

        /** The engine's per-account limit, actions per window: X-RateLimit-Limit on submit answers the engine did not decide. */
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
         * GET /api/v1/trading/actions/{digest}: the answer that says what happened to the action with that digest, or null when it
         * is not among the recent ones.
         */
        public Context actionStatus(final java.util.function.Function<String, SubmitResponse> actionStatus)
        {
            this.actionStatus = actionStatus;
            return this;
        }

        /**
         * Early refusal (503 SHARD_BUSY) while {@code backlog} (commands journaled and not yet applied by the shard) is
         * above {@code busyBacklog}: a new submit would only wait behind it.
         */
        public Context shardBusyAbove(final long busyBacklog, final java.util.function.LongSupplier backlog)
        {
            this.busyBacklog = busyBacklog;
            this.backlog = backlog;
            return this;
        }

        /** GET /api/v1/trading/accounts/{account}/nonce: the account's nonce window as JSON. */
        public Context nonceStatus(final java.util.function.Function<String, String> nonceStatus)
        {
            this.nonceStatus = nonceStatus;
            return this;
        }

        /**
         * The MM lane on HTTP: POST /api/v1/mm/orders/replace (and /cancel-replace) with an institutional agent's SVC-*
         * headers, under {@code windows}, which GET /api/v1/bsl/limits and /api/v1/mm/limits serve. Needs {@link #machineAuth}.
         */
        public Context mmOrderEntry(final CancelReplaceRequests requests, final CancelReplaceSubmitter submitter,
            final MmWindows windows)
        {
            this.cancelReplaces = requests;
            this.cancelReplaceSubmitter = submitter;
            this.mmWindows = windows;
            return this;
        }

        /**
         * The compact binary order routes of the MM lane (POST /api/v1/bsl/orders/compact and its two aliases): each
         * order is offered to {@code submitter} typed, as it is in the body, to be verified as a submit of the MM lane, its
         * ts within {@code actionTsSkewMs} of the clock. Needs {@link #mmOrderEntry} (its windows).
         */
        public Context compactOrderEntry(final TypedSubmitter submitter, final long actionTsSkewMs)
        {
            if (actionTsSkewMs < 1)
            {
                throw new IllegalArgumentException("the action ts skew must be positive");
            }
            this.mmSubmitter = submitter;
            this.mmActionTsSkewMs = actionTsSkewMs;
            return this;
        }

        /**
         * The compact routes' two verifier rings ({@link PrebatchedLane}): a request of more than {@code lowLatencyMaxActions}
         * orders is a batch, and at most {@code prebatchedMaxBatches} batches may wait at once (default 32 and 8).
         */
        public Context prebatched(final int lowLatencyMaxActions, final int prebatchedMaxBatches)
        {
            if (lowLatencyMaxActions < 1 || lowLatencyMaxActions > io.venue.transport.bsl.CompactOrders.MAX_ORDERS ||
                prebatchedMaxBatches < 1)
            {
                throw new IllegalArgumentException("lowLatencyMaxActions 1 to " + io.venue.transport.bsl.CompactOrders.MAX_ORDERS +
                    " and prebatchedMaxBatches at least 1, got " + lowLatencyMaxActions + " and " + prebatchedMaxBatches);
            }
            this.lowLatencyMaxActions = lowLatencyMaxActions;
            this.prebatchedMaxBatches = prebatchedMaxBatches;
            return this;
        }

        /** Where each API key's highest accepted SVC-Nonce is kept across restarts (none: in memory only). */
        public Context svcNonceStore(final SvcNonceStore store)
        {
            this.svcNonceStore = store;
            return this;
        }

        /** Whether a market id is listed, for GET /api/v1/bsl/markets/{marketId}/quote-obligations. */
        public Context marketListed(final java.util.function.LongPredicate listed)
        {
            this.marketListed = listed;
            return this;
        }

        /** GET /api/v1/trading/orders/{orderId}: the order's status as JSON, or null when it is not known. */
        public Context orderStatus(final java.util.function.Function<String, String> orderStatus)
        {
            this.orderStatus = orderStatus;
            return this;
        }

        /**
         * The market of a known order (its 0x id), or -1: a compact request's amend counts in the MM window of its order's
         * market. Unset, every amend counts in its request's market.
         */
        public Context orderMarket(final java.util.function.ToLongFunction<String> orderMarket)
        {
            this.orderMarket = orderMarket;
            return this;
        }

        /** The edge IP throttle of the submit route; its refusals are journaled through {@link #refusals}. */
        public Context edgeThrottle(final EdgeThrottle throttle)
        {
            this.edgeThrottle = throttle;
            this.mmAuthThrottle = throttle == null ? null : throttle.sibling();
            return this;
        }

        /**
         * Where submits refused before verification go to be journaled (the edge throttle, a body over the limit, a
         * full verifier queue); without it they are answered and not journaled.
         */
        public Context refusals(final PreJournalRefusals refusals)
        {
            this.refusals = refusals;
            return this;
        }

        /** Serves the agent routes (create, rotate, revoke, owner-revoke); without it they answer 404. */
        public Context ownerIntents(final OwnerIntents intents, final IntentSubmitter submitter)
        {
            this.ownerIntents = intents;
            this.intentSubmitter = submitter;
            return this;
        }

        /**
         * Machine credentials (SVC-* headers, spec 5.4) and the tokens they obtain: POST /api/v1/ws/token.
         *
         * @param apiKeys       an API key id to its active credential, null when unknown, revoked or expired.
         * @param defaultTtlMs  the TTL of a token whose request names none (clamped to 60-300 s).
         */
        public Context machineAuth(final java.util.function.Function<String, ApiKey> apiKeys, final WsTokens tokens,
            final long defaultTtlMs)
        {
            this.apiKeys = apiKeys;
            this.wsTokens = tokens;
            this.wsTokenTtlMs = defaultTtlMs;
            return this;
        }

        /**
         * Lets a wallet obtain a token by signing (spec 5.7) instead of machine headers; needs {@link #ownerIntents} and
         * {@link #machineAuth}.
         */
        public Context tokenSigners(final TokenSigners signers)
        {
            this.tokenSigners = signers;
            return this;
        }

        /**
         * GET /api/v1/bsl/accounts/{account}/executions?cursor=: a page of the account's executions after the cursor, as
         * JSON, computed off the I/O threads. Needs {@link #machineAuth} for its bearer tokens.
         */
        public Context executions(
            final java.util.function.BiFunction<String, Long, java.util.concurrent.CompletableFuture<String>> executions)
        {
            this.executions = executions;
            return this;
        }

        void validate()
        {
            if (submitter == null || pending == null || exchangeInfo == null || connectivity == null || actionStatus == null ||
                nonceStatus == null)
            {
                throw new IllegalStateException("submitter, pending, exchangeInfo, connectivity, actionStatus and nonceStatus are required");
            }
            if (cancelReplaces != null && apiKeys == null)
            {
                throw new IllegalStateException("mmOrderEntry needs machineAuth");
            }
            if (mmSubmitter != null && (mmWindows == null || apiKeys == null))
            {
                throw new IllegalStateException("compactOrderEntry needs mmOrderEntry (its windows) and machineAuth");
            }
            if (tokenSigners != null && (ownerIntents == null || wsTokens == null))
            {
                throw new IllegalStateException("tokenSigners needs ownerIntents and machineAuth");
            }
            if (edgeThrottle != null && refusals == null)
            {
                throw new IllegalStateException("the edge throttle needs refusals to journal what it refuses");
            }
            if (port < 0 || port > 65_535 || ioThreads < 1 || maxBodyBytes < 1 || answerTimeoutMs < 1)
            {
                throw new IllegalArgumentException("port 0-65535, ioThreads, maxBodyBytes and answerTimeoutMs positive");
            }
        }
    }
}
