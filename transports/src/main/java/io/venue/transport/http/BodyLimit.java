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

/**
 * Whole requests up to the body limit. A request over it is not aggregated: its body is skipped as it arrives and,
 * instead of Netty's own 413 (written straight to the socket, ahead of earlier answers), an {@link Oversized} marker
 * goes to the {@link ApiHandler}, which answers 413 in its turn. The connection stays open when the client asked to
 * keep it (closing while the client still sends would lose the answer).
 */
final class BodyLimit extends HttpObjectAggregator
{
    /** Stands for a request whose body was over the limit; it carries no body. */
    static final class Oversized extends DefaultFullHttpRequest
    {
        final boolean keepAlive;

        Oversized(final HttpRequest request, final boolean keepAlive)
        {
            super(request.protocolVersion(), request.method(), request.uri(), Unpooled.EMPTY_BUFFER);
            this.keepAlive = keepAlive;
        }
    }

    BodyLimit(final HttpGateway.Context context)
    {
        super(context.maxBodyBytes);
    }

    /**
     * Netty would write its own 413 or 417 straight to the socket, ahead of earlier pipelined answers and unjournaled:
     * a body announced over the limit goes the way of any oversized one (the handler's 413 in its turn), and an
     * expectation other than 100-continue is ignored, as RFC 9110 allows.
     */
    @Override
    protected Object newContinueResponse(final HttpMessage start, final int maxContentLength, final ChannelPipeline pipeline)
    {
        final boolean otherExpectation = start.headers().contains(HttpHeaderNames.EXPECT) &&
            !HttpUtil.is100ContinueExpected(start);
        if (otherExpectation || HttpUtil.getContentLength(start, -1L) > maxContentLength)
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
            ctx.fireChannelRead(new Oversized(request, HttpUtil.isKeepAlive(request) && !(request instanceof FullHttpMessage)));
        }
        else
        {
            ctx.close();
        }
    }
}
