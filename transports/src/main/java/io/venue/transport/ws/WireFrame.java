package io.venue.transport.ws;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.venue.feed.FeedFrame;

import java.nio.ByteBuffer;

/**
 * A feed frame as a server's WebSocket text frame (RFC 6455 5.2: FIN, opcode 1, not masked, the payload's length),
 * header and payload together. A server's frame is the same bytes for every connection, so it is made once per feed
 * frame, on the feed's thread by its first subscriber, and kept with the frame ({@link FeedFrame#wire}); each
 * subscriber's channel is given a duplicate of it (its own read position over the same memory), so nothing is copied
 * or encoded per connection, and the socket writes it from direct memory as it is.
 * <p>
 * The memory is a JDK direct buffer, freed by the garbage collector once the feed frame is gone (it lives as long
 * as the frame: in a replay window, or until every subscriber has written it). Netty's reference count plays no part:
 * the shared buffer is never released, and what the channels get is {@link Unpooled#unreleasableBuffer unreleasable}.
 */
final class WireFrame
{
    private static final int FIN_TEXT = 0x81;

    private WireFrame()
    {
    }

    /** The frame's wire bytes, made on the first call (on the feed's thread) and kept with the frame. */
    static ByteBuf of(final FeedFrame frame)
    {
        if (frame.wire() instanceof ByteBuf wire)
        {
            return wire;
        }
        final ByteBuf wire = encode(frame.json());
        frame.wire(wire);
        return wire;
    }

    /** What one channel writes: the shared bytes under its own indexes, which the channel's release leaves alone. */
    static ByteBuf forChannel(final ByteBuf wire)
    {
        return Unpooled.unreleasableBuffer(wire.duplicate());
    }

    static ByteBuf encode(final byte[] payload)
    {
        final int length = payload.length;
        final int header = length < 126 ? 2 : length <= 0xFFFF ? 4 : 10;
        final ByteBuffer memory = ByteBuffer.allocateDirect(header + length);
        memory.put((byte)FIN_TEXT);
        if (length < 126)
        {
            memory.put((byte)length);
        }
        else if (length <= 0xFFFF)
        {
            memory.put((byte)126).putShort((short)length);
        }
        else
        {
            memory.put((byte)127).putLong(length);
        }
        memory.put(payload).flip();
        return Unpooled.wrappedBuffer(memory);
    }
}
