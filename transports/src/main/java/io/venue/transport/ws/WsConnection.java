package io.venue.transport.ws;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.venue.codec.JsonWriter;
import io.venue.entry.credential.WsTokens;
import io.venue.feed.Feed;
import io.venue.feed.FeedFrame;
import io.venue.feed.FeedSubscriber;
import io.venue.transport.http.JsonReader;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One WebSocket connection's session: the session frame, the auth of a private stream, the control messages checked
 * against the limits and passed to the {@link Feed}, and the feed's answers and frames queued back through the
 * {@link OutboundQueue}. Client messages arrive on the event loop ({@link InboundFrames}); the feed calls
 * {@link #onFrame} and {@link #onAnswer} on its own thread (and a resend's frames on its resends thread), which only
 * counts the bytes and hands the write to the event loop, so the feed never waits for a client. The timers are in
 * {@link WsTimers}.
 */
final class WsConnection implements FeedSubscriber
{
    /** A close frame that cannot be written (the client stopped reading) does not keep the connection. */
    static final long CLOSE_LINGER_MS = 1_000;
    /** How often, and how many times, a close is told again to a feed that was too busy to take it. */
    private static final long REMOVE_RETRY_MS = 50;
    private static final int REMOVE_RETRIES = 1_200;

    private final WsGateway.Context context;
    private final Channel channel;
    private final long connectionId;
    private final boolean privateStream;
    /** Writes from the feed's thread waiting for the event loop, and whether a loop task will take them. */
    private final Queue<Object> fromFeed = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Whether the feed tells the end of each batch ({@link Feed#endsBatches}): the frames then wait for it. */
    private final boolean feedEndsBatches;
    /** Frames queued since the last batch end, whose drain is not scheduled yet (the feed's and a resend's thread). */
    private final AtomicBoolean unannounced = new AtomicBoolean();
    private final Runnable drainFromFeed = this::drainFromFeed;
    private final OutboundQueue outbound;
    private final Subscriptions subscriptions;
    private final ControlWindow controls;
    private final WsTimers timers;
    /** Set on the event loop; read by the feed's thread to drop what comes after. */
    private volatile boolean closing;
    /** Set by the feed's thread when a frame would pass the hard cap. */
    private final AtomicBoolean overHardCap = new AtomicBoolean();
    /** The authenticated token's claims (private streams), null before. */
    private WsTokens.Claims claims;

    WsConnection(final WsGateway.Context context, final Channel channel, final long connectionId,
        final boolean privateStream)
    {
        this.context = context;
        this.channel = channel;
        this.connectionId = connectionId;
        this.privateStream = privateStream;
        this.outbound = new OutboundQueue(channel, context.slowConsumerBytes, context.hardCapBytes, context.counters);
        this.subscriptions = new Subscriptions(context.maxSubscriptions, privateStream ? 0 : context.publicMaxMarkets);
        this.controls = new ControlWindow(context.maxControlMessages,
            TimeUnit.MILLISECONDS.toNanos(context.controlWindowMs));
        this.timers = new WsTimers(context, this);
        this.feedEndsBatches = context.feed.endsBatches();
    }

    /** The connection is upgraded: the session frame, then the timers. */
    void start()
    {
        context.counters.opened();
        outbound.writeOwn(new JsonWriter().field("type", "session").field("connectionId", Long.toString(connectionId))
            .field("endpoint", privateStream ? "private" : "public")
            .field("heartbeatMs", context.heartbeatMs).field("idleTimeoutMs", context.idleTimeoutMs)
            .field("authDeadlineMs", context.authDeadlineMs)
            .field("maxSubscriptionsPerConnection", context.maxSubscriptions)
            .field("publicMaxMarketsPerConnection", context.publicMaxMarkets)
            .field("maxControlMessagesPerWindow", context.maxControlMessages)
            .field("controlMessageWindowMs", context.controlWindowMs)
            .field("maxInboundBytes", context.maxInboundBytes)
            .field("slowConsumerBytes", context.slowConsumerBytes)
            .field("slowConsumerGraceMs", context.slowConsumerGraceMs)
            .field("serverTime", System.currentTimeMillis()).toJson());
        timers.start(channel.eventLoop());
    }

    boolean closing()
    {
        return closing;
    }

    boolean privateStream()
    {
        return privateStream;
    }

    boolean authenticated()
    {
        return claims != null;
    }

    void activity()
    {
        timers.activity();
    }

    OutboundQueue outbound()
    {
        return outbound;
    }

    /** One whole client message, on the event loop. */
    void onMessage(final byte[] text)
    {
        context.counters.messageIn();
        if (!controls.admit(System.nanoTime()))
        {
            limit("over " + context.maxControlMessages + " messages in " + context.controlWindowMs + " ms");
            return;
        }
        final ControlParser.Control control;
        try
        {
            control = ControlParser.parse(text, context.maxSubscriptions);
        }
        catch (final ControlParser.BadControl bad)
        {
            if (privateStream && claims == null)
            {
                authFailed(bad.id, bad.code, "the first message must be a valid auth: " + bad.getMessage());
                return;
            }
            error(bad.id, bad.code, bad.getMessage());
            return;
        }
        if (privateStream && claims == null && control.method() != ControlParser.Method.AUTH)
        {
            authFailed(control.id(), "AUTH_REQUIRED", "the first message must be {\"method\":\"auth\",...}");
            return;
        }
        switch (control.method())
        {
            case AUTH -> auth(control);
            case SUBSCRIBE -> subscribe(control);
            case UNSUBSCRIBE -> unsubscribe(control);
            case RESEND -> resend(control);
            case PING -> outbound.writeOwn(new JsonWriter().field("type", "pong").field("id", control.id())
                .field("serverTime", System.currentTimeMillis()).toJson());
            default -> throw new IllegalStateException("unhandled " + control.method());
        }
    }

    private void auth(final ControlParser.Control control)
    {
        if (!privateStream)
        {
            error(control.id(), "BAD_REQUEST", "auth is for " + WsGateway.PRIVATE_PATH);
            return;
        }
        if (claims != null)
        {
            error(control.id(), "ALREADY_AUTHENTICATED", "this connection is authenticated already");
            return;
        }
        final long now = System.currentTimeMillis();
        final WsTokens.Claims verified = context.tokens.verify(control.token(), now);
        if (verified == null)
        {
            authFailed(control.id(), "AUTH_FAILED", "the token is not valid or has expired");
            return;
        }
        if (!context.stillGranted.test(verified, now))
        {
            authFailed(control.id(), "AUTH_FAILED", "what obtained the token no longer holds");
            return;
        }
        claims = verified;
        timers.authenticated();
        outbound.writeOwn(new JsonWriter().field("type", "ack").field("id", control.id())
            .field("account", verified.account()).toJson());
    }

    private void subscribe(final ControlParser.Control control)
    {
        final String over = subscriptions.overLimit(control.channels());
        if (over != null)
        {
            limit(over);
            return;
        }
        if (!context.feed.subscribe(this, account(), control.id(), control.channels(), control.resume()))
        {
            feedBusy(control.id());
            return;
        }
        subscriptions.subscribed(control.id(), control.channels());
    }

    private void unsubscribe(final ControlParser.Control control)
    {
        if (!context.feed.unsubscribe(this, control.id(), control.channels()))
        {
            feedBusy(control.id());
            return;
        }
        subscriptions.unsubscribed(control.channels());
        for (final String name : control.channels())
        {
            outbound.forget(name);
        }
    }

    private void resend(final ControlParser.Control control)
    {
        if (!privateStream)
        {
            error(control.id(), "BAD_REQUEST", "resend is for private channels, on " + WsGateway.PRIVATE_PATH);
            return;
        }
        if (!context.feed.resend(this, account(), control.id(), control.channel(), control.fromSeq(),
            control.toSeq()))
        {
            feedBusy(control.id());
        }
    }

    private String account()
    {
        return claims == null ? null : claims.account();
    }

    /** Checks at each grant tick that the token's grant still holds; closes 4403 when it does not. */
    void checkGrant()
    {
        if (claims != null && !context.stillGranted.test(claims, System.currentTimeMillis()))
        {
            fail(WsCloses.GRANT_REVOKED, "GRANT_REVOKED",
                "the credential or wallet that obtained the token no longer holds");
        }
    }

    void heartbeat()
    {
        outbound.writeOwn(new JsonWriter().field("type", "heartbeat").field("serverTime", System.currentTimeMillis())
            .raw("lastSeq", outbound.lastSeqs()).toJson());
    }

    @Override
    public void onFrame(final FeedFrame frame)
    {
        if (closing)
        {
            return;
        }
        if (!outbound.reserve(frame.json().length))
        {
            overHardCap();
            return;
        }
        // encoded here, on the feed's thread, by the frame's first subscriber only: the others share the bytes
        WireFrame.of(frame);
        if (!feedEndsBatches)
        {
            fromFeed(frame);
            return;
        }
        // held until the batch's end: the event loop then writes the batch's frames with one write and one flush
        fromFeed.add(frame);
        unannounced.set(true);
    }

    @Override
    public void onBatchEnd()
    {
        if (unannounced.get() && unannounced.getAndSet(false) && drainScheduled.compareAndSet(false, true))
        {
            onLoop(drainFromFeed);
        }
    }

    @Override
    public void onAnswer(final byte[] json)
    {
        if (closing)
        {
            return;
        }
        if (!outbound.reserve(json.length))
        {
            overHardCap();
            return;
        }
        fromFeed(json);
    }

    /** An ack or an error of the feed's, on the event loop: what it tells the limits first, then written. */
    private void writeAnswer(final byte[] json)
    {
        if (subscriptions.awaitingAnswers())
        {
            answered(json);
        }
        if (!closing)
        {
            outbound.writeReserved(json);
        }
    }

    /** A refused subscribe's channels no longer count against the limits. */
    private void answered(final byte[] json)
    {
        try
        {
            if (JsonReader.read(json) instanceof Map<?, ?> answer && answer.get("id") instanceof Long id)
            {
                subscriptions.answered(id, "error".equals(answer.get("type")));
            }
        }
        catch (final JsonReader.JsonException ex)
        {
            // not the feed's JSON: nothing to learn from it; it is still written
        }
    }

    /**
     * What the feed's thread hands to the event loop, in order (a {@link FeedFrame}, or an answer's bytes): one task of
     * the loop takes everything queued by then and flushes it together, so a burst of frames costs one wake-up and one
     * flush, not one of each per frame, and no task is made per frame.
     */
    private void fromFeed(final Object frameOrAnswer)
    {
        fromFeed.add(frameOrAnswer);
        if (drainScheduled.compareAndSet(false, true))
        {
            onLoop(drainFromFeed);
        }
    }

    private void drainFromFeed()
    {
        drainScheduled.set(false);
        outbound.beginBatch();
        try
        {
            Object item;
            while ((item = fromFeed.poll()) != null)
            {
                if (item instanceof FeedFrame frame)
                {
                    if (!closing)
                    {
                        outbound.writeFrame(frame);
                    }
                }
                else
                {
                    writeAnswer((byte[])item);
                }
            }
        }
        finally
        {
            outbound.endBatch();
        }
    }

    private void onLoop(final Runnable task)
    {
        try
        {
            channel.eventLoop().execute(task);
        }
        catch (final RejectedExecutionException shutDown)
        {
            // the gateway is closing: the connection goes with it
        }
    }

    /** On the feed's thread: the close is handed to the event loop once, whatever more the feed sends meanwhile. */
    private void overHardCap()
    {
        if (overHardCap.compareAndSet(false, true))
        {
            onLoop(() -> fail(WsCloses.SLOW_CONSUMER, "SLOW_CONSUMER",
                "over " + context.hardCapBytes + " bytes queued and not read"));
        }
    }

    /** Called by the timers: still over the mark after the grace. */
    void slowConsumer()
    {
        fail(WsCloses.SLOW_CONSUMER, "SLOW_CONSUMER", "over " + context.slowConsumerBytes +
            " bytes queued for " + context.slowConsumerGraceMs + " ms");
    }

    void authTimeout()
    {
        authFailed(null, "AUTH_TIMEOUT", "no auth message within " + context.authDeadlineMs + " ms");
    }

    void idle()
    {
        fail(WsCloses.IDLE_TIMEOUT, "IDLE_TIMEOUT", "nothing received for " + context.idleTimeoutMs + " ms");
    }

    private void limit(final String why)
    {
        fail(WsCloses.LIMIT_EXCEEDED, "LIMIT_EXCEEDED", why);
    }

    private void authFailed(final Long id, final String code, final String message)
    {
        context.counters.authFailure();
        fail(WsCloses.AUTH_FAILED, code, message, id);
    }

    private void feedBusy(final long id)
    {
        error(id, "FEED_BUSY", "the feed is busy: nothing was changed; retry after a moment");
    }

    private void error(final Long id, final String code, final String message)
    {
        final JsonWriter error = new JsonWriter().field("type", "error");
        if (id == null)
        {
            error.raw("id", "null");
        }
        else
        {
            error.field("id", id);
        }
        outbound.writeOwn(error.field("code", code).field("message", message).toJson());
    }

    void fail(final int code, final String errorCode, final String message)
    {
        fail(code, errorCode, message, null);
    }

    /**
     * An error frame, then the close with {@code code} and the error code as its reason; the connection closes when
     * the close frame is written or after a second, whichever is first. A slow consumer is closed at once: its close
     * frame would wait behind everything it has not read.
     */
    private void fail(final int code, final String errorCode, final String message, final Long id)
    {
        if (closing)
        {
            return;
        }
        closing = true;
        context.counters.closedWith(code);
        error(id, errorCode, message);
        final CloseWebSocketFrame close = new CloseWebSocketFrame(code, errorCode);
        if (code == WsCloses.SLOW_CONSUMER)
        {
            channel.writeAndFlush(close);
            channel.close();
            return;
        }
        // only our side is shut once the close is written: a client still sending does not get a reset that would
        // discard the close frame before it reads it; what it sends meanwhile is dropped
        channel.writeAndFlush(close).addListener(written ->
        {
            if (written.isSuccess() && channel instanceof DuplexChannel duplex)
            {
                duplex.shutdownOutput();
            }
            else
            {
                channel.close();
            }
        });
        channel.eventLoop().schedule(() -> channel.close(), CLOSE_LINGER_MS, TimeUnit.MILLISECONDS);
    }

    /** The node is stopping: an error frame and close 1001, from any thread. */
    void goingAway()
    {
        onLoop(() -> fail(WsCloses.GOING_AWAY, "GOING_AWAY", "the node is stopping; connect again"));
    }

    /** The client's close: echoed with its code (RFC 6455 5.5.1), then the connection closes. */
    void closedByClient(final int code)
    {
        if (closing)
        {
            channel.close();
            return;
        }
        closing = true;
        final CloseWebSocketFrame echo = code < 0 ? new CloseWebSocketFrame() :
            new CloseWebSocketFrame(WebSocketCloseStatus.isValidStatusCode(code) ? code : WsCloses.NORMAL, null);
        channel.writeAndFlush(echo).addListener(ChannelFutureListener.CLOSE);
        channel.eventLoop().schedule(() -> channel.close(), CLOSE_LINGER_MS, TimeUnit.MILLISECONDS);
    }

    /** The channel is gone: the timers stop, the feed forgets the connection. */
    void closed()
    {
        closing = true;
        timers.stop();
        outbound.clear();
        context.counters.closedConnection();
        removeFromFeed(REMOVE_RETRIES);
    }

    private void removeFromFeed(final int triesLeft)
    {
        if (context.feed.remove(this) || triesLeft <= 1)
        {
            return;
        }
        try
        {
            channel.eventLoop().schedule(() -> removeFromFeed(triesLeft - 1), REMOVE_RETRY_MS, TimeUnit.MILLISECONDS);
        }
        catch (final RejectedExecutionException shutDown)
        {
            // the gateway is closing; so is the node's feed
        }
    }
}
