package io.venue.transport.bsltcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.venue.bsltcp.sbe.CancelOnDisconnectDecoder;
import io.venue.bsltcp.sbe.DeadManDecoder;
import io.venue.bsltcp.sbe.ErrorCode;
import io.venue.bsltcp.sbe.ProtectionResult;
import io.venue.bsltcp.sbe.LoginDecoder;
import io.venue.bsltcp.sbe.LoginKind;
import io.venue.bsltcp.sbe.LoginRejectReason;
import io.venue.bsltcp.sbe.LogoutDecoder;
import io.venue.bsltcp.sbe.MessageHeaderDecoder;
import io.venue.bsltcp.sbe.OrdersDecoder;
import io.venue.bsltcp.sbe.ResultMode;
import io.venue.entry.Answer;
import io.venue.entry.EntryCore;
import io.venue.entry.EntrySession;
import io.venue.entry.Refusal;
import io.venue.entry.admission.EdgeThrottle;
import io.venue.entry.mm.CompactAdmission;
import io.venue.entry.mm.MmWindows;
import io.venue.entry.protect.ProtectionCommands;
import io.venue.entry.protect.SessionProtection;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.tcp.AddressSessions;
import org.agrona.collections.LongArrayQueue;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One BSL TCP connection (docs/BSL-TCP.md): the login within its deadline, then Orders requests in seq order, each
 * admitted by the order-entry core (the MM windows, the account binding, the ts skew: {@link CompactAdmission}) and
 * answered once every order is, heartbeats both ways, and a documented Error then a close for anything that breaks
 * the protocol. Tells the protection hook ({@link SessionProtection}) when it opens and closes: a session key's
 * policy is cancel-on-disconnect.
 * Runs on the channel's event loop; answers hop there from the responder's thread.
 */
final class BslSession extends ChannelInboundHandlerAdapter
{
    /** The most requests of one session waiting for their answers at once. */
    static final int MAX_IN_FLIGHT = 64;
    /** The most DeadMan and CancelOnDisconnect requests of one session waiting for their ProtectionAck at once. */
    static final int MAX_PROTECTIONS_IN_FLIGHT = 8;
    /** A peer silent for this many heartbeat intervals is disconnected. */
    static final int SILENT_INTERVALS = 3;
    private static final Runnable NO_PLACE = () -> { };

    private enum State
    {
        AWAITING_LOGIN, ACTIVE, CLOSING
    }

