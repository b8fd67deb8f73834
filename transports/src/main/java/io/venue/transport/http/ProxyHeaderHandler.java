package io.venue.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.venue.transport.proxy.ProxyV2Header;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.BiPredicate;

/**
 * The PROXY v2 header at the start of a connection, first in the pipeline after the raw read deadline (so a header that
 * never ends is closed by the header deadline). From a trusted proxy ({@code http.trusted.proxies}) the header must
 * come: the client it names becomes the connection's {@link ClientAddress}, the connection caps admit it by that
 * address, and the bytes after it go on to TLS or HTTP; a missing or malformed header closes the connection. From any
 * other peer the handler only looks at the first 12 bytes: a PROXY v2 signature closes the connection (a client may
 * not name itself another), anything else passes on untouched. Removes itself once decided.
 */
final class ProxyHeaderHandler extends ChannelInboundHandlerAdapter
{
    /** Admits a connection by its client's address (the caps); false: refused and closing. */
    private final BiPredicate<ChannelHandlerContext, InetAddress> admit;
    private final boolean trusted;
    private final ProxyV2Header header = new ProxyV2Header();
    private final byte[] held;
    private int heldLength;

    ProxyHeaderHandler(final boolean trusted, final BiPredicate<ChannelHandlerContext, InetAddress> admit)
    {
        this.trusted = trusted;
        this.admit = admit;
        this.held = new byte[trusted ? ProxyV2Header.MAX_LENGTH : ProxyV2Header.SIGNATURE_LENGTH];
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (!(msg instanceof ByteBuf bytes))
        {
            ctx.fireChannelRead(msg);
            return;
        }
        try
        {
            final int take = Math.min(bytes.readableBytes(), held.length - heldLength);
            bytes.readBytes(held, heldLength, take);
            heldLength += take;
            if (trusted)
            {
                fromProxy(ctx, bytes);
            }
            else
            {
                fromClient(ctx, bytes);
            }
        }
        catch (final RuntimeException ex)
        {
            // whatever the bytes, nothing leaves this handler but a close
            bytes.release();
            ctx.close();
        }
    }

    private void fromProxy(final ChannelHandlerContext ctx, final ByteBuf rest)
    {
        final int length = header.parse(held, 0, heldLength);
        if (length == ProxyV2Header.NEED_MORE)
        {
            rest.release();
            return;
        }
        if (length == ProxyV2Header.MALFORMED)
        {
            rest.release();
            ctx.close();
            return;
        }
        final InetAddress client = header.local() ?
            ((InetSocketAddress)ctx.channel().remoteAddress()).getAddress() : header.sourceAddress();
        ctx.channel().attr(ClientAddress.PROXIED).set(client);
        if (!admit.test(ctx, client))
        {
            rest.release();
            return;
        }
        passOn(ctx, length, rest);
    }

    private void fromClient(final ChannelHandlerContext ctx, final ByteBuf rest)
    {
        if (!ProxyV2Header.signaturePrefix(held, 0, heldLength))
        {
            passOn(ctx, 0, rest);
            return;
        }
        rest.release();
        if (heldLength == held.length)
        {
            // a PROXY header from a peer that is no trusted proxy: it may not choose the address it is counted by
            ctx.close();
        }
    }

    /** Hands on what follows the header (held bytes from {@code from}, then the rest of the read) and steps aside. */
    private void passOn(final ChannelHandlerContext ctx, final int from, final ByteBuf rest)
    {
        ctx.pipeline().remove(this);
        final ByteBuf after = Unpooled.wrappedBuffer(Unpooled.copiedBuffer(held, from, heldLength - from), rest);
        if (after.isReadable())
        {
            ctx.fireChannelRead(after);
        }
        else
        {
            after.release();
        }
    }
}
