package io.venue.transport.bsltcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.venue.bsltcp.sbe.ErrorCode;

import java.util.List;

/**
 * Cuts the byte stream into messages ({@link BslFraming}): emits each message's bytes (a retained slice), or one
 * {@link Fault} for a length out of bounds, after which the rest of the stream is skipped unread (the session answers
 * the fault and closes). A length is judged before its message is buffered, so a peer cannot make the lane hold more
 * than one maximum message.
 */
final class FrameDecoder extends ByteToMessageDecoder
{
    /** A framing error: the {@link ErrorCode} the session sends before it closes. */
    record Fault(ErrorCode code, String message)
    {
    }

    private final int maxMessageBytes;
    private boolean failed;

    FrameDecoder(final int maxMessageBytes)
    {
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        if (failed)
        {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < BslFraming.LENGTH_FIELD_BYTES)
        {
            return;
        }
        final long length = in.getUnsignedIntLE(in.readerIndex());
        if (length < BslFraming.MIN_MESSAGE_BYTES)
        {
            fail(in, out, new Fault(ErrorCode.FRAME_TOO_SHORT, "a frame's length is at least " +
                BslFraming.MIN_MESSAGE_BYTES + " (the message header), got " + length));
            return;
        }
        if (length > maxMessageBytes)
        {
            fail(in, out, new Fault(ErrorCode.FRAME_TOO_LONG, "a frame's length is at most " + maxMessageBytes +
                " (maxFrameBytes), got " + length));
            return;
        }
        if (in.readableBytes() < BslFraming.LENGTH_FIELD_BYTES + length)
        {
            return;
        }
        in.skipBytes(BslFraming.LENGTH_FIELD_BYTES);
        out.add(in.readRetainedSlice((int)length));
    }

    private void fail(final ByteBuf in, final List<Object> out, final Fault fault)
    {
        failed = true;
        in.skipBytes(in.readableBytes());
        out.add(fault);
    }
}
