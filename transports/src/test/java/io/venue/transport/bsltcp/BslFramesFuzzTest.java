package io.venue.transport.bsltcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.venue.bsltcp.sbe.CancelOnDisconnectDecoder;
import io.venue.bsltcp.sbe.DeadManDecoder;
import io.venue.bsltcp.sbe.ErrorCode;
import io.venue.bsltcp.sbe.LoginDecoder;
import io.venue.bsltcp.sbe.LoginKind;
import io.venue.bsltcp.sbe.LogoutDecoder;
import io.venue.bsltcp.sbe.MessageHeaderDecoder;
import io.venue.bsltcp.sbe.OrdersDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lane's decoding of untrusted bytes, as a property: whatever a frame holds, {@link InboundCheck} either names a
 * documented error or passes a message that the SBE decoders read to exactly the frame's end, never past it (run with
 * Agrona's bounds checks off too: the check, not the buffer, must keep reads inside); and {@link FrameDecoder} cuts the
 * same messages from a stream whatever its chunks, or one fault for a length out of bounds, and nothing after it.
 */
class BslFramesFuzzTest
{
    private static final int MAX = 4096;

    private static List<byte[]> validMessages()
    {
        final List<byte[]> messages = new ArrayList<>();
        messages.add(unframed(ClientMessages.login(LoginKind.SESSION_KEY, true, (short)2, 7, 1_700_000_000_000L,
            new byte[20], new byte[65], "spk_0123456789abcdef", "spp_" + "0".repeat(32), "c2lnbmF0dXJl")));
        messages.add(unframed(ClientMessages.heartbeat()));
        messages.add(unframed(ClientMessages.orders(1, new byte[213])));
        messages.add(unframed(ClientMessages.logout("bye")));
        messages.add(unframed(ClientMessages.deadMan(9, 7, 30_000)));
        messages.add(unframed(ClientMessages.cancelOnDisconnect(10, -1, true)));
        return messages;
    }

    private static byte[] unframed(final byte[] frame)
    {
        final int length = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        assertEquals(frame.length - 4, length, "the length counts the message only");
        return Arrays.copyOfRange(frame, 4, frame.length);
    }

    @Test
    void everyValidMessagePassesWhole()
    {
        final InboundCheck check = new InboundCheck();
        for (final byte[] message : validMessages())
        {
            final int template = check.check(new UnsafeBuffer(message), 0, message.length);
            assertTrue(template > 0, check.message());
            assertEquals(message.length, decodedLength(message, template));
        }
    }

    @Test
    void mutatedTruncatedAndExtendedMessagesAreRefusedOrReadExactly()
    {
        final InboundCheck check = new InboundCheck();
        final Random random = new Random(26);
        int refused = 0;
        for (final byte[] valid : validMessages())
        {
            for (int round = 0; round < 20_000; round++)
            {
                final byte[] message = mutate(valid, random);
                // a copy in a larger buffer: a read past the message's end would find bytes, not an exception
                final byte[] padded = Arrays.copyOf(message, message.length + 64);
                Arrays.fill(padded, message.length, padded.length, (byte)0x7F);
                final int template = check.check(new UnsafeBuffer(padded), 0, message.length);
                if (template < 0)
                {
                    refused++;
                    assertNotNull(check.fault());
                    assertNotNull(check.message());
                    continue;
                }
                assertEquals(message.length, decodedLength(padded, template), "a passed message is read to its end");
            }
        }
        assertTrue(refused > 10_000, "the mutations mostly break the message: " + refused);
    }

