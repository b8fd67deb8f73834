package io.venue.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection's requests. Routes by method and path; every answer is JSON with a {@code Date} header, except
 * where the spec says otherwise. A connection is one verifier-pool connection id, so its submits keep their order.
 */
final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest>
{
    static final String SUBMIT = "/api/v1/trading/actions";
    static final String EXCHANGE_INFO = "/api/v1/public/exchange-info";
    static final String BSL_CONNECTIVITY = "/api/v1/bsl/connectivity";
    static final String FIX_CONNECTIVITY = "/api/v1/fix/connectivity";
    static final String OPENAPI = "/api/v1/public/openapi.json";
    static final String ACCOUNTS = "/api/v1/trading/accounts/";
    static final String NONCE = "/nonce";
    static final java.util.regex.Pattern ADDRESS = java.util.regex.Pattern.compile("0x[0-9a-f]{40}");
    /** Every route served, for the OpenAPI document's test. */
    static final java.util.List<String> ROUTES = java.util.List.of(SUBMIT, SUBMIT + "/{digest}", EXCHANGE_INFO, BSL_CONNECTIVITY,
        FIX_CONNECTIVITY, OPENAPI, ACCOUNTS + "{account}" + NONCE);
    static final java.util.regex.Pattern DIGEST = java.util.regex.Pattern.compile("0x[0-9a-f]{64}");
    static final String RATE_LIMIT = "X-RateLimit-Limit";
    static final String RATE_REMAINING = "X-RateLimit-Remaining";
    static final String RATE_RESET_MS = "X-RateLimit-Reset-Ms";

    /** What every connection of one gateway shares. */
    static final class Shared
    {
        final HttpGateway.Context context;
        final AtomicLong connectionIds = new AtomicLong();

        Shared(final HttpGateway.Context context)
        {
            this.context = context;
        }
    }

    /** How often a connection looks for submits past their deadline (the timeout is honoured to within this). */
    private static final long SWEEP_MS = 100;

    private final Shared shared;
    private final long connectionId;
    /** This connection's submits in arrival order, until answered or past their deadline; used on the event loop only. */
    private final java.util.ArrayDeque<Waiting> waiting = new java.util.ArrayDeque<>();
    private java.util.concurrent.ScheduledFuture<?> sweep;

    ApiHandler(final Shared shared, final long connectionId)
    {
        this.shared = shared;
        this.connectionId = connectionId;
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        final boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!request.decoderResult().isSuccess())
        {
            send(ctx, false, new SubmitResponse(400, error("BAD_REQUEST", "the request is not valid HTTP/1.1: " +
                request.decoderResult().cause().getMessage())));
            return;
        }
        final String path = new QueryStringDecoder(request.uri()).path();
        final HttpMethod method = request.method();
        switch (path)
        {
            case SUBMIT ->
            {
                if (method.equals(HttpMethod.POST))
                {
                    submit(ctx, keepAlive, request.content());
                }
                else
                {
                    send(ctx, keepAlive, notAllowed("POST"));
                }
            }
            case EXCHANGE_INFO -> read(ctx, keepAlive, method, shared.context.exchangeInfo.get());
            case BSL_CONNECTIVITY, FIX_CONNECTIVITY -> read(ctx, keepAlive, method, shared.context.connectivity.get());
            case OPENAPI -> read(ctx, keepAlive, method, OpenApiDocument.TEXT);
            default ->
            {
                if (path.startsWith(SUBMIT + "/"))
                {
                    actionStatus(ctx, keepAlive, method, path.substring(SUBMIT.length() + 1));
                }
                else if (path.startsWith(ACCOUNTS) && path.endsWith(NONCE))
                {
                    final String account = path.substring(ACCOUNTS.length(), path.length() - NONCE.length());
                    if (!ADDRESS.matcher(account).matches())
                    {
                        send(ctx, keepAlive, new SubmitResponse(400, error("BAD_REQUEST", "the account is 0x and 40 lowercase hex digits")));
                    }
                    else
                    {
                        read(ctx, keepAlive, method, shared.context.nonceStatus.apply(account));
                    }
                }
                else
                {
                    send(ctx, keepAlive, new SubmitResponse(404, error("NOT_FOUND", "no route " + path)));
                }
            }
        }
    }

    private void actionStatus(final ChannelHandlerContext ctx, final boolean keepAlive, final HttpMethod method, final String digest)
    {
        if (!method.equals(HttpMethod.GET))
        {
            send(ctx, keepAlive, notAllowed("GET"));
            return;
        }
        if (!DIGEST.matcher(digest).matches())
        {
            send(ctx, keepAlive, new SubmitResponse(400, error("BAD_REQUEST", "the action digest is 0x and 64 lowercase hex digits")));
            return;
        }
        final SubmitResponse answer = shared.context.actionStatus.apply(digest);
        if (answer == null)
        {
            send(ctx, keepAlive, new SubmitResponse(404, error("UNKNOWN_ACTION", "no action with this digest among the recent " +
                "ones: it may never have reached the journal; resend the same signed body (a duplicate is refused nonce_replayed)")));
            return;
        }
        send(ctx, keepAlive, new SubmitResponse(200, new JsonWriter().field("ok", true).field("found", true)
            .field("httpStatus", answer.status()).raw("answer", answer.body()).toJson()));
    }

    private void read(final ChannelHandlerContext ctx, final boolean keepAlive, final HttpMethod method, final String body)
    {
        send(ctx, keepAlive, method.equals(HttpMethod.GET) ? new SubmitResponse(200, body) : notAllowed("GET"));
    }

    private void submit(final ChannelHandlerContext ctx, final boolean keepAlive, final ByteBuf content)
    {
        final EdgeThrottle throttle = shared.context.edgeThrottle;
        if (throttle != null)
        {
            final java.net.InetAddress address = ((java.net.InetSocketAddress)ctx.channel().remoteAddress()).getAddress();
            final long waitSeconds = throttle.acquire(address);
            if (waitSeconds > 0)
            {
                journal(shared.context, connectionId, io.venue.journal.sbe.RequestRejectReason.EDGE_RATE_LIMITED, "edge throttle: " +
                    address.getHostAddress() + " above " + throttle.ratePerSecond() + "/s (burst " + throttle.burst() + ")");
                sendText(ctx, keepAlive, HttpResponseStatus.TOO_MANY_REQUESTS, "Too Many Requests! Wait for " + waitSeconds + "s",
                    waitSeconds);
                return;
            }
        }
        if (shared.context.backlog != null)
        {
            final long backlog = shared.context.backlog.getAsLong();
            if (backlog > shared.context.busyBacklog)
            {
                journal(shared.context, connectionId, io.venue.journal.sbe.RequestRejectReason.SHARD_BUSY,
                    "the shard is " + backlog + " commands behind the journal");
                send(ctx, keepAlive, new SubmitResponse(503, error("SHARD_BUSY", "the shard is " + backlog +
                    " commands behind; nothing was journaled for this request, retry after the delay"), 1));
                return;
            }
        }
        final byte[] body = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), body);
        final AtomicBoolean answered = new AtomicBoolean();
        final PendingSubmits pending = shared.context.pending;
        final long correlation = pending.register(response ->
        {
            if (answered.compareAndSet(false, true))
            {
                send(ctx, keepAlive, response);
            }
        });
        if (!shared.context.submitter.offer(connectionId, correlation, body, 0, body.length))
        {
            pending.forget(correlation);
            answered.set(true);
            journal(shared.context, connectionId, io.venue.journal.sbe.RequestRejectReason.QUEUE_LIMIT, "the verifier queue is full");
            send(ctx, keepAlive, new SubmitResponse(503, error("QUEUE_LIMIT",
                "the verifier queue is full; nothing was journaled, retry after the delay"), 1));
            return;
        }
        waiting.add(new Waiting(answered, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(shared.context.answerTimeoutMs),
            keepAlive));
        if (sweep == null)
        {
            sweep = ctx.executor().scheduleAtFixedRate(() -> sweep(ctx), SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Answers 504 for this connection's submits past their deadline. They are in arrival order, so the first one
     * not yet due ends the walk; answered ones are dropped on the way. One task per connection, not one per request.
     */
    private void sweep(final ChannelHandlerContext ctx)
    {
        final long now = System.nanoTime();
        Waiting head;
        while ((head = waiting.peek()) != null)
        {
            if (!head.answered().get() && now - head.deadlineNs() < 0)
            {
                return;
            }
            waiting.poll();
            if (head.answered().compareAndSet(false, true))
            {
                send(ctx, head.keepAlive(), new SubmitResponse(504, error("TIMEOUT", "no decision within " +
                    shared.context.answerTimeoutMs + " ms; the action may still be applied: ask GET " +
                    "/api/v1/trading/actions/{digest}, or resend the same signed body (a duplicate is refused as " +
                    "nonce_replayed), never the same order under a new nonce")));
            }
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (sweep != null)
        {
            sweep.cancel(false);
        }
        super.channelInactive(ctx);
    }

    /** A submit not answered yet: answered by whoever sets the flag first (the responder or the sweep). */
    private record Waiting(AtomicBoolean answered, long deadlineNs, boolean keepAlive)
    {
    }

    /** Hands a refusal decided here to the sequencer to be journaled, when the gateway has somewhere to send it. */
    static void journal(final HttpGateway.Context context, final long connectionId,
        final io.venue.journal.sbe.RequestRejectReason reason, final String detail)
    {
        if (context.refusals != null)
        {
            context.refusals.offer(connectionId, context.pending.nextCorrelation(), reason.value(), detail);
        }
    }

    private static SubmitResponse notAllowed(final String allowed)
    {
        return new SubmitResponse(405, error("METHOD_NOT_ALLOWED", "use " + allowed));
    }

    static String error(final String code, final String message)
    {
        return new JsonWriter().field("ok", false).field("code", code).field("message", message).toJson();
    }

    static void send(final ChannelHandlerContext ctx, final boolean keepAlive, final SubmitResponse response)
    {
        final FullHttpResponse http = response(HttpResponseStatus.valueOf(response.status()), HttpHeaderValues.APPLICATION_JSON,
            response.body());
        if (response.rateLimit() >= 0)
        {
            http.headers().set(RATE_LIMIT, response.rateLimit()).set(RATE_REMAINING, response.rateRemaining())
                .set(RATE_RESET_MS, response.rateResetMs());
        }
        if (response.retryAfterSeconds() > 0 && (response.status() == 429 || response.status() == 503))
        {
            http.headers().set(HttpHeaderNames.RETRY_AFTER, response.retryAfterSeconds());
        }
        write(ctx, keepAlive, http);
    }

    /** The edge throttle's answer (spec 7.2): plain text, not JSON, with x-ratelimit-after and Retry-After. */
    private static void sendText(final ChannelHandlerContext ctx, final boolean keepAlive, final HttpResponseStatus status,
        final String text, final long afterSeconds)
    {
        final FullHttpResponse http = response(status, "text/plain; charset=utf-8", text);
        http.headers().set("x-ratelimit-after", afterSeconds).set(HttpHeaderNames.RETRY_AFTER, afterSeconds);
        write(ctx, keepAlive, http);
    }

    /** A response with its body, length and the server's time (the Date header every answer carries). */
    private static FullHttpResponse response(final HttpResponseStatus status, final CharSequence contentType, final String body)
    {
        final ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        final FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        http.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, contentType)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes())
            .set(HttpHeaderNames.DATE, DateFormatter.format(new Date()));
        return http;
    }

    /** Writes from any thread; closes the connection after it when the client did not ask to keep it. */
    private static void write(final ChannelHandlerContext ctx, final boolean keepAlive, final FullHttpResponse http)
    {
        http.headers().set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        if (keepAlive)
        {
            ctx.writeAndFlush(http);
        }
        else
        {
            ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        // a reset connection or a protocol error on one connection: close it, the others go on
        ctx.close();
    }
}
