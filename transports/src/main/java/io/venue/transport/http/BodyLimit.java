package io.venue.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.venue.journal.sbe.RequestRejectReason;

/**
 * Whole requests up to the body limit; a submit over it is answered 413 by Netty (without reading the body) and
 * journaled as a refusal (BODY_TOO_LARGE), like every other submit refused before verification.
 */
final class BodyLimit extends HttpObjectAggregator
{
    private final HttpGateway.Context context;
    private final long connectionId;

    BodyLimit(final HttpGateway.Context context, final long connectionId)
    {
        super(context.maxBodyBytes);
        this.context = context;
        this.connectionId = connectionId;
    }

    @Override
    protected void handleOversizedMessage(final ChannelHandlerContext ctx, final HttpMessage oversized) throws Exception
    {
        if (oversized instanceof HttpRequest request && request.uri().startsWith(ApiHandler.SUBMIT))
        {
            ApiHandler.journal(context, connectionId, RequestRejectReason.BODY_TOO_LARGE,
                "a body over " + context.maxBodyBytes + " bytes on " + ApiHandler.SUBMIT);
        }
        super.handleOversizedMessage(ctx, oversized);
    }
}
