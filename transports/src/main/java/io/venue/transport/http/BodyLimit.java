package io.venue.transport.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.venue.journal.sbe.RequestRejectReason;

/**
 * Whole requests up to the body limit. A request over it is not aggregated: its body is skipped as it arrives and,
 * instead of Netty's own 413 (written straight to the socket, ahead of earlier answers), an {@link Oversized} marker
 * goes to the {@link ApiHandler}, which answers 413 in its turn. The connection stays open when the client asked to
 * keep it (closing while the client still sends would lose the answer). A submit over the limit is journaled as a
 * refusal (BODY_TOO_LARGE), like every other submit refused before verification.
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

    private final HttpGateway.Context context;
    private final long connectionId;

    BodyLimit(final HttpGateway.Context context, final long connectionId)
    {
        super(context.maxBodyBytes);
        this.context = context;
        this.connectionId = connectionId;
    }

    @Override
    protected void handleOversizedMessage(final ChannelHandlerContext ctx, final HttpMessage oversized)
    {
        if (oversized instanceof HttpRequest request)
        {
            final String uri = request.uri();
            final String route = uri.startsWith(ApiHandler.SUBMIT) ? ApiHandler.SUBMIT :
                uri.startsWith(ApiHandler.ADMIN_ACTIONS) ? ApiHandler.ADMIN_ACTIONS : null;
            if (route != null)
            {
                ApiHandler.journal(context, connectionId, RequestRejectReason.BODY_TOO_LARGE,
                    "a body over " + context.maxBodyBytes + " bytes on " + route);
            }
            // a request whose whole body was already read cannot be skipped on: the connection closes after the answer
            ctx.fireChannelRead(new Oversized(request, HttpUtil.isKeepAlive(request) && !(request instanceof FullHttpMessage)));
        }
        else
        {
            ctx.close();
        }
    }
}
