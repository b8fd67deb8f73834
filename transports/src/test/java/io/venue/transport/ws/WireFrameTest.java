package io.venue.transport.ws;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.venue.feed.FeedFrame;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A feed frame's wire bytes, made once, are the server text frame a client's decoder (Netty's, as a client reads a
 * server: unmasked) reads back as the frame's text, at every length form (7-bit, 16-bit, 64-bit); every channel's copy
 * reads the same bytes, and a channel's release leaves the shared bytes readable.
 */
class WireFrameTest
{
    @Property(tries = 300)
    void aClientsDecoderReadsTheFramesText(@ForAll @IntRange(min = 0, max = 70_000) final int length)
    {
        final byte[] json = new byte[length];
        Arrays.fill(json, (byte)'x');
        assertEquals(new String(json, StandardCharsets.US_ASCII), decode(WireFrame.encode(json)));
    }

    @Test
    void eachLengthFormAtItsEdges()
    {
        for (final int length : new int[] {0, 1, 125, 126, 127, 65_535, 65_536, 65_537})
        {
            final byte[] json = new byte[length];
            Arrays.fill(json, (byte)'a');
            final ByteBuf wire = WireFrame.encode(json);
            assertEquals(length + (length < 126 ? 2 : length <= 0xFFFF ? 4 : 10), wire.readableBytes());
            assertEquals(0x81, wire.getUnsignedByte(0), "FIN and the text opcode");
            assertEquals(0, wire.getUnsignedByte(1) & 0x80, "a server's frame is not masked");
            assertEquals(new String(json, StandardCharsets.US_ASCII), decode(wire));
        }
    }

    @Test
    void madeOnceAndSharedByEveryChannelWithoutBeingReleased()
    {
        final FeedFrame frame = new FeedFrame("book.1", 7, false,
            "{\"ch\":\"book.1\",\"seq\":7}".getBytes(StandardCharsets.UTF_8));
        final ByteBuf wire = WireFrame.of(frame);
        assertSame(wire, WireFrame.of(frame), "encoded once, kept with the frame");
        for (int channel = 0; channel < 3; channel++)
        {
            final ByteBuf mine = WireFrame.forChannel(wire);
            assertEquals("{\"ch\":\"book.1\",\"seq\":7}", decode(mine)); // the decoder reads it and releases it
            assertTrue(wire.refCnt() > 0 && wire.readableBytes() == mine.capacity(),
                "the shared bytes are untouched by a channel's read and release");
        }
        assertEquals(0, wire.readerIndex());
        assertTrue(wire.isDirect(), "written from direct memory, without a copy into it per connection");
    }

    /** Reads the bytes as a client reads a server's frames; releases what it was given, as a channel does. */
    private static String decode(final ByteBuf bytes)
    {
        final EmbeddedChannel client = new EmbeddedChannel(new WebSocket13FrameDecoder(WebSocketDecoderConfig
            .newBuilder().expectMaskedFrames(false).maxFramePayloadLength(1 << 20).build()));
        assertTrue(client.writeInbound(bytes));
        final TextWebSocketFrame frame = client.readInbound();
        try
        {
            return frame.text();
        }
        finally
        {
            frame.release();
            client.finishAndReleaseAll();
        }
    }
}
