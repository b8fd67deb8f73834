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
import io.venue.journal.sbe.RequestRejectReason;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Date;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection's requests. Routes by method and path; every answer is JSON with a {@code Date} header, except
 * where the spec says otherwise. A connection is one verifier-pool connection id, so its submits keep their order.
 * <p>
 * HTTP/1.1 answers go out in request order even when requests are pipelined: each request takes a slot in
 * {@link #slots}; a slot is filled when its answer is known (at once for reads and early refusals, later for a
 * submit, or with a 504 once its deadline passes) and the slots at the head are written as they fill. Slots are
 * touched on the event loop only; an answer from the responder's thread hops there first.
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
    static final String ORDERS = "/api/v1/trading/orders/";
    static final String AGENTS = "/api/agents/";
    static final String AGENTS_CREATE = AGENTS + "create";
    static final String AGENTS_REVOKE = AGENTS + "revoke";
    static final String ROTATE = "/rotate";
    static final String OWNER_REVOKE = ACCOUNTS + "owner-revoke";
    static final String WS_TOKEN = "/api/v1/ws/token";
    static final String BSL_EXECUTIONS = "/api/v1/bsl/executions";
    static final String ADMIN_ACTIONS = "/api/v1/admin/actions";
    static final String METRICS = "/api/v1/admin/metrics";
    static final String MM_REPLACE = "/api/v1/mm/orders/replace";
    static final String MM_CANCEL_REPLACE = "/api/v1/mm/orders/cancel-replace";
    /** The compact binary order routes (spec 4): the beta alias, the direct compatibility route and the canonical one. */
    static final String ORDER_ENTRY_BINARY = "/api/order-entry/binary";
    static final String MM_BATCH_BIN = "/api/v1/mm/orders/batch.bin";
    static final String BSL_ORDERS_COMPACT = "/api/v1/bsl/orders/compact";
    static final String BSL_LIMITS = "/api/v1/bsl/limits";
    static final String MM_LIMITS = "/api/v1/mm/limits";
    static final String BSL_SESSIONS = "/api/v1/bsl/sessions";
    static final String BSL_MARKETS = "/api/v1/bsl/markets/";
    static final String QUOTE_OBLIGATIONS = "/quote-obligations";
    static final String BSL_ACCOUNTS = "/api/v1/bsl/accounts/";
    static final String EXECUTIONS = "/executions";
    static final String OK_PREFIX = "{\"ok\":true";
    /** Every route served, for the OpenAPI document's test. */
    static final java.util.List<String> ROUTES = java.util.List.of(SUBMIT, SUBMIT + "/{digest}", EXCHANGE_INFO, BSL_CONNECTIVITY,
        FIX_CONNECTIVITY, OPENAPI, ACCOUNTS + "{account}" + NONCE, AGENTS_CREATE, AGENTS + "{id}" + ROTATE, AGENTS_REVOKE,
        OWNER_REVOKE, WS_TOKEN, BSL_ACCOUNTS + "{account}" + EXECUTIONS, ORDERS + "{orderId}", BSL_EXECUTIONS, BSL_SESSIONS,
        BSL_MARKETS + "{marketId}" + QUOTE_OBLIGATIONS, MM_REPLACE, MM_CANCEL_REPLACE, ORDER_ENTRY_BINARY, MM_BATCH_BIN,
        BSL_ORDERS_COMPACT, BSL_LIMITS, MM_LIMITS, ADMIN_ACTIONS, METRICS);
    static final java.util.regex.Pattern DIGEST = java.util.regex.Pattern.compile("0x[0-9a-f]{64}");
    static final java.util.regex.Pattern ADDRESS = java.util.regex.Pattern.compile("0x[0-9a-f]{40}");
    static final String RATE_LIMIT = "X-RateLimit-Limit";
    static final String RATE_REMAINING = "X-RateLimit-Remaining";
    static final String RATE_RESET_MS = "X-RateLimit-Reset-Ms";

    /** What every connection of one gateway shares. */
    static final class Shared
    {
        final HttpGateway.Context context;
        final AtomicLong connectionIds = new AtomicLong();
        /** Each API key's highest accepted SVC-Nonce; shared by the I/O threads, so used under its own lock. */
        final io.venue.svc.SvcNonceTracker svcNonces = new io.venue.svc.SvcNonceTracker();
        /**
         * The earliest request time this lane takes: its start (the nonces above hold nothing of an earlier node's
         * requests, see {@link MachineAuth}), or its start plus the skew when its store may have lost nonces this node
         * accepted before ({@link SvcNonceStore#complete}).
         */
        final long acceptsTimestampsFromMs;
        /** The gateway's places for pre-batched requests ({@link PrebatchedLane}). */
        final java.util.concurrent.Semaphore batchPlaces;

        Shared(final HttpGateway.Context context)
        {
            this.context = context;
            this.batchPlaces = new java.util.concurrent.Semaphore(context.prebatchedMaxBatches);
            final long startedMs = System.currentTimeMillis();
            if (context.svcNonceStore != null)
            {
                context.svcNonceStore.load(svcNonces::tryAccept);
            }
            acceptsTimestampsFromMs = context.svcNonceStore == null ? startedMs :
                context.svcNonceStore.acceptsTimestampsFromMs(startedMs);
        }
    }

    private static final String SUBMIT_TIMEOUT = "no decision in time; the action may still be applied: ask GET " +
        "/api/v1/trading/actions/{digest}, or resend the same signed body (a duplicate is refused as nonce_replayed), never " +
        "the same order under a new nonce";
    private static final String COMPACT_TIMEOUT = "not every order was decided in time; each may still be applied: ask GET " +
        "/api/v1/trading/actions/{digest} with each order's digest before sending any of them again";
    private static final String INTENT_TIMEOUT = "no decision in time; the intent may still be applied: ask GET " +
        "/api/v1/trading/actions/{digest} with the EIP-191 hash of the text. A credential is returned only in the answer: " +
        "if a create or rotation was applied, revoke that credential and rotate (or create) again";

    /** How often a connection with submits waiting looks for ones past their deadline (the timeout's precision). */
    private static final long SWEEP_MS = 100;
    /** What a compact request that is not a batch gives back: it holds no place ({@link PrebatchedLane}). */
    private static final Runnable NO_PLACE = () ->
    {
    };
    /** Requests a connection may have unanswered before it stops reading (pipelining must not fill the heap). */
    private static final int MAX_SLOTS = 64;

    private final Shared shared;
    private final long connectionId;
    private final ArrayDeque<Slot> slots = new ArrayDeque<>();
    private final MachineAuth machineAuth;
    /** The strict action parser, one per I/O thread (it keeps scratch state). */
    private static final ThreadLocal<io.venue.action.json.SignedActionParser> ADMIN_PARSER =
        ThreadLocal.withInitial(io.venue.action.json.SignedActionParser::new);
    private final TokenRoute tokens;
    private final ReadRoutes reads;
    private final MmRoute mm;
    private final CompactOrderRoute compact;
    private final PrebatchedLane lane;
    private ScheduledFuture<?> sweep;
    /**
     * Set once a request that closes the connection is read (or its answer written): requests read after it are
     * dropped, never executed, since their answers could not be sent.
     */
    private boolean closing;

    ApiHandler(final Shared shared, final long connectionId)
    {
        this.shared = shared;
        this.connectionId = connectionId;
        this.machineAuth = new MachineAuth(shared.context, shared.svcNonces, shared.acceptsTimestampsFromMs);
        this.tokens = new TokenRoute(shared.context, machineAuth);
        this.reads = new ReadRoutes(shared.context);
        this.mm = new MmRoute(shared.context, machineAuth);
        this.compact = new CompactOrderRoute(shared.context, machineAuth);
        this.lane = new PrebatchedLane(shared.context.lowLatencyMaxActions, shared.batchPlaces);
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        if (closing)
        {
            return;
        }
        // every route and signature below reads the origin form; a server must accept the absolute form too (RFC 9112 3.2.2)
        request.setUri(originForm(request.uri()));
        // whether the connection stays open after this answer: a request that closes it stops whatever is read after it
        final boolean keepAlive = request instanceof BodyLimit.Oversized oversized ? oversized.keepAlive :
            request.decoderResult().isSuccess() && HttpUtil.isKeepAlive(request);
        final Slot slot = new Slot(keepAlive);
        slot.receivedNs = System.nanoTime();
        // until the path is decoded (a 413, a request that is not HTTP), the raw one says whether this is a submit
        final int query = request.uri().indexOf('?');
        final String rawPath = query < 0 ? request.uri() : request.uri().substring(0, query);
        slot.submit = request.method().equals(HttpMethod.POST) && rawPath.equals(SUBMIT);
        slots.add(slot);
        closing |= !keepAlive;
        if (slots.size() >= MAX_SLOTS)
        {
            ctx.channel().config().setAutoRead(false);
        }
        if (request instanceof BodyLimit.Oversized)
        {
            if (request.method().equals(HttpMethod.POST) && (rawPath.equals(SUBMIT) || rawPath.equals(ADMIN_ACTIONS)))
            {
                // a write like any other: the edge throttle counts it, so a flood of them cannot fill the journal
                if (!admitAtEdge(ctx, slot))
                {
                    return;
                }
                journal(shared.context, connectionId, RequestRejectReason.BODY_TOO_LARGE, "a body over " +
                    shared.context.maxBodyBytes + " bytes on " + rawPath);
            }
            fill(ctx, slot, json(new SubmitResponse(413, error("BODY_TOO_LARGE", "the body is over " +
                shared.context.maxBodyBytes + " bytes"))));
            return;
        }
        if (!request.decoderResult().isSuccess())
        {
            badRequest(ctx, slot, "the request is not valid HTTP/1.1: " +
                request.decoderResult().cause().getMessage());
            return;
        }
        final String path;
        try
        {
            path = new QueryStringDecoder(request.uri()).path();
        }
        catch (final IllegalArgumentException ex)
        {
            badRequest(ctx, slot, "the path does not decode: " + ex.getMessage());
            return;
        }
        final HttpMethod method = request.method();
        slot.submit = method.equals(HttpMethod.POST) && path.equals(SUBMIT);
        switch (path)
        {
            case SUBMIT ->
            {
                if (method.equals(HttpMethod.POST))
                {
                    submit(ctx, slot, request.content());
                }
                else
                {
                    fill(ctx, slot, notAllowed("POST"));
                }
            }
            case EXCHANGE_INFO -> fill(ctx, slot, ReadRoutes.read(method, shared.context.exchangeInfo));
            case BSL_CONNECTIVITY, FIX_CONNECTIVITY -> fill(ctx, slot, ReadRoutes.read(method, shared.context.connectivity));
            case OPENAPI -> fill(ctx, slot, ReadRoutes.read(method, () -> OpenApiDocument.TEXT));
            case AGENTS_CREATE -> ownerIntent(ctx, slot, method, OwnerIntents.Kind.CREATE, null, request.content());
            case AGENTS_REVOKE -> ownerIntent(ctx, slot, method, OwnerIntents.Kind.REVOKE, null, request.content());
            case OWNER_REVOKE -> ownerIntent(ctx, slot, method, OwnerIntents.Kind.OWNER_REVOKE, null, request.content());
            case WS_TOKEN -> wsToken(ctx, slot, request, path);
            case MM_REPLACE, MM_CANCEL_REPLACE -> cancelReplace(ctx, slot, request, path);
            case ORDER_ENTRY_BINARY, MM_BATCH_BIN, BSL_ORDERS_COMPACT -> compactOrders(ctx, slot, request, path);
            case ADMIN_ACTIONS ->
            {
                if (allowed(ctx, slot, method, HttpMethod.POST))
                {
                    adminAction(ctx, slot, request.content());
                }
            }
            case BSL_LIMITS, MM_LIMITS -> fill(ctx, slot, reads.limits(method));
            case METRICS -> fill(ctx, slot, reads.metrics(method,
                ((java.net.InetSocketAddress)ctx.channel().remoteAddress()).getAddress()));
            case BSL_EXECUTIONS -> fill(ctx, slot, ReadRoutes.read(method, ReadRoutes::executionStreams));
            case BSL_SESSIONS -> fill(ctx, slot, ReadRoutes.read(method,
                () -> new JsonWriter().field("ok", true).raw("sessions", "[]").toJson()));
            default ->
            {
                if (path.startsWith(SUBMIT + "/"))
                {
                    fill(ctx, slot, reads.actionStatus(method, path.substring(SUBMIT.length() + 1)));
                }
                else if (path.startsWith(AGENTS) && path.endsWith(ROTATE) && path.length() > AGENTS.length() + ROTATE.length())
                {
                    ownerIntent(ctx, slot, method, OwnerIntents.Kind.ROTATE,
                        path.substring(AGENTS.length(), path.length() - ROTATE.length()), request.content());
                }
                else if (path.startsWith(BSL_MARKETS) && path.endsWith(QUOTE_OBLIGATIONS) &&
                    path.length() > BSL_MARKETS.length() + QUOTE_OBLIGATIONS.length())
                {
                    fill(ctx, slot, reads.quoteObligations(method,
                        path.substring(BSL_MARKETS.length(), path.length() - QUOTE_OBLIGATIONS.length())));
                }
                else if (path.startsWith(ORDERS) && shared.context.orderStatus != null)
                {
                    fill(ctx, slot, reads.orderStatus(method, path.substring(ORDERS.length())));
                }
                else if (path.startsWith(BSL_ACCOUNTS) && path.endsWith(EXECUTIONS) &&
                    path.length() > BSL_ACCOUNTS.length() + EXECUTIONS.length())
                {
                    executions(ctx, slot, request, path.substring(BSL_ACCOUNTS.length(), path.length() - EXECUTIONS.length()));
                }
                else if (path.startsWith(ACCOUNTS) && path.endsWith(NONCE) && path.length() > ACCOUNTS.length() + NONCE.length())
                {
                    fill(ctx, slot, reads.nonceWindow(method, path.substring(ACCOUNTS.length(), path.length() - NONCE.length())));
                }
                else
                {
                    fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "no route " + path))));
                }
            }
        }
    }

    private void submit(final ChannelHandlerContext ctx, final Slot slot, final ByteBuf content)
    {
        if (admitWrite(ctx, slot))
        {
            offerSubmit(ctx, slot, bytes(content));
        }
    }

    /** Hands an admitted submit body to the verifier pool. */
    private void offerSubmit(final ChannelHandlerContext ctx, final Slot slot, final byte[] body)
    {
        final boolean prebatched = lane.behind();
        final long correlation = register(ctx, slot, prebatched, response -> response);
        offered(ctx, slot, correlation, prebatched,
            shared.context.submitter.offer(prebatched, connectionId, correlation, body, 0, body.length), SUBMIT_TIMEOUT);
    }

    /**
     * POST /api/v1/admin/actions: the operator's route. The same signed body as a submit (spec 2.3, EIP-191 by an
     * operator key, DESIGN.md section 6), refused here unless it carries an admin action, so an operator's tooling
     * cannot send a trade by mistake; the engine still checks the signer is an operator (NOT_OPERATOR).
     */
    private void adminAction(final ChannelHandlerContext ctx, final Slot slot, final ByteBuf content)
    {
        // admitted first, like any write: the edge throttle bounds what the parse below costs the I/O thread
        if (!admitWrite(ctx, slot))
        {
            return;
        }
        final byte[] body = bytes(content);
        final io.venue.action.json.ParseResult parsed = ADMIN_PARSER.get().parse(body);
        if (parsed.isOk() && !(parsed.payload().action() instanceof io.venue.action.AdminAction))
        {
            journal(shared.context, connectionId, RequestRejectReason.MALFORMED, "not an admin action on " + ADMIN_ACTIONS);
            badRequest(ctx, slot, "action", "not an admin action: trading actions go to " + SUBMIT);
            return;
        }
        // a body that does not parse goes on, to be refused (and journaled) by the verifier like any submit's
        offerSubmit(ctx, slot, body);
    }

    /**
     * The owner routes (agent create, rotate, revoke, owner-revoke): the body becomes the text the owner signed and
     * the command that applies it; the pool checks the signature, the engine the nonce and the agent rules. A new
     * credential is added to the engine's accepted answer, so it is returned once, and only if it was applied.
     */
    private void ownerIntent(
        final ChannelHandlerContext ctx, final Slot slot, final HttpMethod method, final OwnerIntents.Kind kind,
        final String agentId, final ByteBuf content)
    {
        if (!allowed(ctx, slot, method, HttpMethod.POST))
        {
            return;
        }
        final OwnerIntents intents = shared.context.ownerIntents;
        if (intents == null)
        {
            fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "this gateway takes no owner intents"))));
            return;
        }
        if (!admitWrite(ctx, slot))
        {
            return;
        }
        final OwnerIntents.Intent intent;
        try
        {
            intent = intents.parse(kind, agentId, bytes(content));
        }
        catch (final OwnerIntents.BadIntent bad)
        {
            badRequest(ctx, slot, bad.field(), bad.getMessage());
            return;
        }
        final boolean prebatched = lane.behind();
        final long correlation = register(ctx, slot, prebatched, response -> withCredential(response, intent));
        offered(ctx, slot, correlation, prebatched, shared.context.intentSubmitter.offer(prebatched, connectionId, correlation,
            intent.owner(), intent.signature(), intent.text(), intent.command(), intent.commandLength()), INTENT_TIMEOUT);
    }

    /** POST /api/v1/ws/token ({@link TokenRoute}): the route's refusals of machine headers and signatures are journaled. */
    private void wsToken(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request, final String path)
    {
        if (!allowed(ctx, slot, request.method(), HttpMethod.POST))
        {
            return;
        }
        if (shared.context.wsTokens == null)
        {
            fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "this gateway issues no tokens"))));
            return;
        }
        if (!admitRequest(ctx, slot))
        {
            return;
        }
        answer(ctx, slot, tokens.issue(request.headers()::get, request.method().name(), request.uri(), bytes(request.content()),
            System.currentTimeMillis()));
    }

    /** Answers an outcome decided in the lane, journaling it first when it names a reason. */
    private void answer(final ChannelHandlerContext ctx, final Slot slot, final TokenRoute.Outcome outcome)
    {
        if (outcome.journalReason() != null)
        {
            journal(shared.context, connectionId, outcome.journalReason(), outcome.journalDetail());
        }
        fill(ctx, slot, json(outcome.response()));
    }

    /**
     * GET /api/v1/bsl/accounts/{account}/executions?cursor=: a private read (spec 4.3: 401 without a token). The
     * bearer token must be valid, its credential still active and its account the one in the path.
     */
    private void executions(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request, final String account)
    {
        final HttpGateway.Context context = shared.context;
        if (!ReadRoutes.isRead(request.method()))
        {
            fill(ctx, slot, notAllowed(ReadRoutes.READ_METHODS));
            return;
        }
        if (context.executions == null || context.wsTokens == null)
        {
            fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "this gateway serves no private reads"))));
            return;
        }
        final String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        final long now = System.currentTimeMillis();
        final WsTokens.Claims claims = authorization == null || !authorization.startsWith("Bearer ") ? null :
            context.wsTokens.verify(authorization.substring("Bearer ".length()), now);
        if (claims == null || !tokens.stillGranted(claims, now))
        {
            // the server's time, so a client whose clock drifts can tell an expired token from a revoked one
            final FullHttpResponse http = json(new SubmitResponse(401, JsonWriter.extend(error("UNAUTHORIZED", authorization == null ?
                "a private read needs Authorization: Bearer <token from POST /api/v1/ws/token>" :
                "the token is malformed, expired, or its credential was revoked: obtain a new one"),
                new JsonWriter().field("serverTimeMs", now))));
            http.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
            fill(ctx, slot, http);
            return;
        }
        if (!ADDRESS.matcher(account).matches())
        {
            badRequest(ctx, slot, "the account is 0x and 40 lowercase hex digits");
            return;
        }
        if (!account.equals(claims.account()))
        {
            fill(ctx, slot, json(new SubmitResponse(403, error("FORBIDDEN", "the token is for account " + claims.account()))));
            return;
        }
        final java.util.List<String> cursors;
        try
        {
            cursors = new QueryStringDecoder(request.uri()).parameters().get("cursor");
        }
        catch (final IllegalArgumentException ex)
        {
            badRequest(ctx, slot, "the query does not decode: " + ex.getMessage());
            return;
        }
        long cursor = 0;
        if (cursors != null)
        {
            if (cursors.size() != 1 || !cursors.get(0).matches("0|[1-9][0-9]{0,17}"))
            {
                badRequest(ctx, slot, "cursor is one non-negative integer: 0, or the nextCursor of the previous page");
                return;
            }
            cursor = Long.parseLong(cursors.get(0));
        }
        await(ctx, slot, "the page was not read within " + context.answerTimeoutMs + " ms; ask again");
        context.executions.apply(account, cursor).whenComplete((page, failure) -> answerLater(ctx, slot, () -> json(
            failure == null ? new SubmitResponse(200, page) :
            failure.getCause() instanceof java.util.concurrent.RejectedExecutionException ||
                failure instanceof java.util.concurrent.RejectedExecutionException ?
                new SubmitResponse(503, error("BUSY", "too many private reads wait; retry after the delay"), 1) :
                new SubmitResponse(500, error("INTERNAL", "the event journal could not be read; the operator's log says why")))));
    }

    /**
     * POST of compact binary orders (spec 4, 4.1): 1 to 1,000 signed orders of the credential's account, each offered
     * to the pool as the MM lane's; the request is answered once the engine has answered every order taken. The orders
     * go in body order on this connection, so they are journaled in that order.
     */
    private void compactOrders(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request, final String path)
    {
        final HttpGateway.Context context = shared.context;
        // a batch's place is taken before anything else is done for it (the length says how many orders a body holds)
        final boolean batch = lane.isBatch(io.venue.transport.bsl.CompactOrders.ordersIn(request.content().readableBytes()));
        // what gives a batch's place back; a request that is not a batch holds none
        final Runnable freePlace = batch ? lane.admitBatch() : NO_PLACE;
        if (freePlace == null)
        {
            // latency could not stay bounded: refused before it is authenticated, charged or verified
            refuseQueueLimit(ctx, slot, "the pre-batched backlog is full: " + context.prebatchedMaxBatches +
                " requests of more than " + context.lowLatencyMaxActions + " orders wait", "the pre-batched backlog is full (" +
                context.prebatchedMaxBatches + " requests of more than " + context.lowLatencyMaxActions + " orders wait for " +
                "verification); nothing was checked, charged or verified (journaled as refused), retry after the delay or " +
                "send fewer orders");
            return;
        }
        final MmRoute.Decision<CompactOrderRoute.Admitted> decision = mmDecision(ctx, slot, request, context.mmSubmitter != null,
            remote -> compact.decide(request.headers()::get, request.method().name(), request.uri(), path, bytes(request.content()),
                remote));
        if (decision == null)
        {
            freePlace.run();
            return;
        }
        final CompactOrderRoute.Admitted admitted = decision.admitted();
        final int count = admitted.bodies().size();
        // behind a pre-batched request of this connection, even a small one waits on that ring to keep the order
        final boolean prebatched = batch || lane.behind();
        final SubmitResponse[] answers = new SubmitResponse[count];
        final java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger(count);
        // the answer (up to 1,000 results and the MM budget, under the windows' lock) is built on the I/O thread, not on
        // the responder's that completes the last order
        final Runnable whenAll = () ->
        {
            freePlace.run();
            answerLater(ctx, slot, () -> json(compact.answer(admitted, answers)));
        };
        int taken = 0;
        while (taken < count)
        {
            final int index = taken;
            final long correlation = context.pending.register(lane.track(prebatched, response ->
            {
                answers[index] = response;
                if (waiting.decrementAndGet() == 0)
                {
                    whenAll.run();
                }
            }));
            final io.venue.transport.bsl.CompactOrders.Request orders = admitted.bodies();
            if (!context.mmSubmitter.offerTyped(prebatched, connectionId, correlation, orders.buffer(), orders.offset(index),
                orders.market()))
            {
                context.pending.forget(correlation);
                lane.notTaken(prebatched);
                break;
            }
            taken++;
        }
        if (taken < count)
        {
            // the verifier queue is full: the rest are not offered (their order would break), their charge goes back
            compact.refund(admitted, taken);
            final String detail = "the verifier queue is full: " + (count - taken) + " of " + count + " compact orders not verified";
            if (taken == 0)
            {
                freePlace.run();
                refuseQueueLimit(ctx, slot, detail,
                    "the verifier queue is full; no order was verified (journaled as refused), retry after the delay");
                return;
            }
            journal(context, connectionId, RequestRejectReason.QUEUE_LIMIT, detail);
            final SubmitResponse notTaken = new SubmitResponse(503, error("QUEUE_LIMIT",
                "the verifier queue was full: this order was not verified, send it again"), 1);
            for (int i = taken; i < count; i++)
            {
                answers[i] = notTaken;
            }
            if (waiting.addAndGet(taken - count) == 0)
            {
                whenAll.run();
            }
        }
        // an answer that never comes (a journal write that failed) must not keep a batch's place for good
        slot.onTimeout = freePlace;
        await(ctx, slot, COMPACT_TIMEOUT);
    }

    /**
     * The checks every request of the MM lane passes before its own: POST, the route served, the connection's write
     * admission and the edge throttle's count of failed authentications; then {@code decide}. Answers and returns null
     * unless the request is admitted.
     */
    private <A> MmRoute.Decision<A> mmDecision(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final boolean served, final java.util.function.Function<java.net.InetAddress, MmRoute.Decision<A>> decide)
    {
        final HttpGateway.Context context = shared.context;
        if (!allowed(ctx, slot, request.method(), HttpMethod.POST))
        {
            return null;
        }
        if (!served)
        {
            fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "this gateway takes no MM orders"))));
            return null;
        }
        // the MM lane has its own limits (spec 8.2): a throttle of the edge's settings counts only its failed
        // authentications, in buckets of its own, so an address that keeps failing is refused before the checks and cannot
        // flood the journal, and the address's traffic on other routes never refuses its MM orders
        if (!admitWrite(ctx, slot, false))
        {
            return null;
        }
        final java.net.InetAddress remote = ((java.net.InetSocketAddress)ctx.channel().remoteAddress()).getAddress();
        final EdgeThrottle throttle = context.mmAuthThrottle;
        if (throttle != null && throttle.exhausted(remote))
        {
            refuseAtEdge(ctx, slot, remote, throttle, 1);
            return null;
        }
        final MmRoute.Decision<A> decision = decide.apply(remote);
        if (decision.edgeWaitSeconds() > 0)
        {
            refuseAtEdge(ctx, slot, remote, throttle, decision.edgeWaitSeconds());
            return null;
        }
        if (decision.admitted() == null)
        {
            answer(ctx, slot, decision.refusal());
            return null;
        }
        return decision;
    }

    /**
     * POST /api/v1/mm/orders/replace: an MM cancel-replace (spec 5.3) with an institutional agent's SVC-* headers
     * (spec 5.4, 5.9) for the trader's account, under the MM lane's windows (spec 8.2). The engine's answer carries the
     * account's budget (usedActions, remainingActions, resetInMs).
     */
    private void cancelReplace(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request, final String path)
    {
        final HttpGateway.Context context = shared.context;
        final MmRoute.Decision<MmRoute.Admitted> decision = mmDecision(ctx, slot, request, context.cancelReplaces != null,
            remote -> mm.decide(request.headers()::get, request.method().name(), request.uri(), path, bytes(request.content()),
                remote));
        if (decision == null)
        {
            return;
        }
        final CancelReplaceRequests.Request replace = decision.admitted().replace();
        final boolean prebatched = lane.behind();
        final long correlation = register(ctx, slot, prebatched, response -> mm.withBudget(response, replace.trader()));
        final boolean taken = context.cancelReplaceSubmitter.offer(prebatched, connectionId, correlation, replace.order(),
            replace.signatures(), replace.command(), replace.command().length);
        if (!taken)
        {
            // not taken: the windows give the charge back
            mm.refund(decision.admitted());
        }
        offered(ctx, slot, correlation, prebatched, taken, SUBMIT_TIMEOUT);
    }

    /** A 429 of the edge throttle (plain text, spec 7.2), its refusals journaled at most once a second per address. */
    private void refuseAtEdge(final ChannelHandlerContext ctx, final Slot slot, final java.net.InetAddress address,
        final EdgeThrottle throttle, final long waitSeconds)
    {
        final long toJournal = throttle.refusalsToJournal(address, true);
        if (toJournal > 0)
        {
            journalEdge(shared.context, connectionId, EdgeThrottle.describe(address), toJournal);
        }
        final FullHttpResponse http = response(HttpResponseStatus.TOO_MANY_REQUESTS, "text/plain; charset=utf-8",
            "Too Many Requests! Wait for " + waitSeconds + "s");
        http.headers().set("x-ratelimit-after", waitSeconds).set(HttpHeaderNames.RETRY_AFTER, waitSeconds);
        fill(ctx, slot, http);
    }

    /** The engine's answer, with the new credential added when the intent was applied. */
    private static SubmitResponse withCredential(final SubmitResponse response, final OwnerIntents.Intent intent)
    {
        final String body = response.body();
        if (response.status() != 200 || !body.startsWith(OK_PREFIX) || !body.endsWith("}"))
        {
            return response;
        }
        final JsonWriter more = new JsonWriter();
        if (intent.agentId() != null)
        {
            more.field("agentId", intent.agentId());
        }
        if (intent.apiKeyId() != null)
        {
            more.field("apiKeyId", intent.apiKeyId());
            if (intent.apiSecret() != null)
            {
                more.field("apiSecret", intent.apiSecret()).field("apiPassphrase", intent.passphrase());
            }
        }
        more.field("validUntilMs", intent.validUntilMs());
        return new SubmitResponse(200, JsonWriter.extend(body, more), 0, response.rateLimit(),
            response.rateRemaining(), response.rateResetMs());
    }

    /**
     * What every write passes before it is read: {@link #admitRequest}, then the shard's backlog. A refused request is
     * answered (and journaled) here.
     */
    private boolean admitWrite(final ChannelHandlerContext ctx, final Slot slot)
    {
        return admitWrite(ctx, slot, true);
    }

    /** As above; {@code edgeThrottled} false for a lane with limits of its own. */
    private boolean admitWrite(final ChannelHandlerContext ctx, final Slot slot, final boolean edgeThrottled)
    {
        if (refusedWhileDraining(ctx, slot) || edgeThrottled && !admitAtEdge(ctx, slot))
        {
            return false;
        }
        if (shared.context.backlog != null)
        {
            final long backlog = shared.context.backlog.getAsLong();
            if (backlog > shared.context.busyBacklog)
            {
                journal(shared.context, connectionId, RequestRejectReason.SHARD_BUSY, "the shard is " + backlog +
                    " commands behind the journal");
                fill(ctx, slot, json(new SubmitResponse(503, error("SHARD_BUSY", "the shard is " + backlog +
                    " commands behind; this request was not verified (journaled as refused), retry after the delay"), 1)));
                return false;
            }
        }
        return true;
    }

    /** What every request that writes or authenticates passes: not while draining, and the edge IP throttle. */
    private boolean admitRequest(final ChannelHandlerContext ctx, final Slot slot)
    {
        return !refusedWhileDraining(ctx, slot) && admitAtEdge(ctx, slot);
    }

    /** Answers 503 SHUTTING_DOWN while the appliance drains. */
    private boolean refusedWhileDraining(final ChannelHandlerContext ctx, final Slot slot)
    {
        if (shared.context.draining)
        {
            fill(ctx, slot, json(new SubmitResponse(503, error("SHUTTING_DOWN",
                "the appliance is stopping; this request was not taken, retry on the next node"), 1)));
            return true;
        }
        return false;
    }

    /** Takes a token of the edge IP throttle, or answers its plain-text 429; journals the address's held refusals. */
    private boolean admitAtEdge(final ChannelHandlerContext ctx, final Slot slot)
    {
        final EdgeThrottle throttle = shared.context.edgeThrottle;
        if (throttle == null)
        {
            return true;
        }
        final java.net.InetAddress address = ((java.net.InetSocketAddress)ctx.channel().remoteAddress()).getAddress();
        final long waitSeconds = throttle.acquire(address);
        if (waitSeconds > 0)
        {
            refuseAtEdge(ctx, slot, address, throttle, waitSeconds);
            return false;
        }
        final long toJournal = throttle.refusalsToJournal(address, false);
        if (toJournal > 0)
        {
            journalEdge(shared.context, connectionId, EdgeThrottle.describe(address), toJournal);
        }
        return true;
    }

    /**
     * Registers a request that waits for the engine, about to be offered to the pool (on its pre-batched ring when
     * {@code prebatched}); {@code answer} shapes the decision on the event loop.
     */
    private long register(final ChannelHandlerContext ctx, final Slot slot, final boolean prebatched,
        final java.util.function.UnaryOperator<SubmitResponse> answer)
    {
        // the responder's thread only hands the engine's answer over: it is built (an MM budget takes the windows' lock)
        // and the slot filled on the event loop
        return shared.context.pending.register(lane.track(prebatched,
            response -> answerLater(ctx, slot, () -> json(answer.apply(response)))));
    }

    /** After the offer to the pool: a full queue is answered at once (and journaled), otherwise the wait starts. */
    private void offered(final ChannelHandlerContext ctx, final Slot slot, final long correlation, final boolean prebatched,
        final boolean offered, final String timeout)
    {
        if (!offered)
        {
            shared.context.pending.forget(correlation);
            lane.notTaken(prebatched);
            refuseQueueLimit(ctx, slot, "the verifier queue is full",
                "the verifier queue is full; this request was not verified (journaled as refused), retry after the delay");
            return;
        }
        await(ctx, slot, timeout);
    }

    /** A 503 QUEUE_LIMIT with Retry-After, its refusal journaled first with {@code detail}. */
    private void refuseQueueLimit(final ChannelHandlerContext ctx, final Slot slot, final String detail, final String message)
    {
        journal(shared.context, connectionId, RequestRejectReason.QUEUE_LIMIT, detail);
        fill(ctx, slot, json(new SubmitResponse(503, error("QUEUE_LIMIT", message), 1)));
    }

    /** The slot waits for an answer from another thread, or for {@code timeout} (a 504) once the answer timeout passes. */
    private void await(final ChannelHandlerContext ctx, final Slot slot, final String timeout)
    {
        slot.deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(shared.context.answerTimeoutMs);
        slot.timeout = timeout;
        if (sweep == null)
        {
            sweep = ctx.executor().scheduleAtFixedRate(() -> sweep(ctx), SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Fills the slot, from any thread, with a response made on the event loop (not on the thread that completes the
     * request: the responder's, or the executions reader's); nothing is made when the I/O threads are gone.
     */
    private void answerLater(
        final ChannelHandlerContext ctx, final Slot slot, final java.util.function.Supplier<FullHttpResponse> http)
    {
        try
        {
            ctx.executor().execute(() -> fill(ctx, slot, http.get()));
        }
        catch (final java.util.concurrent.RejectedExecutionException stopped)
        {
            // the I/O threads are shut down: nobody to answer
        }
    }

    private static byte[] bytes(final ByteBuf content)
    {
        final byte[] body = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), body);
        return body;
    }

    /** Gives a slot its answer (the first one wins: a late decision after a 504 is dropped) and writes what is ready. */
    private void fill(final ChannelHandlerContext ctx, final Slot slot, final FullHttpResponse http)
    {
        if (slot.http != null || slot.written)
        {
            http.release();
            return;
        }
        slot.http = http;
        Slot head;
        while ((head = slots.peek()) != null && head.http != null)
        {
            slots.poll();
            head.written = true;
            if (!ctx.channel().isActive())
            {
                head.http.release();
                continue;
            }
            shared.context.counters.response(head.http.status().code());
            if (head.submit)
            {
                shared.context.counters.submitAnswered(System.nanoTime() - head.receivedNs);
            }
            if (head.submit && shared.context.accountRateLimit > 0 && !head.http.headers().contains(RATE_LIMIT))
            {
                // spec 8.1: every submit answer names the account budget, even one refused before its account was known
                head.http.headers().set(RATE_LIMIT, shared.context.accountRateLimit);
            }
            write(ctx, head.keepAlive, head.http);
            if (!head.keepAlive)
            {
                closing = true;
                ctx.channel().config().setAutoRead(false);
                discardRest();
                return;
            }
        }
        if (slots.size() < MAX_SLOTS / 2 && !ctx.channel().config().isAutoRead())
        {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * Answers 504 for submits past their deadline. Deadlines grow in arrival order, so the first unanswered slot not
     * yet due ends the walk. The timer stops once nothing waits and starts again with the next submit.
     */
    private void sweep(final ChannelHandlerContext ctx)
    {
        final long now = System.nanoTime();
        boolean waiting = false;
        for (final Slot slot : slots.toArray(new Slot[0]))
        {
            if (slot.http != null)
            {
                continue;
            }
            if (now - slot.deadlineNs < 0)
            {
                waiting = true;
                break;
            }
            if (slot.onTimeout != null)
            {
                slot.onTimeout.run();
            }
            fill(ctx, slot, json(new SubmitResponse(504, error("TIMEOUT", slot.timeout))));
        }
        if (!waiting && sweep != null)
        {
            sweep.cancel(false);
            sweep = null;
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (sweep != null)
        {
            sweep.cancel(false);
            sweep = null;
        }
        discardRest();
        super.channelInactive(ctx);
    }

    private void discardRest()
    {
        Slot slot;
        while ((slot = slots.poll()) != null)
        {
            slot.written = true;
            if (slot.http != null)
            {
                slot.http.release();
            }
        }
    }

    /** Journals {@code count} edge-throttle refusals of {@code address}. */
    static void journalEdge(final HttpGateway.Context context, final long connectionId, final String address, final long count)
    {
        final EdgeThrottle throttle = context.edgeThrottle;
        journal(context, connectionId, RequestRejectReason.EDGE_RATE_LIMITED, "edge throttle: " + address + " above " +
            throttle.ratePerSecond() + "/s (burst " + throttle.burst() + "): " + count + (count == 1 ? " request" : " requests") +
            " refused");
    }

    /** Hands a refusal decided here to the sequencer to be journaled, when the gateway has somewhere to send it. */
    static void journal(final HttpGateway.Context context, final long connectionId, final RequestRejectReason reason,
        final String detail)
    {
        if (context.refusals != null)
        {
            context.refusals.offer(connectionId, context.pending.nextCorrelation(), reason.value(), detail);
        }
    }

    /** True when the request uses {@code expected}; otherwise answers 405 with Allow. */
    private boolean allowed(final ChannelHandlerContext ctx, final Slot slot, final HttpMethod method, final HttpMethod expected)
    {
        if (method.equals(expected))
        {
            return true;
        }
        fill(ctx, slot, notAllowed(expected.name()));
        return false;
    }

    private void badRequest(final ChannelHandlerContext ctx, final Slot slot, final String message)
    {
        fill(ctx, slot, badRequest(message));
    }

    static FullHttpResponse badRequest(final String message)
    {
        return json(new SubmitResponse(400, error("BAD_REQUEST", message)));
    }

    /** A 400 naming the field; with the server's time, which a time-related refusal needs. */
    private void badRequest(final ChannelHandlerContext ctx, final Slot slot, final String field, final String message)
    {
        fill(ctx, slot, json(TokenRoute.badRequest(field, message)));
    }

    /** The path and query of a request target in absolute form ({@code http://host/path?query}); any other as it is. */
    static String originForm(final String target)
    {
        final int authority = target.regionMatches(true, 0, "http://", 0, 7) ? 7 :
            target.regionMatches(true, 0, "https://", 0, 8) ? 8 : -1;
        if (authority < 0)
        {
            return target;
        }
        int end = authority;
        while (end < target.length() && target.charAt(end) != '/' && target.charAt(end) != '?')
        {
            end++;
        }
        return end == target.length() ? "/" : target.charAt(end) == '/' ? target.substring(end) : "/" + target.substring(end);
    }

    static FullHttpResponse notAllowed(final String allowed)
    {
        final FullHttpResponse http = json(new SubmitResponse(405, error("METHOD_NOT_ALLOWED", "use " + allowed)));
        http.headers().set(HttpHeaderNames.ALLOW, allowed);
        return http;
    }

    static String error(final String code, final String message)
    {
        return new JsonWriter().field("ok", false).field("code", code).field("message", message).toJson();
    }

    /** A JSON answer with the limiter headers (when it has them) and Retry-After (only with 429 and 503). */
    static FullHttpResponse json(final SubmitResponse response)
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
        return http;
    }

    /** A response with its body, length and the server's time (the Date header every answer carries). */
    static FullHttpResponse response(final HttpResponseStatus status, final CharSequence contentType, final String body)
    {
        final ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        final FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        http.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, contentType)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes())
            .set(HttpHeaderNames.DATE, DateFormatter.format(new Date()));
        return http;
    }

    /** Writes on the event loop; closes the connection after it when the client did not ask to keep it. */
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

    /** One request's place in the connection's answer order. */
    private static final class Slot
    {
        final boolean keepAlive;
        long deadlineNs;
        /** The 504's message once {@link #deadlineNs} passes; set by whatever makes the slot wait. */
        String timeout;
        /** Run when {@link #deadlineNs} passes before the answer (null: nothing to do). */
        Runnable onTimeout;
        FullHttpResponse http;
        boolean written;
        /** A request to the submit route, whose every answer carries X-RateLimit-Limit. */
        boolean submit;
        /** When the whole request was read ({@link System#nanoTime()}). */
        long receivedNs;

        Slot(final boolean keepAlive)
        {
            this.keepAlive = keepAlive;
        }
    }
}
