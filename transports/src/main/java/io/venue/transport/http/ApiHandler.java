package io.venue.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.venue.action.AdminAction;
import io.venue.action.CancelAll;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.codec.JsonWriter;
import io.venue.entry.Answer;
import io.venue.entry.EntryCore;
import io.venue.entry.EntrySession;
import io.venue.entry.Refusal;
import io.venue.entry.protect.SessionProtection;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.http.OrderedAnswers.Slot;
import io.venue.transport.ws.WsGateway;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

import static io.venue.transport.http.HttpResponses.OK_PREFIX;
import static io.venue.transport.http.HttpResponses.error;
import static io.venue.transport.http.HttpResponses.json;
import static io.venue.transport.http.HttpResponses.notAllowed;
import static io.venue.transport.http.HttpResponses.queueLimit;
import static io.venue.transport.http.HttpResponses.refusal;
import static io.venue.transport.http.HttpResponses.response;
import static io.venue.transport.http.Routes.ACCOUNTS;
import static io.venue.transport.http.Routes.ADMIN_ACTIONS;
import static io.venue.transport.http.Routes.ASYNCAPI;
import static io.venue.transport.http.Routes.AGENTS;
import static io.venue.transport.http.Routes.AGENTS_CREATE;
import static io.venue.transport.http.Routes.AGENTS_REVOKE;
import static io.venue.transport.http.Routes.BSL_ACCOUNTS;
import static io.venue.transport.http.Routes.BSL_CONNECTIVITY;
import static io.venue.transport.http.Routes.BSL_EXECUTIONS;
import static io.venue.transport.http.Routes.BSL_LIMITS;
import static io.venue.transport.http.Routes.BSL_MARKETS;
import static io.venue.transport.http.Routes.BSL_ORDERS_COMPACT;
import static io.venue.transport.http.Routes.BSL_SESSIONS;
import static io.venue.transport.http.Routes.EXCHANGE_INFO;
import static io.venue.transport.http.Routes.EXECUTIONS;
import static io.venue.transport.http.Routes.FIX_CONNECTIVITY;
import static io.venue.transport.http.Routes.METRICS;
import static io.venue.transport.http.Routes.MM_BATCH_BIN;
import static io.venue.transport.http.Routes.MM_CANCEL_REPLACE;
import static io.venue.transport.http.Routes.MM_LIMITS;
import static io.venue.transport.http.Routes.MM_REPLACE;
import static io.venue.transport.http.Routes.NONCE;
import static io.venue.transport.http.Routes.OPENAPI;
import static io.venue.transport.http.Routes.ORDERS;
import static io.venue.transport.http.Routes.ORDER_ENTRY_BINARY;
import static io.venue.transport.http.Routes.OWNER_REVOKE;
import static io.venue.transport.http.Routes.QUOTE_OBLIGATIONS;
import static io.venue.transport.http.Routes.ROTATE;
import static io.venue.transport.http.Routes.SUBMIT;
import static io.venue.transport.http.Routes.WS_PRIVATE;
import static io.venue.transport.http.Routes.WS_PUBLIC;
import static io.venue.transport.http.Routes.WS_TOKEN;
import static io.venue.transport.http.Routes.originForm;

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

    private static final String SUBMIT_TIMEOUT = HttpAnswers.TIMED_OUT;
    private static final String COMPACT_TIMEOUT =
        "not every order was decided in time; each may still be applied: ask GET " +
        "/api/v1/trading/actions/{digest} with each order's digest before sending any of them again";
    private static final String INTENT_TIMEOUT = "no decision in time; the intent may still be applied: ask GET " +
        "/api/v1/trading/actions/{digest} with the EIP-191 hash of the text. A credential is returned only in the " +
        "answer: " + "if a create or rotation was applied, revoke that credential and rotate (or create) again";

    /** What a compact request that is not a batch gives back: it holds no place in the backlog of batches. */
    private static final Runnable NO_PLACE = () ->
    {
    };

    private final HttpGateway.Context context;
    /** This connection's way into the order-entry core. */
    private final EntrySession session;
    private final OrderedAnswers answers;
    /** The strict action parser, one per I/O thread (it keeps scratch state). */
    private static final ThreadLocal<SignedActionParser> ADMIN_PARSER =
        ThreadLocal.withInitial(SignedActionParser::new);
    private final TokenRoute tokens;
    /** SVC-* headers, for the credential's own read of its FIX onboarding record. */
    private final MachineAuth machineAuth;
    private final PrivateReadGate privateReads;
    private final FeedReads feedReads;
    private final ReadRoutes reads;
    private final MmRoute mm;
    private final CompactOrderRoute compact;
    private final ProtectionRoute protection;
    /** Null: the WebSocket paths answer 404. */
    private final WsGateway webSocket;

    ApiHandler(final HttpGateway.Context context, final EntrySession session, final WsGateway webSocket)
    {
        this.context = context;
        this.webSocket = webSocket;
        this.session = session;
        this.answers = new OrderedAnswers(context, session.answerTimeoutMs());
        final MachineAuth machineAuth = new MachineAuth(context.entry.credentials());
        this.machineAuth = machineAuth;
        this.tokens = new TokenRoute(context, machineAuth);
        this.privateReads = new PrivateReadGate(context, tokens, answers);
        this.feedReads = new FeedReads(context, answers, privateReads);
        this.reads = new ReadRoutes(context);
        this.mm = new MmRoute(context, machineAuth);
        this.compact = new CompactOrderRoute(context, machineAuth);
        this.protection = new ProtectionRoute(machineAuth, context.entry.protection(),
            context.protectionSignatures);
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        if (answers.closing())
        {
            return;
        }
        // every route and signature below reads the origin form; a server must accept the absolute form too (RFC
        // 9112 3.2.2)
        request.setUri(originForm(request.uri()));
        // whether the connection stays open after this answer: a request that closes it stops whatever is read after it
        final boolean keepAlive = request instanceof BodyLimit.Oversized oversized ? oversized.keepAlive :
            request.decoderResult().isSuccess() && HttpUtil.isKeepAlive(request);
        final Slot slot = answers.open(ctx, keepAlive);
        // until the path is decoded (a 413, a request that is not HTTP), the raw one says whether this is a submit
        final int query = request.uri().indexOf('?');
        final String rawPath = query < 0 ? request.uri() : request.uri().substring(0, query);
        slot.submit = request.method().equals(HttpMethod.POST) && rawPath.equals(SUBMIT);
        if (request instanceof BodyLimit.Oversized skipped && skipped.refusedAtEdge != null)
        {
            // its head found the address's bucket empty: the body was skipped, never buffered
            final boolean mm = skipped.refusedAtEdge == Routes.HeadThrottle.MM;
            answers.fill(ctx, slot, refusal(session.refuseAtEdge(remote(ctx), mm)));
            return;
        }
        if (request instanceof BodyLimit.Oversized)
        {
            if (request.method().equals(HttpMethod.POST) && (rawPath.equals(SUBMIT) || rawPath.equals(ADMIN_ACTIONS)))
            {
                // a write like any other: the edge throttle counts it, so a flood of them cannot fill the journal
                final Refusal edge = session.admitAtEdge(remote(ctx));
                if (edge != null)
                {
                    answers.fill(ctx, slot, refusal(edge));
                    return;
                }
                session.journal(RequestRejectReason.BODY_TOO_LARGE,
                    "a body over " + context.maxBodyBytes + " bytes on " +
                    rawPath);
            }
            answers.fill(ctx, slot, json(new SubmitResponse(413, error("BODY_TOO_LARGE", "the body is over " +
                context.maxBodyBytes + " bytes"))));
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
                    answers.fill(ctx, slot, notAllowed("POST"));
                }
            }
            case EXCHANGE_INFO -> answers.fill(ctx, slot, ReadRoutes.read(method, context.exchangeInfo));
            case BSL_CONNECTIVITY,
                FIX_CONNECTIVITY -> answers.fill(ctx, slot, ReadRoutes.read(method, context.connectivity));
            case OPENAPI -> answers.fill(ctx, slot, ReadRoutes.read(method, () -> ApiDocuments.OPENAPI));
            case ASYNCAPI -> answers.fill(ctx, slot, ReadRoutes.read(method, () -> ApiDocuments.ASYNCAPI));
            case AGENTS_CREATE -> ownerIntent(ctx, slot, method, OwnerIntents.Kind.CREATE, null, request.content());
            case AGENTS_REVOKE -> ownerIntent(ctx, slot, method, OwnerIntents.Kind.REVOKE, null, request.content());
            case OWNER_REVOKE -> ownerIntent(ctx, slot, method, OwnerIntents.Kind.OWNER_REVOKE, null,
                request.content());
            case WS_TOKEN -> wsToken(ctx, slot, request, path);
            case WS_PUBLIC, WS_PRIVATE -> webSocket(ctx, slot, request, path);
            case MM_REPLACE, MM_CANCEL_REPLACE -> cancelReplace(ctx, slot, request, path);
            case ORDER_ENTRY_BINARY, MM_BATCH_BIN, BSL_ORDERS_COMPACT -> compactOrders(ctx, slot, request, path);
            case Routes.DEAD_MAN, Routes.CANCEL_ON_DISCONNECT -> protection(ctx, slot, request, path);
            case Routes.CANCEL_ALL ->
            {
                if (allowed(ctx, slot, method, HttpMethod.POST))
                {
                    cancelAll(ctx, slot, request.content());
                }
            }
            case ADMIN_ACTIONS ->
            {
                if (allowed(ctx, slot, method, HttpMethod.POST))
                {
                    adminAction(ctx, slot, request.content());
                }
            }
            case BSL_LIMITS, MM_LIMITS -> answers.fill(ctx, slot, reads.limits(method));
            case METRICS -> answers.fill(ctx, slot, reads.metrics(method, remote(ctx)));
            case Routes.FIX_ONBOARDING_OWN -> ownFixOnboarding(ctx, slot, request);
            case BSL_EXECUTIONS -> answers.fill(ctx, slot, ReadRoutes.read(method, ReadRoutes::executionStreams));
            case BSL_SESSIONS -> answers.fill(ctx, slot, ReadRoutes.read(method,
                () -> SessionList.json(context.entry == null ? null : context.entry.sessions())));
            default ->
            {
                if (path.startsWith(SUBMIT + "/"))
                {
                    answers.fill(ctx, slot, reads.actionStatus(method, path.substring(SUBMIT.length() + 1)));
                }
                else if (path.startsWith(AGENTS) && path.endsWith(ROTATE) &&
                    path.length() > AGENTS.length() + ROTATE.length())
                {
                    ownerIntent(ctx, slot, method, OwnerIntents.Kind.ROTATE,
                        path.substring(AGENTS.length(), path.length() - ROTATE.length()), request.content());
                }
                else if (path.startsWith(BSL_MARKETS) && path.endsWith(QUOTE_OBLIGATIONS) &&
                    path.length() > BSL_MARKETS.length() + QUOTE_OBLIGATIONS.length())
                {
                    answers.fill(ctx, slot, reads.quoteObligations(method,
                        path.substring(BSL_MARKETS.length(), path.length() - QUOTE_OBLIGATIONS.length())));
                }
                else if (FeedReads.isMarketRead(path))
                {
                    feedReads.market(ctx, slot, request, path);
                }
                else if (FeedReads.accountRead(path) != null)
                {
                    feedReads.account(ctx, slot, request, path, FeedReads.accountRead(path));
                }
                else if (path.startsWith(ORDERS) && context.orderStatus != null)
                {
                    answers.fill(ctx, slot, reads.orderStatus(method, path.substring(ORDERS.length())));
                }
                else if (path.startsWith(BSL_ACCOUNTS) && path.endsWith(EXECUTIONS) &&
                    path.length() > BSL_ACCOUNTS.length() + EXECUTIONS.length())
                {
                    executions(ctx, slot, request,
                        path.substring(BSL_ACCOUNTS.length(), path.length() - EXECUTIONS.length()));
                }
                else if (path.startsWith(ACCOUNTS) && path.endsWith(NONCE) &&
                    path.length() > ACCOUNTS.length() + NONCE.length())
                {
                    answers.fill(ctx, slot,
                        reads.nonceWindow(method, path.substring(ACCOUNTS.length(), path.length() - NONCE.length())));
                }
                else if (path.startsWith(Routes.FIX_ONBOARDING))
                {
                    answers.fill(ctx, slot, reads.fixOnboarding(method, remote(ctx),
                        path.substring(Routes.FIX_ONBOARDING.length())));
                }
                else if (SchemaRoutes.serves(path))
                {
                    answers.fill(ctx, slot, SchemaRoutes.read(method, path));
                }
                else
                {
                    answers.fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "no route " + path))));
                }
            }
        }
    }

    /**
     * GET /api/v1/ws/public and /private with {@code Upgrade: websocket}: the connection becomes a WebSocket one
     * ({@link HttpGateway#toWebSocket}). Refused with an HTTP answer, the connection staying HTTP: another method
     * (405), a request without the upgrade (426), a token in the query string or a header (400), an upgrade pipelined
     * behind unanswered requests (400).
     */
    private void webSocket(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final String path)
    {
        if (webSocket == null)
        {
            answers.fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "no route " + path))));
            return;
        }
        if (!allowed(ctx, slot, request.method(), HttpMethod.GET))
        {
            return;
        }
        if (!HttpHeaderValues.WEBSOCKET.contentEqualsIgnoreCase(request.headers().get(HttpHeaderNames.UPGRADE, "")) ||
            !request.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true) ||
            !"13".equals(request.headers().get(HttpHeaderNames.SEC_WEBSOCKET_VERSION)) ||
            !request.headers().contains(HttpHeaderNames.SEC_WEBSOCKET_KEY))
        {
            final FullHttpResponse http = json(new SubmitResponse(426, error("UPGRADE_REQUIRED",
                path + " is a WebSocket endpoint (RFC 6455, version 13): send the upgrade request")));
            http.headers().set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET)
                .set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, "13");
            answers.fill(ctx, slot, http);
            return;
        }
        final String refused = WsGateway.refusal(request);
        if (refused != null)
        {
            answers.fill(ctx, slot, json(new SubmitResponse(400, error("TOKEN_NOT_ACCEPTED_HERE", refused))));
            return;
        }
        if (!answers.handOver(slot))
        {
            answers.fill(ctx, slot, HttpResponses.badRequest(
                "an upgrade must not follow requests still unanswered, nor a request that closes the connection"));
            return;
        }
        HttpGateway.toWebSocket(ctx.channel(), webSocket, request, path.equals(WS_PRIVATE), context.tls != null);
    }

    private void submit(final ChannelHandlerContext ctx, final Slot slot, final ByteBuf content)
    {
        if (admitWrite(ctx, slot, true))
        {
            offerSubmit(ctx, slot, bytes(content));
        }
    }

    /** Hands an admitted submit body to the verifier pool. */
    private void offerSubmit(final ChannelHandlerContext ctx, final Slot slot, final byte[] body)
    {
        offered(ctx, slot,
            session.submit(body, answer -> answers.answerLater(ctx, slot, () -> json(HttpAnswers.render(answer)))),
            SUBMIT_TIMEOUT);
    }

    /**
     * POST /api/v1/trading/cancel-all: a signed CancelAll (the body of a submit), refused here unless it is one,
     * answered as a submit is with {@code cancelled}, the count of orders it cancelled, added.
     */
    private void cancelAll(final ChannelHandlerContext ctx, final Slot slot, final ByteBuf content)
    {
        if (!admitWrite(ctx, slot, true))
        {
            return;
        }
        final byte[] body = bytes(content);
        final ParseResult parsed = ADMIN_PARSER.get().parse(body);
        if (parsed.isOk() && !(parsed.payload().action() instanceof CancelAll))
        {
            session.journal(RequestRejectReason.MALFORMED, "not a cancel_all on " + Routes.CANCEL_ALL);
            badRequest(ctx, slot, "action", "not a cancel_all action: other actions go to " + SUBMIT);
            return;
        }
        offered(ctx, slot, session.submit(body, answer -> answers.answerLater(ctx, slot,
            () -> json(withCancelled(HttpAnswers.render(answer), answer)))), SUBMIT_TIMEOUT);
    }

    /** A submit's answer with the count of orders the action cancelled, when it was accepted. */
    private static SubmitResponse withCancelled(final SubmitResponse response, final Answer answer)
    {
        if (!answer.accepted() || !response.body().endsWith("}"))
        {
            return response;
        }
        return new SubmitResponse(response.status(), JsonWriter.extend(response.body(),
            new JsonWriter().field("cancelled", answer.cancelled)), response.retryAfterSeconds(), response.rateLimit(),
            response.rateRemaining(), response.rateResetMs());
    }

    /**
     * POST /api/v1/protection/dead-man and /cancel-on-disconnect: an agent's machine headers, counted like the MM
     * lane's failed authentications; the engine's outcome is the answer ({@link ProtectionRoute#answer}).
     */
    private void protection(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final String path)
    {
        final MmRoute.Decision<ProtectionRoute.Request> decision = mmDecision(ctx, slot, request,
            protection.served(), remote -> protection.decide(request.headers()::get, request.method().name(),
                request.uri(), path, bytes(request.content())));
        if (decision == null)
        {
            return;
        }
        final ProtectionRoute.Request asked = decision.admitted();
        final SessionProtection hook = context.entry.protection();
        final Consumer<Answer> onAnswer = answer -> answers.answerLater(ctx, slot,
            () -> json(ProtectionRoute.answer(asked, answer)));
        offered(ctx, slot, path.equals(Routes.DEAD_MAN) ?
            hook.armDeadMan(session.connectionId(), asked.account(), asked.market(), asked.countdownMs(), onAnswer) :
            hook.armCancelOnDisconnect(session.connectionId(), asked.account(), asked.market(), asked.armed(),
                onAnswer), SUBMIT_TIMEOUT);
    }

    /**
     * POST /api/v1/admin/actions: the operator's route. The same signed body as a submit (spec 2.3, EIP-191 by an
     * operator key, DESIGN.md section 6), refused here unless it carries an admin action, so an operator's tooling
     * cannot send a trade by mistake; the engine still checks the signer is an operator (NOT_OPERATOR).
     */
    private void adminAction(final ChannelHandlerContext ctx, final Slot slot, final ByteBuf content)
    {
        // admitted first, like any write: the edge throttle bounds what the parse below costs the I/O thread
        if (!admitWrite(ctx, slot, true))
        {
            return;
        }
        final byte[] body = bytes(content);
        final ParseResult parsed = ADMIN_PARSER.get().parse(body);
        if (parsed.isOk() && !(parsed.payload().action() instanceof AdminAction))
        {
            session.journal(RequestRejectReason.MALFORMED, "not an admin action on " + ADMIN_ACTIONS);
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
        final OwnerIntents intents = context.ownerIntents;
        if (intents == null)
        {
            answers.fill(ctx, slot,
                json(new SubmitResponse(404, error("NOT_FOUND", "this gateway takes no owner intents"))));
            return;
        }
        if (!admitWrite(ctx, slot, true))
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
        offered(ctx, slot, session.submitIntent(intent.owner(), intent.signature(), intent.text(), intent.command(),
            intent.commandLength(),
            answer -> answers.answerLater(ctx, slot, () -> json(intents.deliversAgain(intent, answer.code) ?
            deliveredAgain(intent, answer.serverTimeMs) : withCredential(HttpAnswers.render(answer), intent)))),
            INTENT_TIMEOUT);
    }

    /**
     * POST /api/v1/ws/token ({@link TokenRoute}): the route's refusals of machine headers and signatures are journaled.
     */
    private void wsToken(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final String path)
    {
        if (!allowed(ctx, slot, request.method(), HttpMethod.POST))
        {
            return;
        }
        if (context.wsTokens == null)
        {
            answers.fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "this gateway issues no tokens"))));
            return;
        }
        final Refusal refused = session.admitRequest(remote(ctx));
        if (refused != null)
        {
            answers.fill(ctx, slot, refusal(refused));
            return;
        }
        answer(ctx, slot,
            tokens.issue(request.headers()::get, request.method().name(), request.uri(), bytes(request.content()),
            System.currentTimeMillis()));
    }

    /**
     * GET /api/v1/fix/onboarding: the FIX onboarding record of the credential whose SVC-* headers sign the request
     * (docs/FIX.md, "Onboarding record"); 404 NOT_ONBOARDED when it has none. A refused authentication is journaled as
     * on every machine route.
     */
    private void ownFixOnboarding(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request)
    {
        if (!ReadRoutes.isRead(request.method()))
        {
            answers.fill(ctx, slot, HttpResponses.notAllowed(ReadRoutes.READ_METHODS));
            return;
        }
        if (context.fixOnboarding == null || context.entry.credentials() == null)
        {
            answers.fill(ctx, slot, json(new SubmitResponse(404, error("NOT_FOUND", "this gateway serves no FIX " +
                "onboarding records"))));
            return;
        }
        final Refusal refused = session.admitRequest(remote(ctx));
        if (refused != null)
        {
            answers.fill(ctx, slot, refusal(refused));
            return;
        }
        final MachineAuth.Authenticated auth = machineAuth.authenticate(request.headers()::get,
            request.method().name(), request.uri(), bytes(request.content()), System.currentTimeMillis());
        if (auth.refusal() != null)
        {
            answer(ctx, slot, auth.refusal());
            return;
        }
        final String record = context.fixOnboarding.apply(auth.apiKeyId());
        answers.fill(ctx, slot, record != null ? ReadRoutes.read(request.method(), () -> record) :
            json(new SubmitResponse(404, error("NOT_ONBOARDED", "no FIX onboarding record for " + auth.apiKeyId() +
            ": the venue's operator sets one"))));
    }

    /** Answers an outcome decided in the lane, journaling it first when it names a reason. */
    private void answer(final ChannelHandlerContext ctx, final Slot slot, final TokenRoute.Outcome outcome)
    {
        if (outcome.journalReason() != null)
        {
            session.journal(outcome.journalReason(), outcome.journalDetail());
        }
        answers.fill(ctx, slot, json(outcome.response()));
    }

    /**
     * GET /api/v1/bsl/accounts/{account}/executions?cursor=: a private read (spec 4.3: 401 without a token). The
     * bearer token must be valid, its credential still active and its account the one in the path.
     */
    private void executions(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final String account)
    {
        if (context.executions == null && ReadRoutes.isRead(request.method()))
        {
            answers.fill(ctx, slot,
                json(new SubmitResponse(404, error("NOT_FOUND", "this gateway serves no private reads"))));
            return;
        }
        if (!privateReads.admit(ctx, slot, request, account))
        {
            return;
        }
        final List<String> cursors;
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
        answers.await(ctx, slot, "the page was not read within " + session.answerTimeoutMs() + " ms; ask again");
        context.executions.apply(account, cursor)
            .whenComplete((page, failure) -> answers.answerLater(ctx, slot, () -> json(
            failure == null ? new SubmitResponse(200, page) :
            failure.getCause() instanceof RejectedExecutionException ||
                failure instanceof RejectedExecutionException ?
                new SubmitResponse(503, error("BUSY", "too many private reads wait; retry after the delay"), 1) :
                new SubmitResponse(500,
                    error("INTERNAL", "the event journal could not be read; the operator's log says why")))));
    }

    /**
     * POST of compact binary orders (spec 4, 4.1): 1 to 1,000 signed orders of the credential's account, each offered
     * to the pool as the MM lane's; the request is answered once the engine has answered every order taken. The orders
     * go in body order on this connection, so they are journaled in that order.
     */
    private void compactOrders(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final String path)
    {
        // a batch's place is taken before anything else is done for it (the length says how many orders a body holds)
        final boolean batch = session.isBatch(CompactOrders.ordersIn(request.content().readableBytes()));
        // what gives a batch's place back; a request that is not a batch holds none
        final Runnable freePlace = batch ? session.admitBatch() : NO_PLACE;
        if (freePlace == null)
        {
            // latency could not stay bounded: refused (and journaled) before it is authenticated, charged or verified
            final EntryCore.Context core = context.entry.context();
            answers.fill(ctx, slot,
                queueLimit("the pre-batched backlog is full (" + core.prebatchedMaxBatches() + " requests of " +
                "more than " + core.lowLatencyMaxActions() +
                " orders wait for verification); nothing was checked, charged " +
                "or verified (journaled as refused), retry after the delay or send fewer orders"));
            return;
        }
        final MmRoute.Decision<CompactOrderRoute.Admitted> decision = mmDecision(ctx, slot, request,
            context.compactOrders,
            remote -> compact.decide(request.headers()::get, request.method().name(), request.uri(), path,
                bytes(request.content()), remote));
        if (decision == null)
        {
            freePlace.run();
            return;
        }
        final CompactOrderRoute.Admitted admitted = decision.admitted();
        // the answer (up to 1,000 results and the MM budget, under the windows' lock) is built on the I/O thread, not
        // on the responder's that completes the last order
        final int taken = session.submitBatch(batch, admitted.bodies(), results ->
        {
            freePlace.run();
            answers.answerLater(ctx, slot, () -> json(compact.answer(admitted, results)));
        });
        if (taken < admitted.bodies().size())
        {
            // the verifier queue is full: the rest were not offered (their order would break), their charge goes back
            compact.refund(admitted, taken);
            if (taken == 0)
            {
                freePlace.run();
                answers.fill(ctx, slot, queueLimit(
                    "the verifier queue is full; no order was verified (journaled as refused), retry after the delay"));
                return;
            }
        }
        // an answer that never comes (a journal write that failed) must not keep a batch's place for good
        slot.onTimeout = freePlace;
        answers.await(ctx, slot, COMPACT_TIMEOUT);
    }

    /**
     * The checks every request of the MM lane passes before its own: POST, the route served, the connection's write
     * admission and the edge throttle's count of failed authentications; then {@code decide}. Answers and returns null
     * unless the request is admitted.
     */
    private <A>
        MmRoute.Decision<A> mmDecision(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final boolean served, final Function<InetAddress, MmRoute.Decision<A>> decide)
    {
                if (!allowed(ctx, slot, request.method(), HttpMethod.POST))
        {
            return null;
        }
        if (!served)
        {
            answers.fill(ctx, slot,
                json(new SubmitResponse(404, error("NOT_FOUND", "this gateway takes no MM orders"))));
            return null;
        }
        // the MM lane has its own limits (spec 8.2): a throttle of the edge's settings counts only its failed
        // authentications, in buckets of its own, so an address that keeps failing is refused before the checks and
        // cannot flood the journal, and the address's traffic on other routes never refuses its MM orders
        if (!admitWrite(ctx, slot, false))
        {
            return null;
        }
        final InetAddress remote = remote(ctx);
        final Refusal exhausted = session.admitMmAuthentication(remote);
        if (exhausted != null)
        {
            answers.fill(ctx, slot, refusal(exhausted));
            return null;
        }
        final MmRoute.Decision<A> decision = decide.apply(remote);
        if (decision.edgeWaitSeconds() > 0)
        {
            answers.fill(ctx, slot, refusal(session.refuseMmAuthentication(remote, decision.edgeWaitSeconds())));
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
    private void cancelReplace(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final String path)
    {
                final MmRoute.Decision<MmRoute.Admitted> decision = mmDecision(ctx, slot, request,
                    context.cancelReplaces != null,
            remote -> mm.decide(request.headers()::get, request.method().name(), request.uri(), path,
                bytes(request.content()), remote));
        if (decision == null)
        {
            return;
        }
        final CancelReplaceRequests.Request replace = decision.admitted().replace();
        final Refusal refused = session.submitCancelReplace(replace.order(), replace.signatures(), replace.command(),
            answer -> answers.answerLater(ctx, slot,
                () -> json(mm.withBudget(HttpAnswers.render(answer), replace.trader()))));
        if (refused != null)
        {
            // not taken: the windows give the charge back
            mm.refund(decision.admitted());
        }
        offered(ctx, slot, refused, SUBMIT_TIMEOUT);
    }

    private static InetAddress remote(final ChannelHandlerContext ctx)
    {
        return ClientAddress.of(ctx.channel());
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
            if (intent.sealedCredential() != null)
            {
                more.field("sealedCredential", intent.sealedCredential());
            }
        }
        more.field("validUntilMs", intent.validUntilMs());
        return new SubmitResponse(200, JsonWriter.extend(body, more), 0, response.rateLimit(),
            response.rateRemaining(), response.rateResetMs());
    }

    /**
     * The answer to a create or rotate body the engine applied before (its nonce used, its credential active): the same
     * credential, sealed again to the delivery key the owner signed.
     */
    private static SubmitResponse deliveredAgain(final OwnerIntents.Intent intent, final long serverTimeMs)
    {
        return new SubmitResponse(200, new JsonWriter().field("ok", true).field("deliveredAgain", true)
            .field("agentId", intent.agentId()).field("apiKeyId", intent.apiKeyId())
            .field("sealedCredential", intent.sealedCredential()).field("validUntilMs", intent.validUntilMs())
            .field("serverTimeMs", serverTimeMs).toJson());
    }

    /** What every write passes before it is read (the core's admission); a refused request is answered here. */
    private boolean admitWrite(final ChannelHandlerContext ctx, final Slot slot, final boolean edgeThrottled)
    {
        final Refusal refused = session.admitWrite(remote(ctx), edgeThrottled);
        if (refused != null)
        {
            answers.fill(ctx, slot, refusal(refused));
            return false;
        }
        return true;
    }

    /**
     * After the offer to the pool: a refusal (a full queue, journaled) is answered at once, otherwise the wait starts.
     */
    private void offered(final ChannelHandlerContext ctx, final Slot slot, final Refusal refused, final String timeout)
    {
        if (refused != null)
        {
            answers.fill(ctx, slot, refusal(refused));
            return;
        }
        answers.await(ctx, slot, timeout);
    }

    private static byte[] bytes(final ByteBuf content)
    {
        final byte[] body = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), body);
        return body;
    }

    /** The client shut its side after its requests: each is still answered, then the connection closes. */
    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
    {
        if (event instanceof ChannelInputShutdownEvent)
        {
            answers.inputShut(ctx);
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        answers.close();
        super.channelInactive(ctx);
    }

    /** True when the request uses {@code expected}; otherwise answers 405 with Allow. */
    private boolean allowed(final ChannelHandlerContext ctx, final Slot slot, final HttpMethod method,
        final HttpMethod expected)
    {
        if (method.equals(expected))
        {
            return true;
        }
        answers.fill(ctx, slot, notAllowed(expected.name()));
        return false;
    }

    private void badRequest(final ChannelHandlerContext ctx, final Slot slot, final String message)
    {
        answers.fill(ctx, slot, HttpResponses.badRequest(message));
    }

    /** A 400 naming the field; with the server's time, which a time-related refusal needs. */
    private void badRequest(final ChannelHandlerContext ctx, final Slot slot, final String field, final String message)
    {
        answers.fill(ctx, slot, json(TokenRoute.badRequest(field, message)));
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        // a reset connection or a protocol error on one connection: close it, the others go on
        ctx.close();
    }
}