    @Test
    void eachFaultIsTheDocumentedOne()
    {
        final InboundCheck check = new InboundCheck();
        final byte[] orders = validMessages().get(2);
        assertEquals(-1, check.check(new UnsafeBuffer(orders), 0, 7));
        assertEquals(ErrorCode.FRAME_TOO_SHORT, check.fault());
        final byte[] unknown = orders.clone();
        unknown[2] = 42;
        assertEquals(-1, check.check(new UnsafeBuffer(unknown), 0, unknown.length));
        assertEquals(ErrorCode.UNKNOWN_TEMPLATE, check.fault());
        final byte[] serverOnly = orders.clone();
        serverOnly[2] = 6;
        assertEquals(-1, check.check(new UnsafeBuffer(serverOnly), 0, serverOnly.length));
        assertEquals(ErrorCode.UNKNOWN_TEMPLATE, check.fault(), "OrderAnswers is the server's");
        final byte[] version = orders.clone();
        version[6] = 3;
        assertEquals(-1, check.check(new UnsafeBuffer(version), 0, version.length));
        assertEquals(ErrorCode.BAD_HEADER, check.fault());
        final byte[] block = orders.clone();
        block[0] = 9;
        assertEquals(-1, check.check(new UnsafeBuffer(block), 0, block.length));
        assertEquals(ErrorCode.BAD_HEADER, check.fault());
        assertEquals(-1, check.check(new UnsafeBuffer(orders), 0, orders.length - 1));
        assertEquals(ErrorCode.MALFORMED, check.fault());
        final byte[] longer = Arrays.copyOf(orders, orders.length + 1);
        assertEquals(-1, check.check(new UnsafeBuffer(longer), 0, longer.length));
        assertEquals(ErrorCode.BYTES_AFTER_MESSAGE, check.fault());
        // version 1's messages are taken as they are; the protections' exist from version 2
        final byte[] versionOne = orders.clone();
        versionOne[6] = 1;
        assertEquals(OrdersDecoder.TEMPLATE_ID, check.check(new UnsafeBuffer(versionOne), 0, versionOne.length));
        final byte[] deadMan = validMessages().get(4);
        assertEquals(DeadManDecoder.TEMPLATE_ID, check.check(new UnsafeBuffer(deadMan), 0, deadMan.length));
        deadMan[6] = 1;
        assertEquals(-1, check.check(new UnsafeBuffer(deadMan), 0, deadMan.length));
        assertEquals(ErrorCode.BAD_HEADER, check.fault(), "DeadMan is a version 2 message");
    }

    @Test
    void theProtectionMessagesCarryTheirFields()
    {
        final UnsafeBuffer deadMan = new UnsafeBuffer(validMessages().get(4));
        final DeadManDecoder d = new DeadManDecoder().wrapAndApplyHeader(deadMan, 0,
            new MessageHeaderDecoder().wrap(deadMan, 0));
        assertEquals(9, d.requestId());
        assertEquals(7, d.market());
        assertEquals(0, d.allMarkets());
        assertEquals(30_000, d.countdownMs());
        final UnsafeBuffer cod = new UnsafeBuffer(validMessages().get(5));
        final CancelOnDisconnectDecoder c = new CancelOnDisconnectDecoder().wrapAndApplyHeader(cod, 0,
            new MessageHeaderDecoder().wrap(cod, 0));
        assertEquals(10, c.requestId());
        assertEquals(1, c.allMarkets());
        assertEquals(1, c.armed());
    }