    private final BslTcpLane.Context context;
    private final BslTcpLane.Counters counters;
    private final AddressSessions perAddress;
    private final EntryCore core;
    private final EntrySession entry;
    private final CompactAdmission admission;
    private final SessionLogin login;
    private final InboundCheck check = new InboundCheck();
    private final ServerMessages out = new ServerMessages();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final LoginDecoder loginDecoder = new LoginDecoder();
    private final OrdersDecoder ordersDecoder = new OrdersDecoder();
    private final LogoutDecoder logoutDecoder = new LogoutDecoder();
    private final DeadManDecoder deadManDecoder = new DeadManDecoder();
    private final CancelOnDisconnectDecoder cancelOnDisconnectDecoder = new CancelOnDisconnectDecoder();
    private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);
    /** The seqs taken and not yet final, in order; those final out of order wait in {@link #finalEarly}. */
    private final LongArrayQueue open = new LongArrayQueue(MAX_IN_FLIGHT, -1);
    private final LongHashSet finalEarly = new LongHashSet(MAX_IN_FLIGHT);

    private State state = State.AWAITING_LOGIN;
    private ChannelHandlerContext ctx;
    private InetAddress remote;
    /** The key the per-address cap counted this connection by, given back when it closes; null when not counted. */
    private InetAddress counted;
    private String remoteText;
    private SessionLogin.Outcome identity;
    private boolean detailed;
    private long openedAtMs;
    private long lastSeq;
    private volatile long lastProcessedSeq;
    private long lastReadNs;
    private long lastWriteNs;
    private ScheduledFuture<?> loginDeadline;
    private ScheduledFuture<?> ticker;
    /** The protection hook was told this session opened: it is told once when it closes. */
    private boolean protectionOpened;
    /** The session's policy as the hook was told: its account's orders are swept when it closes. */
    private boolean cancelOnDisconnect;
    /** DeadMan and CancelOnDisconnect requests offered and not yet acknowledged (event loop only). */
    private int protectionsInFlight;

    BslSession(final BslTcpLane.Context context, final BslTcpLane.Counters counters, final AddressSessions perAddress,
        final EntryCore core, final EntrySession entry, final CompactAdmission admission, final SessionLogin login)
    {
        this.context = context;
        this.counters = counters;
        this.perAddress = perAddress;
        this.core = core;
        this.entry = entry;
        this.admission = admission;
        this.login = login;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        final InetSocketAddress address = (InetSocketAddress)ctx.channel().remoteAddress();
        remote = address.getAddress();
        entry.from(remote);
        remoteText = address.getAddress().getHostAddress() + ":" + address.getPort();
        lastReadNs = System.nanoTime();
        lastWriteNs = lastReadNs;
        counters.connections.incrementAndGet();
        if (counters.open.incrementAndGet() > context.maxSessions())
        {
            fail(ErrorCode.TOO_MANY_SESSIONS, "this lane holds its maximum of " + context.maxSessions() +
                " connections; try again later or another node");
            return;
        }
        counted = perAddress.acquire(remote);
        if (counted == null)
        {
            counters.addressRefusals.incrementAndGet();
            fail(ErrorCode.TOO_MANY_SESSIONS, "this address holds its maximum of " + perAddress.perAddress() +
                " connections to this lane (bsl.tcp.max.sessions.per.address); close one first");
            return;
        }
        loginDeadline = ctx.executor().schedule(() -> fail(ErrorCode.LOGIN_TIMEOUT, "no Login within " +
            context.loginTimeoutMs() + " ms of the connection"), context.loginTimeoutMs(), TimeUnit.MILLISECONDS);
        final long tick = Math.max(5, context.heartbeatIntervalMs() / 4);
        ticker = ctx.executor().scheduleAtFixedRate(this::tick, tick, tick, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        counters.open.decrementAndGet();
        perAddress.release(counted);
        counted = null;
        state = State.CLOSING;
        cancelTimers();
        core.sessions().remove(entry.connectionId());
        if (protectionOpened)
        {
            protectionOpened = false;
            core.protection().closed(entry.connectionId());
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        // a reset by the peer, or a bug of ours: either way this connection ends, the node goes on
        ctx.close();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof FrameDecoder.Fault fault)
        {
            fail(fault.code(), fault.message());
            return;
        }
        final ByteBuf buf = (ByteBuf)msg;
        try
        {
            if (state != State.CLOSING)
            {
                lastReadNs = System.nanoTime();
                counters.frames.incrementAndGet();
                onFrame(buf);
            }
        }
        finally
        {
            buf.release();
        }
    }

    private void onFrame(final ByteBuf buf)
    {
        final int length = buf.readableBytes();
        if (buf.hasMemoryAddress())
        {
            frame.wrap(buf.memoryAddress() + buf.readerIndex(), length);
        }
        else if (buf.hasArray())
        {
            frame.wrap(buf.array(), buf.arrayOffset() + buf.readerIndex(), length);
        }
        else
        {
            final byte[] copy = new byte[length];
            buf.getBytes(buf.readerIndex(), copy);
            frame.wrap(copy);
        }
        final int template = check.check(frame, 0, length);
        if (template < 0)
        {
            fail(check.fault(), check.message());
            return;
        }
        header.wrap(frame, 0);
        switch (template)
        {
            case LoginDecoder.TEMPLATE_ID -> onLogin();
            case OrdersDecoder.TEMPLATE_ID -> onOrders();
            case LogoutDecoder.TEMPLATE_ID -> onLogout();
            case DeadManDecoder.TEMPLATE_ID -> onDeadMan();
            case CancelOnDisconnectDecoder.TEMPLATE_ID -> onCancelOnDisconnect();
            default ->
            {
                // a Heartbeat: its arrival is all it says
                if (state != State.ACTIVE)
                {
                    fail(ErrorCode.NOT_LOGGED_IN, "the first message of a session is Login");
                }
            }
        }
    }

    private void onLogin()
    {
        if (state == State.ACTIVE)
        {
            fail(ErrorCode.ALREADY_LOGGED_IN, "this session is logged in already");
            return;
        }
        loginDecoder.wrapAndApplyHeader(frame, 0, header);
        final long now = System.currentTimeMillis();
        if (context.draining())
        {
            rejectLogin(SessionLogin.Outcome.refused(LoginRejectReason.SHUTTING_DOWN, "the appliance is stopping; " +
                "log in to the next node", null, null), now);
            return;
        }
        final Refusal throttled = entry.admitMmAuthentication(remote);
        if (throttled != null)
        {
            rejectLogin(SessionLogin.Outcome.refused(LoginRejectReason.THROTTLED, throttled.message(), null, null),
                now);
            return;
        }
        final ResultMode mode = loginDecoder.resultMode();
        final SessionLogin.Outcome outcome = login.authenticate(loginDecoder, now);
        if (!outcome.accepted())
        {
            final EdgeThrottle failures = core.mmAuthThrottle();
            if (failures != null)
            {
                // a failed login costs the address a token: one that keeps failing is refused before the check
                failures.acquire(remote);
            }
            rejectLogin(outcome, now);
            return;
        }
        if (mode != ResultMode.ACK && mode != ResultMode.DETAILED)
        {
            rejectLogin(SessionLogin.Outcome.refused(LoginRejectReason.MALFORMED, "resultMode is 0 (ACK) or 1 " +
                "(DETAILED)", null, null), now);
            return;
        }
        final SessionProtection protection = core.protection();
        if (protection != null)
        {
            final SessionProtection.Kind kind = outcome.kind() == LoginKind.WALLET ? SessionProtection.Kind.WALLET :
                SessionProtection.Kind.SESSION_KEY;
            if (!protection.opened(entry.connectionId(), outcome.accountBytes(),
                SessionProtection.credentialId(outcome.apiKeyId()), kind))
            {
                // without its journaled session the promised sweep could not happen: no session rather than one
                // without its protection
                rejectLogin(SessionLogin.Outcome.refused(LoginRejectReason.THROTTLED, "the node's protection queue " +
                    "is full; log in again shortly", null, null), now);
                return;
            }
            protectionOpened = true;
            cancelOnDisconnect = SessionProtection.cancelsOnDisconnect(kind);
        }
        identity = outcome;
        detailed = mode == ResultMode.DETAILED;
        openedAtMs = now;
        state = State.ACTIVE;
        loginDeadline.cancel(false);
        counters.logins.incrementAndGet();
        core.sessions().add(entry.connectionId(), this::describe);
        write(out.loginAccepted(ctx.alloc(), lastProcessedSeq, entry.connectionId(), outcome.accountBytes(),
            context.heartbeatIntervalMs(), context.maxFrameBytes(), now));
    }

    private void rejectLogin(final SessionLogin.Outcome outcome, final long now)
    {
        counters.loginsRefused.incrementAndGet();
        if (outcome.journalReason() != null)
        {
            entry.journal(outcome.journalReason(), outcome.journalDetail());
        }
        closeAfter(out.loginRejected(ctx.alloc(), lastProcessedSeq, outcome.reason(), now, outcome.message()));
    }

    private void onLogout()
    {
        if (state != State.ACTIVE)
        {
            fail(ErrorCode.NOT_LOGGED_IN, "the first message of a session is Login");
            return;
        }
        closeAfter(out.logout(ctx.alloc(), lastProcessedSeq, "logout acknowledged"));
    }

    /** DeadMan: the session account's dead-man timer, answered by a ProtectionAck once the engine applied it. */
    private void onDeadMan()
    {
        if (state != State.ACTIVE)
        {
            fail(ErrorCode.NOT_LOGGED_IN, "the first message of a session is Login");
            return;
        }
        deadManDecoder.wrapAndApplyHeader(frame, 0, header);
        final long requestId = deadManDecoder.requestId();
        final long market = market(deadManDecoder.allMarkets(), deadManDecoder.market());
        final long countdownMs = deadManDecoder.countdownMs();
        if (market == BAD_FLAG)
        {
            fail(ErrorCode.MALFORMED, "DeadMan allMarkets is 0 or 1, got " + deadManDecoder.allMarkets());
            return;
        }
        final SessionProtection protection = core.protection();
        if (protection == null)
        {
            protectionAck(requestId, ProtectionResult.NOT_TAKEN, 0, -1, "this node keeps no protections");
            return;
        }
        final String outOfBounds = protection.deadManRefusal(countdownMs);
        if (outOfBounds != null)
        {
            protectionAck(requestId, ProtectionResult.OUT_OF_BOUNDS, 0, -1, outOfBounds);
            return;
        }
        if (!protectionTaken())
        {
            return;
        }
        final Refusal refused = protection.armDeadMan(entry.connectionId(), identity.accountBytes(), market,
            countdownMs, answer -> acknowledged(requestId, answer));
        if (refused != null)
        {
            protectionsInFlight--;
            protectionAck(requestId, ProtectionResult.NOT_TAKEN, 0, -1, refused.message());
        }
    }

    /** CancelOnDisconnect: the account's explicit arm, what a wallet session (no automatic sweep) asks for. */
    private void onCancelOnDisconnect()
    {
        if (state != State.ACTIVE)
        {
            fail(ErrorCode.NOT_LOGGED_IN, "the first message of a session is Login");
            return;
        }
        cancelOnDisconnectDecoder.wrapAndApplyHeader(frame, 0, header);
        final long requestId = cancelOnDisconnectDecoder.requestId();
        final long market = market(cancelOnDisconnectDecoder.allMarkets(), cancelOnDisconnectDecoder.market());
        final short armed = cancelOnDisconnectDecoder.armed();
        if (market == BAD_FLAG || armed > 1)
        {
            fail(ErrorCode.MALFORMED, "CancelOnDisconnect allMarkets and armed are 0 or 1");
            return;
        }
        final SessionProtection protection = core.protection();
        if (protection == null)
        {
            protectionAck(requestId, ProtectionResult.NOT_TAKEN, 0, -1, "this node keeps no protections");
            return;
        }
        if (!protectionTaken())
        {
            return;
        }
        final Refusal refused = protection.armCancelOnDisconnect(entry.connectionId(), identity.accountBytes(), market,
            armed == 1, answer -> acknowledged(requestId, answer));
        if (refused != null)
        {
            protectionsInFlight--;
            protectionAck(requestId, ProtectionResult.NOT_TAKEN, 0, -1, refused.message());
        }
    }

    /**
     * Counts one more protection request waiting for its answer; past {@link #MAX_PROTECTIONS_IN_FLIGHT} the session
     * ends with TOO_MANY_IN_FLIGHT (each request is a journaled command: a session cannot queue them without bound).
     */
    private boolean protectionTaken()
    {
        if (protectionsInFlight >= MAX_PROTECTIONS_IN_FLIGHT)
        {
            fail(ErrorCode.TOO_MANY_IN_FLIGHT, "at most " + MAX_PROTECTIONS_IN_FLIGHT + " DeadMan and " +
                "CancelOnDisconnect requests may wait for their ProtectionAck");
            return false;
        }
        protectionsInFlight++;
        return true;
    }

    private static final long BAD_FLAG = -2;

    /** The market a protection message names: -1 for every market, {@link #BAD_FLAG} for a flag neither 0 nor 1. */
    private static long market(final short allMarkets, final long market)
    {
        return allMarkets == 1 ? ProtectionCommands.ALL_MARKETS : allMarkets == 0 ? market : BAD_FLAG;
    }

    /** From the responder's thread: the engine's outcome, written on the event loop. */
    private void acknowledged(final long requestId, final Answer answer)
    {
        try
        {
            ctx.executor().execute(() ->
            {
                protectionsInFlight--;
                if (state != State.ACTIVE || !ctx.channel().isActive())
                {
                    return;
                }
                if (answer.kind != Answer.Kind.ACCEPTED || answer.protectionAction == null)
                {
                    protectionAck(requestId, ProtectionResult.NOT_TAKEN, 0, answer.sequence > 0 ? answer.sequence : -1,
                        "not applied (" + answer.kind + "); send it again");
                    return;
                }
                final ProtectionResult result = switch (answer.protectionAction)
                {
                    case "ARMED" -> ProtectionResult.ARMED;
                    case "RENEWED" -> ProtectionResult.RENEWED;
                    case "DISARMED" -> ProtectionResult.DISARMED;
                    case "REFUSED_UNKNOWN" -> ProtectionResult.NOT_ARMED;
                    case "REFUSED_FULL" -> ProtectionResult.TABLE_FULL;
                    default -> ProtectionResult.OUT_OF_BOUNDS;
                };
                protectionAck(requestId, result, answer.protectionDeadlineMs, answer.sequence, "");
            });
        }
        catch (final RejectedExecutionException closing)
        {
            // the lane is closing: nobody is left to answer
        }
    }

    private void protectionAck(final long requestId, final ProtectionResult result, final long deadlineMs,
        final long sequence, final String message)
    {
        write(out.protectionAck(ctx.alloc(), lastProcessedSeq, requestId, result, deadlineMs, sequence, message));
    }

    private void onOrders()
    {
        if (state != State.ACTIVE)
        {
            fail(ErrorCode.NOT_LOGGED_IN, "the first message of a session is Login");
            return;
        }
        ordersDecoder.wrapAndApplyHeader(frame, 0, header);
        final long seq = ordersDecoder.seq();
        if (seq != lastSeq + 1)
        {
            fail(ErrorCode.OUT_OF_SEQUENCE, "expected Orders seq " + (lastSeq + 1) + ", got " +
                Long.toUnsignedString(seq));
            return;
        }
        if (open.size() >= MAX_IN_FLIGHT)
        {
            fail(ErrorCode.TOO_MANY_IN_FLIGHT, "at most " + MAX_IN_FLIGHT + " requests may wait for their answers");
            return;
        }
        final byte[] body = new byte[ordersDecoder.bodyLength()];
        ordersDecoder.getBody(body, 0, body.length);
        final CompactOrders.Request request;
        try
        {
            request = CompactOrders.decode(body);
        }
        catch (final CompactOrders.Malformed bad)
        {
            fail(ErrorCode.MALFORMED, "Orders seq " + seq + ": the compact body does not decode at " + bad.field() +
                ": " + bad.getMessage());
            return;
        }
        lastSeq = seq;
        open.addLong(seq);
        counters.requests.incrementAndGet();
        admit(seq, request);
    }

    private void admit(final long seq, final CompactOrders.Request request)
    {
        final boolean batch = entry.isBatch(request.size());
        final Runnable place = batch ? entry.admitBatch() : NO_PLACE;
        if (place == null)
        {
            refuse(seq, "QUEUE_LIMIT", "orders", "the pre-batched backlog is full; nothing was checked, charged or " +
                "verified (journaled as refused), retry after the delay or send fewer orders", 1_000, null);
            return;
        }
        final Refusal refusal = entry.admitWrite(remote, false);
        if (refusal != null)
        {
            place.run();
            refuse(seq, refusal.code().name(), "", refusal.message(), refusal.retryAfterSeconds() * 1_000, null);
            return;
        }
        final CompactAdmission.Verdict verdict = admission.admit(request, identity.account(),
            identity.accountBytes(), identity.apiKeyId(), EdgeThrottle.describe(EdgeThrottle.key(remote)),
            System.currentTimeMillis());
        if (verdict.fault() != null)
        {
            place.run();
            refuse(seq, verdict.fault().kind() == CompactAdmission.FaultKind.WRONG_ACCOUNT ? "FORBIDDEN" :
                "BAD_REQUEST", verdict.fault().field(), verdict.fault().message(), 0, null);
            return;
        }
        if (verdict.full() != null)
        {
            place.run();
            windowFull(seq, verdict.full());
            return;
        }
        final CompactAdmission.Admitted admitted = verdict.admitted();
        final int taken = entry.submitBatch(batch, request, answers ->
        {
            place.run();
            try
            {
                ctx.executor().execute(() -> answered(seq, answers));
            }
            catch (final RejectedExecutionException closing)
            {
                // the lane is closing: nobody is left to answer
            }
        });
        if (taken < request.size())
        {
            // the verifier queue is full: the rest were not offered (their order would break), their charge goes back
            admission.refund(admitted, taken);
            if (taken == 0)
            {
                place.run();
                refuse(seq, "QUEUE_LIMIT", "orders", "the verifier queue is full; no order was verified (journaled " +
                    "as refused), retry after the delay", 1_000, null);
            }
        }
    }

    private void windowFull(final long seq, final MmWindows.Refusal full)
    {
        counters.windowRefusals.incrementAndGet();
        if (full.neverFits())
        {
            entry.journal(RequestRejectReason.LANE_RATE_LIMITED, "BSL TCP Orders: larger than the " + full.scope() +
                " window of " + identity.account() + " (" + full.maxActionsPerWindow() + ")");
            refuse(seq, "EXCEEDS_WINDOW", "orders", "the request charges more than the " + full.scope() +
                " window's whole limit of " + full.maxActionsPerWindow() + " per " + full.windowMs() + " ms: split " +
                "it into smaller requests", 0, full);
            return;
        }
        entry.journal(RequestRejectReason.LANE_RATE_LIMITED, "BSL TCP Orders: " + full.scope() + " window of " +
            identity.account() + " full (" + full.usedActions() + " of " + full.maxActionsPerWindow() + ")");
        refuse(seq, "RATE_LIMITED", full.scope(), full.scope() + " max_actions_per_window: retry after resetInMs",
            Math.max(1, full.resetInMs()), full);
    }

    private void refuse(final long seq, final String code, final String field, final String message,
        final long retryAfterMs, final MmWindows.Refusal full)
    {
        counters.requestsRefused.incrementAndGet();
        settle(seq);
        write(out.requestRefused(ctx.alloc(), lastProcessedSeq, seq, code, field, message, retryAfterMs, full,
            full == null ? admission.budget(identity.account()) : null));
    }

    /** On the event loop: every order of request {@code seq} is answered. */
    private void answered(final long seq, final Answer[] answers)
    {
        settle(seq);
        if (state != State.ACTIVE || !ctx.channel().isActive())
        {
            return;
        }
        counters.answers.incrementAndGet();
        write(out.orderAnswers(ctx.alloc(), lastProcessedSeq, seq, detailed, answers,
            admission.budget(identity.account())));
    }

    /** Request {@code seq} is final: lastProcessedSeq moves up to the last of those final in order. */
    private void settle(final long seq)
    {
        if (open.peekLong() != seq)
        {
            finalEarly.add(seq);
            return;
        }
        open.pollLong();
        long last = seq;
        while (!open.isEmpty() && finalEarly.remove(open.peekLong()))
        {
            last = open.pollLong();
        }
        lastProcessedSeq = last;
    }

    private void tick()
    {
        if (state == State.CLOSING)
        {
            return;
        }
        final long now = System.nanoTime();
        final long interval = TimeUnit.MILLISECONDS.toNanos(context.heartbeatIntervalMs());
        if (state == State.ACTIVE && now - lastReadNs > SILENT_INTERVALS * interval)
        {
            fail(ErrorCode.HEARTBEAT_TIMEOUT, "nothing from the client for " + SILENT_INTERVALS + " heartbeat " +
                "intervals of " + context.heartbeatIntervalMs() + " ms");
            return;
        }
        if (state == State.ACTIVE && now - lastWriteNs >= interval)
        {
            write(out.heartbeat(ctx.alloc(), lastProcessedSeq));
        }
    }

    private void write(final ByteBuf message)
    {
        lastWriteNs = System.nanoTime();
        ctx.writeAndFlush(message, ctx.voidPromise());
    }

    /** A protocol error: the Error message, then the close; nothing of the offending frame was acted on. */
    private void fail(final ErrorCode code, final String message)
    {
        if (state == State.CLOSING)
        {
            return;
        }
        counters.errors.incrementAndGet();
        closeAfter(out.error(ctx.alloc(), lastProcessedSeq, code, message));
    }

    /**
     * Sends the session's last message and closes once it is written, or after a heartbeat interval whatever happened
     * to it (a peer that reads nothing must not keep the connection).
     */
    private void closeAfter(final ByteBuf last)
    {
        state = State.CLOSING;
        cancelTimers();
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(last).addListener(ChannelFutureListener.CLOSE);
        ctx.executor().schedule(() -> ctx.close(), context.heartbeatIntervalMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * A peer that does not read its answers: stop reading its requests until the answers drain, so the outbound buffer
     * stays bounded; its heartbeats then go unread and the silent-peer deadline ends the session.
     */
    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        if (state != State.CLOSING)
        {
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void cancelTimers()
    {
        if (loginDeadline != null)
        {
            loginDeadline.cancel(false);
        }
        if (ticker != null)
        {
            ticker.cancel(false);
        }
    }

    /** This session as GET /api/v1/bsl/sessions lists it (read from the HTTP lane's thread). */
    private Map<String, Object> describe()
    {
        final SessionLogin.Outcome who = identity;
        final Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("sessionId", entry.connectionId());
        fields.put("lane", BslTcpLane.NAME);
        fields.put("kind", who.kind() == LoginKind.WALLET ? "wallet" : "session-key");
        fields.put("account", who.account());
        if (who.kind() == LoginKind.SESSION_KEY)
        {
            fields.put("apiKeyId", who.apiKeyId());
        }
        fields.put("remote", remoteText);
        fields.put("resultMode", detailed ? "detailed" : "ack");
        fields.put("openedAtMs", openedAtMs);
        fields.put("lastProcessedSeq", lastProcessedSeq);
        // the session policy of spec 4.3: a session key's orders are swept when it closes (after the grace window)
        fields.put("cancelOnDisconnect", cancelOnDisconnect);
        if (cancelOnDisconnect)
        {
            fields.put("cancelOnDisconnectGraceMs", core.protection().settings().graceMs());
        }
        return fields;
    }
}
