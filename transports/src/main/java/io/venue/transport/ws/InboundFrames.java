package io.venue.transport.ws;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.util.Arrays;

/**
 * A connection's inbound frames, on its event loop: text messages aggregated from their fragments up to the inbound
 * limit and handed whole to the {@link WsConnection}; a ping answered with a pong (RFC 6455 5.5.2); a close echoed.
 * Every frame counts as activity for the idle timeout. A binary message closes 1003, a message over the limit 1009
 * (a single frame over it is caught by the decoder first, same close), a frame that breaks the RFC 1002, each after
 * an error frame.
 */
final class InboundFrames extends ChannelInboundHandlerAdapter
{
    private final int maxBytes;
    private final WsConnection connection;
    /** The message being aggregated (null: none), and its length so far. */
    private byte[] message;
    private int length;

    InboundFrames(final int maxBytes, final WsConnection connection)
    {
        this.maxBytes = maxBytes;
        this.connection = connection;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        try
        {
            if (msg instanceof WebSocketFrame frame && !connection.closing())
            {
                connection.activity();
                read(ctx, frame);
            }
        }
        finally
        {
            ReferenceCountUtil.release(msg);
        }
    }

    private void read(final ChannelHandlerContext ctx, final WebSocketFrame frame)
    {
        if (frame instanceof PingWebSocketFrame)
        {
            ctx.writeAndFlush(new PongWebSocketFrame(frame.content().retain()));
        }
        else if (frame instanceof PongWebSocketFrame)
        {
            return;
        }
        else if (frame instanceof CloseWebSocketFrame close)
        {
            connection.closedByClient(close.statusCode());
        }
        else if (frame instanceof BinaryWebSocketFrame ||
            frame instanceof ContinuationWebSocketFrame && message == null)
        {
            // a continuation outside a text message continues a binary one (the decoder checks the sequence)
            connection.fail(WsCloses.UNSUPPORTED_DATA, "BINARY_NOT_ACCEPTED",
                "binary messages are not accepted: send JSON text");
        }
        else if (frame instanceof TextWebSocketFrame || frame instanceof ContinuationWebSocketFrame)
        {
            append(frame.content());
            if (length > maxBytes)
            {
                message = null;
                tooBig();
            }
            else if (frame.isFinalFragment())
            {
                final byte[] whole = Arrays.copyOf(message, length);
                message = null;
                length = 0;
                connection.onMessage(whole);
            }
        }
    }

    private void append(final ByteBuf content)
    {
        final int more = content.readableBytes();
        if (message == null)
        {
            message = new byte[Math.min(maxBytes + 1, Math.max(256, more))];
            length = 0;
        }
        if (length + more > maxBytes)
        {
            // over the limit: nothing more is kept
            length += more;
            return;
        }
        if (length + more > message.length)
        {
            message = Arrays.copyOf(message, Math.min(maxBytes + 1, Math.max(length + more, message.length * 2)));
        }
        content.readBytes(message, length, more);
        length += more;
    }

    private void tooBig()
    {
        connection.fail(WsCloses.MESSAGE_TOO_BIG, "MESSAGE_TOO_BIG",
            "a message is at most " + maxBytes + " bytes");
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (cause instanceof CorruptedWebSocketFrameException corrupted && corrupted.closeStatus() != null)
        {
            final int code = corrupted.closeStatus().code();
            if (code == WsCloses.MESSAGE_TOO_BIG)
            {
                tooBig();
            }
            else if (code == WsCloses.INVALID_PAYLOAD)
            {
                connection.fail(WsCloses.INVALID_PAYLOAD, "BAD_JSON", "a text message is not valid UTF-8");
            }
            else
            {
                connection.fail(WsCloses.PROTOCOL_ERROR, "PROTOCOL_ERROR", "the frame breaks RFC 6455: " +
                    corrupted.getMessage());
            }
            return;
        }
        if (cause instanceof IOException)
        {
            // a reset connection: nothing can be written to it
            ctx.close();
            return;
        }
        // a failure of ours: this connection ends, the others go on
        connection.fail(WsCloses.INTERNAL_ERROR, "INTERNAL_ERROR", "the connection failed");
    }

    /** The client shut its side (the HTTP lane allows half-closed connections): nothing more will come. */
    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
    {
        if (event instanceof ChannelInputShutdownEvent)
        {
            ctx.close();
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        connection.closed();
        super.channelInactive(ctx);
    }
}
