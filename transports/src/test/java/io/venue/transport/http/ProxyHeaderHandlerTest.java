package io.venue.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.venue.transport.proxy.ProxyV2Header;
import io.venue.transport.proxy.ProxyV2HeaderTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PROXY v2 handler in a channel: from a trusted proxy a header names the client and the bytes after it go on
 * whole, however the reads split them; a malformed one closes; random and mutated bytes never throw out of the handler
 * and never set an address the bytes do not name. From any other peer a PROXY signature closes, anything else passes.
 */
class ProxyHeaderHandlerTest
{
    private static final byte[] REQUEST = "GET /api/v1/public/exchange-info HTTP/1.1\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII);

    /** A channel from a peer at 10.0.0.1, the handler in front of a sink of what it passes on. */
    private static final class Peer extends EmbeddedChannel
    {
        final ByteArrayOutputStream passed = new ByteArrayOutputStream();

        Peer(final boolean trusted)
        {
            super();
            final ChannelInboundHandlerAdapter sink = new ChannelInboundHandlerAdapter()
            {
                @Override
                public void channelRead(final ChannelHandlerContext ctx, final Object msg)
                {
                    final ByteBuf bytes = (ByteBuf)msg;
                    passed.writeBytes(ByteBufUtil.getBytes(bytes));
                    bytes.release();
                }
            };
            pipeline().addLast(new ProxyHeaderHandler(trusted, (ctx, client) -> true), sink);
        }

        @Override
        protected SocketAddress remoteAddress0()
        {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_000);
        }

        /** Writes {@code bytes} in random pieces, as reads would split them. */
        void feed(final byte[] bytes, final Random random)
        {
            for (int at = 0; at < bytes.length && isOpen(); )
            {
                final int piece = 1 + random.nextInt(bytes.length - at);
                writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, at, at + piece)));
                at += piece;
            }
            checkException();
        }
    }

    @Test
    void aTrustedProxysHeaderNamesTheClientAndTheRestPassesWhole() throws Exception
    {
        final Random random = new Random(5);
        for (int i = 0; i < 500; i++)
        {
            final InetAddress client = InetAddress.getByName(i % 2 == 0 ? "203.0.113.7" : "2001:db8::7");
            final Peer peer = new Peer(true);
            peer.feed(concat(ProxyV2HeaderTest.header(client, 5555, random.nextInt(20)), REQUEST), random);
            assertEquals(client, ClientAddress.of(peer));
            assertArrayEquals(REQUEST, peer.passed.toByteArray());
            assertTrue(peer.isOpen());
        }
        final Peer local = new Peer(true);
        local.feed(concat(ProxyV2HeaderTest.local(), REQUEST), random);
        assertEquals(InetAddress.getLoopbackAddress(), ClientAddress.of(local), "LOCAL: the proxy's own address");
        assertArrayEquals(REQUEST, local.passed.toByteArray());
    }

    @Test
    void aTrustedPeerWithoutAHeaderIsClosed()
    {
        final Peer peer = new Peer(true);
        peer.feed(REQUEST, new Random(1));
        assertFalse(peer.isOpen());
        assertEquals(0, peer.passed.size());
        assertNull(peer.attr(ClientAddress.PROXIED).get());
    }

    @Test
    void randomAndMutatedHeadersNeverThrowAndAreClosedOrNamedAsTheirBytesSay() throws Exception
    {
        final Random random = new Random(23);
        final ProxyV2Header reference = new ProxyV2Header();
        for (int i = 0; i < 5_000; i++)
        {
            final byte[] head = ProxyV2HeaderTest.header(InetAddress.getByName("203.0.113.7"), 1, random.nextInt(4));
            if (i % 5 == 0)
            {
                random.nextBytes(head);
            }
            head[random.nextInt(head.length)] = (byte)random.nextInt(256);
            final Peer peer = new Peer(true);
            final byte[] bytes = concat(head, REQUEST);
            peer.feed(bytes, random);
            final int length = reference.parse(bytes, 0, bytes.length);
            if (length > 0)
            {
                assertEquals(reference.local() ? InetAddress.getLoopbackAddress() : reference.sourceAddress(),
                    ClientAddress.of(peer), "case " + i);
                assertArrayEquals(Arrays.copyOfRange(bytes, length, bytes.length), peer.passed.toByteArray());
            }
            else
            {
                assertNull(peer.attr(ClientAddress.PROXIED).get(), "case " + i);
                assertEquals(0, peer.passed.size());
                assertTrue(length == ProxyV2Header.MALFORMED ? !peer.isOpen() : peer.isOpen(), "case " + i);
            }
            peer.finishAndReleaseAll();
        }
    }

    @Test
    void fromAnUntrustedPeerAProxyHeaderClosesAndAnythingElsePasses() throws Exception
    {
        final Random random = new Random(9);
        final Peer spoofing = new Peer(false);
        spoofing.feed(concat(ProxyV2HeaderTest.header(InetAddress.getByName("203.0.113.7"), 1, 0), REQUEST), random);
        assertFalse(spoofing.isOpen());
        assertEquals(0, spoofing.passed.size());
        for (int i = 0; i < 1_000; i++)
        {
            final byte[] bytes = i % 2 == 0 ? REQUEST : new byte[1 + random.nextInt(40)];
            if (i % 2 == 1)
            {
                random.nextBytes(bytes);
                bytes[0] = bytes[0] == 0x0D ? 0x0E : bytes[0];
            }
            final Peer client = new Peer(false);
            client.feed(bytes, random);
            assertArrayEquals(bytes, client.passed.toByteArray());
            assertTrue(client.isOpen());
            assertEquals(InetAddress.getLoopbackAddress(), ClientAddress.of(client));
        }
    }

    private static byte[] concat(final byte[] first, final byte[] second)
    {
        final byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
