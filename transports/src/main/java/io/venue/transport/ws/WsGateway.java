package io.venue.transport.ws;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.venue.entry.ConnectionIds;
import io.venue.entry.credential.WsTokens;
import io.venue.feed.Feed;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;

/**
 * The WebSocket gateway (docs/WEBSOCKET.md): {@value #PUBLIC_PATH} and {@value #PRIVATE_PATH}, upgraded on the HTTP
 * lane's port (so its TLS, SNI and PROXY v2 apply, and its connection caps count each connection). The HTTP lane
 * hands over a GET that asks for the upgrade; from then on a connection talks to the {@link Feed} only, through its
 * {@link WsConnection}. Nothing a client does blocks the feed's thread or another connection's I/O thread.
 * <p>
 * Once upgraded, a connection leaves the HTTP lane's I/O threads for the gateway's own ({@code ws-io}, see
 * {@link Context#ioThreads}): a fan-out to many subscribers then waits for its own threads, and never puts the
 * order-entry requests and answers of the HTTP lane behind its writes.
 */
public final class WsGateway implements AutoCloseable
{
    public static final String PUBLIC_PATH = "/api/v1/ws/public";
    public static final String PRIVATE_PATH = "/api/v1/ws/private";

    private final Context context;
    private final ConnectionIds connectionIds = new ConnectionIds(ConnectionIds.WEBSOCKET);
    /** The connections open now, for the going-away close when the node stops. */
    private final Set<WsConnection> open = ConcurrentHashMap.newKeySet();
    /** The upgraded connections' I/O threads; null: they stay on the HTTP lane's ({@code ioThreads} 0). */
    private final EventLoopGroup loops;

    /** @param context concluded ({@link Context#conclude}). */
    public WsGateway(final Context context)
    {
        if (!context.concluded)
        {
            throw new IllegalStateException("conclude the context first");
        }
        this.context = context;
        this.loops = context.ioThreads == 0 ? null : new MultiThreadIoEventLoopGroup(context.ioThreads,
            new DefaultThreadFactory("ws-io", true), NioIoHandler.newFactory());
    }

    public Context context()
    {
        return context;
    }

    /**
     * Why an upgrade request on one of the paths is refused before the handshake, or null. A token is taken only in
     * the auth frame (spec 5.7): one in the query string or a header is refused, so it never sits in a proxy's log.
     */
    public static String refusal(final FullHttpRequest request)
    {
        final Map<String, List<String>> query = new QueryStringDecoder(request.uri()).parameters();
        for (final Map.Entry<String, List<String>> parameter : query.entrySet())
        {
            if (parameter.getKey().equalsIgnoreCase("token") ||
                parameter.getValue().stream().anyMatch(value -> value.contains(WsTokens.PREFIX)))
            {
                return "a token is not accepted in the query string: send it in the auth frame";
            }
        }
        if (request.headers().contains(HttpHeaderNames.AUTHORIZATION))
        {
            return "a token is not accepted in a header: send it in the auth frame";
        }
        for (final Map.Entry<String, String> header : request.headers())
        {
            if (header.getValue().contains(WsTokens.PREFIX))
            {
                return "a token is not accepted in a header: send it in the auth frame";
            }
        }
        return null;
    }