    @Test
    void theFrameDecoderCutsTheSameMessagesWhateverTheChunks()
    {
        final Random random = new Random(4);
        final List<byte[]> messages = validMessages();
        final ByteBuf stream = Unpooled.buffer();
        for (int i = 0; i < 200; i++)
        {
            final byte[] message = messages.get(random.nextInt(messages.size()));
            stream.writeIntLE(message.length).writeBytes(message);
        }
        final byte[] bytes = new byte[stream.readableBytes()];
        stream.readBytes(bytes);
        for (int round = 0; round < 20; round++)
        {
            final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
            int at = 0;
            while (at < bytes.length)
            {
                final int chunk = Math.min(bytes.length - at, 1 + random.nextInt(300));
                channel.writeInbound(Unpooled.wrappedBuffer(bytes, at, chunk));
                at += chunk;
            }
            final ByteBuf again = Unpooled.buffer();
            Object read;
            int count = 0;
            while ((read = channel.readInbound()) != null)
            {
                final ByteBuf message = assertInstanceOf(ByteBuf.class, read);
                again.writeIntLE(message.readableBytes()).writeBytes(message);
                message.release();
                count++;
            }
            assertEquals(200, count);
            final byte[] rebuilt = new byte[again.readableBytes()];
            again.readBytes(rebuilt);
            assertTrue(Arrays.equals(bytes, rebuilt), "the messages as sent, in order");
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void aLengthOutOfBoundsIsOneFaultAndTheRestIsSkipped()
    {
        for (final long length : new long[] {0, 7, MAX + 1, 0xFFFF_FFFFL})
        {
            final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
            final byte[] message = validMessages().get(1);
            final ByteBuf bytes = Unpooled.buffer().writeIntLE((int)length).writeBytes(new byte[20])
                .writeIntLE(message.length).writeBytes(message);
            channel.writeInbound(bytes);
            channel.writeInbound(Unpooled.buffer().writeIntLE(message.length).writeBytes(message));
            final FrameDecoder.Fault fault = assertInstanceOf(FrameDecoder.Fault.class, channel.readInbound());
            assertEquals(length < BslFraming.MIN_MESSAGE_BYTES ? ErrorCode.FRAME_TOO_SHORT : ErrorCode.FRAME_TOO_LONG,
                fault.code(), fault.message());
            assertNull(channel.readInbound(), "nothing after the fault is read");
            channel.finishAndReleaseAll();
        }
    }

    private static byte[] mutate(final byte[] valid, final Random random)
    {
        return switch (random.nextInt(5))
        {
            case 0 -> Arrays.copyOf(valid, random.nextInt(valid.length + 1));
            case 1 ->
            {
                final byte[] longer = Arrays.copyOf(valid, valid.length + 1 + random.nextInt(16));
                for (int i = valid.length; i < longer.length; i++)
                {
                    longer[i] = (byte)random.nextInt();
                }
                yield longer;
            }
            case 2 ->
            {
                final byte[] flipped = valid.clone();
                for (int i = 0, n = 1 + random.nextInt(4); i < n; i++)
                {
                    flipped[random.nextInt(flipped.length)] = (byte)random.nextInt();
                }
                yield flipped;
            }
            case 3 ->
            {
                // the header and the var lengths are where a decoder is led astray
                final byte[] header = valid.clone();
                header[random.nextInt(Math.min(header.length, 24))] = (byte)random.nextInt();
                yield header;
            }
            default ->
            {
                final byte[] noise = new byte[random.nextInt(64)];
                random.nextBytes(noise);
                yield noise;
            }
        };
    }

    /** How far the SBE decoders read the passed message of {@code template}. */
    private static int decodedLength(final byte[] bytes, final int template)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, 0);
        return switch (template)
        {
            case LoginDecoder.TEMPLATE_ID ->
            {
                final LoginDecoder login = new LoginDecoder().wrapAndApplyHeader(buffer, 0, header);
                login.apiKeyId();
                login.passphrase();
                login.svcSignature();
                yield login.limit();
            }
            case OrdersDecoder.TEMPLATE_ID ->
            {
                final OrdersDecoder orders = new OrdersDecoder().wrapAndApplyHeader(buffer, 0, header);
                final byte[] body = new byte[orders.bodyLength()];
                orders.getBody(body, 0, body.length);
                yield orders.limit();
            }
            case LogoutDecoder.TEMPLATE_ID ->
            {
                final LogoutDecoder logout = new LogoutDecoder().wrapAndApplyHeader(buffer, 0, header);
                logout.reason();
                yield logout.limit();
            }
            default -> MessageHeaderDecoder.ENCODED_LENGTH + header.blockLength();
        };
    }
}
