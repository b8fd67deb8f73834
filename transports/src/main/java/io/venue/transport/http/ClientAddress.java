package io.venue.transport.http;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The client's address of a connection, the one every per-address rule of the lane uses (the edge throttle, the
 * connection caps, the private-read throttle, metrics.allow): the one a trusted proxy named in its PROXY header
 * ({@link ProxyHeaderHandler}), or else the connection's remote address.
 */
final class ClientAddress
{
    static final AttributeKey<InetAddress> PROXIED = AttributeKey.valueOf("venue.http.client");

    private ClientAddress()
    {
    }

    static InetAddress of(final Channel channel)
    {
        final InetAddress proxied = channel.attr(PROXIED).get();
        return proxied != null ? proxied : ((InetSocketAddress)channel.remoteAddress()).getAddress();
    }
}