    /**
     * Answers the upgrade (101) and turns the channel into a WebSocket connection. Called on the channel's event loop,
     * with the HTTP lane's handlers that must not see frames already removed; the HTTP codec goes once the 101 is
     * written. Reading pauses until then, so no frame arrives before the connection is ready for it.
     */
    public void upgrade(final Channel channel, final FullHttpRequest request, final boolean privateStream,
        final boolean secure)
    {
        final String url = (secure ? "wss://" : "ws://") + request.headers().get(HttpHeaderNames.HOST, "localhost") +
            request.uri();
        final WebSocketDecoderConfig decoder = WebSocketDecoderConfig.newBuilder()
            .maxFramePayloadLength(context.maxInboundBytes)
            // the gateway writes the error frame and the close itself (InboundFrames), with the counters
            .closeOnProtocolViolation(false)
            .allowExtensions(false)
            .build();
        final WebSocketServerHandshaker handshaker =
            new WebSocketServerHandshakerFactory(url, null, decoder).newHandshaker(request);
        if (handshaker == null)
        {
            WebSocketServerHandshakerFactory.sendUnsupportedVersionResponse(channel);
            return;
        }
        channel.config().setAutoRead(false);
        final long connectionId = connectionIds.next();
        handshaker.handshake(channel, request).addListener(done ->
        {
            if (!done.isSuccess())
            {
                channel.close();
                return;
            }
            if (loops == null)
            {
                open(channel, connectionId, privateStream);
                return;
            }
            // the 101 is written and reading is paused: the connection moves to the gateway's threads, where every
            // write of its frames happens from now on
            channel.deregister().addListener(deregistered ->
            {
                if (!deregistered.isSuccess())
                {
                    channel.close();
                    return;
                }
                loops.next().register(channel).addListener(registered ->
                {
                    if (registered.isSuccess())
                    {
                        open(channel, connectionId, privateStream);
                    }
                    else
                    {
                        channel.close();
                    }
                });
            });
        });
    }

    /** The upgraded connection starts on the event loop it stays on. */
    private void open(final Channel channel, final long connectionId, final boolean privateStream)
    {
        if (!channel.isActive())
        {
            channel.close();
            return;
        }
        if (context.socketSendBufferBytes > 0)
        {
            // a fixed kernel buffer ends the kernel's autotuning (up to tcp_wmem's max, 4 MiB, per connection):
            // a client that stops reading is then held by the slow-consumer mark, not by the kernel's memory
            channel.config().setOption(ChannelOption.SO_SNDBUF, context.socketSendBufferBytes);
        }
        final WsConnection connection = new WsConnection(context, channel, connectionId, privateStream);
        open.add(connection);
        channel.closeFuture().addListener(closed -> open.remove(connection));
        channel.pipeline().addLast(new InboundFrames(context.maxInboundBytes, connection));
        connection.start();
        channel.config().setAutoRead(true);
    }

    /** Closes every open connection 1001 (going away): the node's lanes drain. */
    public void drain()
    {
        for (final WsConnection connection : open)
        {
            connection.goingAway();
        }
    }

