package io.venue.transport.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.venue.entry.EntrySession;

import java.net.InetSocketAddress;

/**
 * Whole requests up to the body limit. A request over it is not aggregated: its body is skipped as it arrives and,
 * instead of Netty's own 413 (written straight to the socket, ahead of earlier answers), an {@link Oversized} marker
 * goes to the {@link ApiHandler}, which answers 413 in its turn. The connection stays open when the client asked to
 * keep it (closing while the client still sends would lose the answer).
 * <p>
 * A write from an address the edge throttle has no token for (or, on the MM routes, whose failed authentications have
 * spent the MM lane's count) is found out at its head and goes the same way, marked {@link Oversized#refusedAtEdge}:
 * its body is skipped, never buffered, so a throttled address cannot make the lane hold up to the body limit per
 * connection before it is refused.
 */
final class BodyLimit extends HttpObjectAggregator
{
    /** Stands for a request whose body was over the limit, or skipped at the edge throttle; it carries no body. */
    static final class Oversized extends DefaultFullHttpRequest
    {
        final boolean keepAlive;
        /** Null: over the limit; otherwise the throttle whose exhausted bucket refused it at its head. */
        final Routes.HeadThrottle refusedAtEdge;

        Oversized(final HttpRequest request, final boolean keepAlive, final Routes.HeadThrottle refusedAtEdge)
        {
            super(request.protocolVersion(), request.method(), request.uri(), Unpooled.EMPTY_BUFFER);
            this.keepAlive = keepAlive;
            this.refusedAtEdge = refusedAtEdge;
        }
    }

    private final EntrySession session;
    /** The throttle that refused the head being handled (null: none). */
    private Routes.HeadThrottle refusedAtHead;

    BodyLimit(final HttpGateway.Context context, final EntrySession session)
    {
        super(context.maxBodyBytes);
        this.session = session;
    }

    /** The throttle with no token for this write's address, or null when its body may be read. */
    private Routes.HeadThrottle exhaustedAtHead(final HttpMessage start, final ChannelPipeline pipeline)
    {
        if (!(start instanceof HttpRequest request) || start instanceof FullHttpMessage ||
            !request.method().equals(HttpMethod.POST) ||
            !(pipeline.channel().remoteAddress() instanceof InetSocketAddress))
        {
            return null;
        }
        final String target = Routes.originForm(request.uri());
        final int query = target.indexOf('?');
        final Routes.HeadThrottle throttle = Routes.headThrottle(query < 0 ? target : target.substring(0, query));
        return throttle != Routes.HeadThrottle.NONE &&
            session.exhaustedAtEdge(ClientAddress.of(pipeline.channel()), throttle == Routes.HeadThrottle.MM) ?
            throttle : null;
    }

    @Override
    protected boolean isContentLengthInvalid(final HttpMessage start, final int maxContentLength)
    {
        refusedAtHead = exhaustedAtHead(start, ctx().pipeline());
        return refusedAtHead != null || super.isContentLengthInvalid(start, maxContentLength);
    }

    /**
     * Netty would write its own 413 or 417 straight to the socket, ahead of earlier pipelined answers and unjournaled:
     * a body announced over the limit goes the way of any oversized one (the handler's 413 in its turn), and an
     * expectation other than 100-continue is ignored, as RFC 9110 allows.
     */
    @Override
    protected Object newContinueResponse(final HttpMessage start, final int maxContentLength,
        final ChannelPipeline pipeline)
    {
        final boolean otherExpectation = start.headers().contains(HttpHeaderNames.EXPECT) &&
            !HttpUtil.is100ContinueExpected(start);
        if (otherExpectation || HttpUtil.getContentLength(start, -1L) > maxContentLength ||
            exhaustedAtHead(start, pipeline) != null)
        {
            return null;
        }
        return super.newContinueResponse(start, maxContentLength, pipeline);
    }

    @Override
    protected void handleOversizedMessage(final ChannelHandlerContext ctx, final HttpMessage oversized)
    {
        if (oversized instanceof HttpRequest request)
        {
            // the handler answers it in its turn: it passes the edge throttle there, and is journaled if it is a submit
            // a request whose whole body was already read cannot be skipped on: the connection closes after the answer
            final boolean keepAlive = HttpUtil.isKeepAlive(request) && !(request instanceof FullHttpMessage);
            ctx.fireChannelRead(new Oversized(request, keepAlive, refusedAtHead));
            refusedAtHead = null;
        }
        else
        {
            ctx.close();
        }
    }
}