    /** Stops the gateway's I/O threads (after the HTTP lane's: a connection still open is closed with them). */
    @Override
    public void close()
    {
        if (loops != null)
        {
            loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Configuration, Aeron style: set what differs from the defaults, then {@link #conclude}. */
    public static final class Context
    {
        public static final long DEFAULT_HEARTBEAT_MS = 20_000;
        public static final long DEFAULT_IDLE_TIMEOUT_MS = 90_000;
        public static final long DEFAULT_AUTH_DEADLINE_MS = 5_000;
        public static final int DEFAULT_MAX_SUBSCRIPTIONS = 32;
        public static final int DEFAULT_PUBLIC_MAX_MARKETS = 16;
        public static final int DEFAULT_MAX_CONTROL_MESSAGES = 60;
        public static final long DEFAULT_CONTROL_WINDOW_MS = 60_000;
        public static final int DEFAULT_MAX_INBOUND_BYTES = 64 * 1024;
        public static final long DEFAULT_SLOW_CONSUMER_BYTES = 4L * 1024 * 1024;
        public static final long DEFAULT_SLOW_CONSUMER_GRACE_MS = 5_000;
        /** The hard cap is this many times the slow-consumer mark unless set. */
        public static final int DEFAULT_HARD_CAP_FACTOR = 8;
        public static final long DEFAULT_GRANT_CHECK_MS = 1_000;
        public static final long DEFAULT_TICK_MS = 100;
        /** {@link #ioThreads}: chosen for the host when the context is concluded. */
        public static final int IO_THREADS_AUTO = -1;

        long heartbeatMs = DEFAULT_HEARTBEAT_MS;
        long idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS;
        long authDeadlineMs = DEFAULT_AUTH_DEADLINE_MS;
        int maxSubscriptions = DEFAULT_MAX_SUBSCRIPTIONS;
        int publicMaxMarkets = DEFAULT_PUBLIC_MAX_MARKETS;
        int maxControlMessages = DEFAULT_MAX_CONTROL_MESSAGES;
        long controlWindowMs = DEFAULT_CONTROL_WINDOW_MS;
        int maxInboundBytes = DEFAULT_MAX_INBOUND_BYTES;
        long slowConsumerBytes = DEFAULT_SLOW_CONSUMER_BYTES;
        long slowConsumerGraceMs = DEFAULT_SLOW_CONSUMER_GRACE_MS;
        /** 0: {@link #DEFAULT_HARD_CAP_FACTOR} times the mark. */
        long hardCapBytes;
        long grantCheckMs = DEFAULT_GRANT_CHECK_MS;
        long tickMs = DEFAULT_TICK_MS;
        /** 0: the kernel's (autotuned). */
        int socketSendBufferBytes;
        int ioThreads = IO_THREADS_AUTO;
        Feed feed;
        WsTokens tokens;
        BiPredicate<WsTokens.Claims, Long> stillGranted;
        final WsCounters counters = new WsCounters();
        boolean concluded;

        /** A heartbeat frame every {@code ms} (default 20 s). */
        public Context heartbeatMs(final long ms)
        {
            this.heartbeatMs = ms;
            return this;
        }

        /** A connection that sends nothing for {@code ms} is closed 4000 (default 90 s). */
        public Context idleTimeoutMs(final long ms)
        {
            this.idleTimeoutMs = ms;
            return this;
        }

        /** A private connection's auth frame must come within {@code ms} (default 5 s). */
        public Context authDeadlineMs(final long ms)
        {
            this.authDeadlineMs = ms;
            return this;
        }

        /**
         * Subscriptions per connection (default 32) and distinct markets per public connection
         * (default 16); over either: close 4409.
         */
        public Context subscriptions(final int maxSubscriptions, final int publicMaxMarkets)
        {
            this.maxSubscriptions = maxSubscriptions;
            this.publicMaxMarkets = publicMaxMarkets;
            return this;
        }

        /**
         * At most {@code messages} client messages in any {@code windowMs} (default 60 per 60 s, a
         * sliding window); one more: close 4409.
         */
        public Context controlMessages(final int messages, final long windowMs)
        {
            this.maxControlMessages = messages;
            this.controlWindowMs = windowMs;
            return this;
        }

        /** The largest client message, fragments aggregated (default 64 KiB); over: 1009. */
        public Context maxInboundBytes(final int bytes)
        {
            this.maxInboundBytes = bytes;
            return this;
        }

        /**
         * Bytes queued to a connection and not yet written over {@code bytes} (default 4 MiB):
         * a slow_consumer frame; still over after {@code graceMs} (default 5 s): close
         * 4408. Over {@code hardCapBytes} (default 8 times the mark): close 4408 at
         * once, so a connection never holds more.
         */
        public Context slowConsumer(final long bytes, final long graceMs, final long hardCapBytes)
        {
            this.slowConsumerBytes = bytes;
            this.slowConsumerGraceMs = graceMs;
            this.hardCapBytes = hardCapBytes;
            return this;
        }

        /**
         * How often an authenticated private connection checks that its token's grant still holds
         * (default 1 s), and how often a connection looks at its deadlines (default
         * 100 ms: the precision of every timeout above).
         */
        public Context timers(final long grantCheckMs, final long tickMs)
        {
            this.grantCheckMs = grantCheckMs;
            this.tickMs = tickMs;
            return this;
        }

        /**
         * The kernel's send buffer of each upgraded connection ({@code SO_SNDBUF}), or 0 (default) to leave the
         * kernel's, which grows by itself up to {@code net.ipv4.tcp_wmem}'s maximum (4 MiB on Linux) for a client
         * that does not read: that much per connection is held by the kernel before the slow-consumer mark sees a
         * byte. A fixed size bounds it (the kernel doubles the value it is given).
         */
        public Context socketSendBufferBytes(final int bytes)
        {
            this.socketSendBufferBytes = bytes;
            return this;
        }

        public int socketSendBufferBytes()
        {
            return socketSendBufferBytes;
        }

        /**
         * The upgraded connections' own I/O threads: {@value #IO_THREADS_AUTO} (default) for half the host's
         * processors, at least 1 and at most 4; 0 to keep them on the HTTP lane's I/O threads, beside its order entry
         * (the gateway's frames then compete with the lane's requests and answers on the same threads).
         */
        public Context ioThreads(final int threads)
        {
            this.ioThreads = threads;
            return this;
        }

        public int ioThreads()
        {
            return ioThreads;
        }

        /** The threads {@link #IO_THREADS_AUTO} gives on a host of {@code processors}. */
        public static int autoIoThreads(final int processors)
        {
            return Math.max(1, Math.min(4, processors / 2));
        }

        /** The market data and private streams. Required. */
        public Context feed(final Feed feed)
        {
            this.feed = feed;
            return this;
        }

        /**
         * The token verifier and the check that what obtained a token still holds ({@code (claims, nowMs)}); the HTTP
         * lane gives its own when these are not set.
         */
        public Context tokens(final WsTokens tokens, final BiPredicate<WsTokens.Claims, Long> stillGranted)
        {
            this.tokens = tokens;
            this.stillGranted = stillGranted;
            return this;
        }

        public WsCounters counters()
        {
            return counters;
        }

        public long heartbeatMs()
        {
            return heartbeatMs;
        }

        public long idleTimeoutMs()
        {
            return idleTimeoutMs;
        }

        public long authDeadlineMs()
        {
            return authDeadlineMs;
        }

        public int maxSubscriptions()
        {
            return maxSubscriptions;
        }

        public int publicMaxMarkets()
        {
            return publicMaxMarkets;
        }

        public int maxControlMessages()
        {
            return maxControlMessages;
        }

        public long controlWindowMs()
        {
            return controlWindowMs;
        }

        public int maxInboundBytes()
        {
            return maxInboundBytes;
        }

        public long slowConsumerBytes()
        {
            return slowConsumerBytes;
        }

        public long slowConsumerGraceMs()
        {
            return slowConsumerGraceMs;
        }

        public long hardCapBytes()
        {
            return hardCapBytes;
        }

        public boolean hasTokens()
        {
            return tokens != null && stillGranted != null;
        }

        /** Checks the values and fills the defaults that depend on others; the context is then fixed. */
        public Context conclude()
        {
            if (feed == null || tokens == null || stillGranted == null)
            {
                throw new IllegalStateException("the feed, the token verifier and the grant check are required");
            }
            if (heartbeatMs < 1 || idleTimeoutMs < 1 || authDeadlineMs < 1 || controlWindowMs < 1 ||
                slowConsumerGraceMs < 1 || grantCheckMs < 1 || tickMs < 1)
            {
                throw new IllegalArgumentException("the WebSocket timers must be positive");
            }
            if (maxSubscriptions < 1 || publicMaxMarkets < 1 || maxControlMessages < 1 ||
                maxControlMessages > 100_000 || maxInboundBytes < 256 || slowConsumerBytes < 1 ||
                socketSendBufferBytes < 0)
            {
                throw new IllegalArgumentException("the WebSocket limits must be positive (control messages at most " +
                    "100000, inbound bytes at least 256, the socket send buffer 0 or more)");
            }
            if (ioThreads < IO_THREADS_AUTO || ioThreads > 64)
            {
                throw new IllegalArgumentException("the WebSocket I/O threads are 0 (the HTTP lane's) to 64, or " +
                    IO_THREADS_AUTO + " (chosen for the host)");
            }
            if (ioThreads == IO_THREADS_AUTO)
            {
                ioThreads = autoIoThreads(Runtime.getRuntime().availableProcessors());
            }
            if (hardCapBytes == 0)
            {
                hardCapBytes = slowConsumerBytes * DEFAULT_HARD_CAP_FACTOR;
            }
            if (hardCapBytes <= slowConsumerBytes)
            {
                throw new IllegalArgumentException("the hard cap must be above the slow-consumer mark");
            }
            concluded = true;
            return this;
        }
    }
}
