package io.venue.transport.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundInvoker;
import io.venue.entry.admission.EdgeThrottle;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The HTTP lane's connection caps, checked when a connection is accepted: at most {@code perAddress} open at once from
 * one remote address (an IPv6 address by its /64, as the edge throttle counts) and {@code total} open at once on the
 * lane. A connection over a cap is refused before any handler is built for it: a 503 written as ready-made bytes, then
 * closed. The exempt addresses (edge.ip.exempt: a colocated gateway, a load generator) are never refused; they still
 * count toward the total, so the total bounds the tracked addresses too (the table holds only addresses with a
 * connection open, each at most once).
 */
final class ConnectionLimits
{
    private static final byte[] OVER_ADDRESS = refusal("too many connections from this address are open; close one " +
        "or retry after the delay");
    private static final byte[] OVER_TOTAL = refusal("the gateway holds as many connections as it takes; retry after " +
        "the delay");

    private final int perAddress;
    private final int total;
    private final Set<InetAddress> exempt;
    private final LaneCounters counters;
    private final ConcurrentHashMap<InetAddress, Integer> byAddress = new ConcurrentHashMap<>();
    /** Refusals and deadline closes since the last report, for the log line at most once a second. */
    private final AtomicLong refusedAddress = new AtomicLong();
    private final AtomicLong refusedTotal = new AtomicLong();

    ConnectionLimits(final int perAddress, final int total, final Set<InetAddress> exempt, final LaneCounters counters)
    {
        this.perAddress = perAddress;
        this.total = total;
        this.exempt = Set.copyOf(exempt);
        this.counters = counters;
    }

    /**
     * Counts a new connection, or refuses it (503, then closed) when it is over a cap. The count is given back when the
     * connection closes. The refusal is written by {@code writer}: the channel, or a handler's context ahead of TLS.
     *
     * @return whether the connection was admitted.
     */
    boolean admit(final Channel channel, final ChannelOutboundInvoker writer, final InetAddress remote)
    {
        final boolean exempted = exempt.contains(remote);
        if (counters.openConnections.incrementAndGet() > total && !exempted)
        {
            counters.openConnections.decrementAndGet();
            refuse(writer, OVER_TOTAL, false);
            return false;
        }
        if (exempted)
        {
            channel.closeFuture().addListener(closed -> counters.openConnections.decrementAndGet());
            return true;
        }
        final InetAddress key = EdgeThrottle.key(remote);
        final boolean[] over = {false};
        byAddress.compute(key, (address, open) ->
        {
            final int now = open == null ? 0 : open;
            over[0] = now >= perAddress;
            return over[0] ? open : now + 1;
        });
        if (over[0])
        {
            counters.openConnections.decrementAndGet();
            refuse(writer, OVER_ADDRESS, true);
            return false;
        }
        channel.closeFuture().addListener(closed ->
        {
            byAddress.compute(key, (address, open) -> open == null || open <= 1 ? null : open - 1);
            counters.openConnections.decrementAndGet();
        });
        return true;
    }

    /** Addresses with a connection open (for tests: the table empties as connections close). */
    int addressesTracked()
    {
        return byAddress.size();
    }

    private void refuse(final ChannelOutboundInvoker writer, final byte[] answer, final boolean address)
    {
        (address ? refusedAddress : refusedTotal).incrementAndGet();
        counters.connectionRefused(address);
        writer.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(ChannelFutureListener.CLOSE);
    }

    /** Logs the refusals since the last call, if any: one line, however many there were (called once a second). */
    void report(final Consumer<String> log)
    {
        final long address = refusedAddress.getAndSet(0);
        final long all = refusedTotal.getAndSet(0);
        if (address + all > 0)
        {
            log.accept("http: refused " + (address + all) + " connections in the last second (" + address +
                " over http.max.connections.per.address=" + perAddress + ", " + all + " over http.max.connections=" +
                total + "); " + counters.openConnections.get() + " open");
        }
    }

    /** The refusal as it goes on the wire: no handler makes it, so it costs a copy of these bytes. */
    private static byte[] refusal(final String message)
    {
        final String body = HttpResponses.error("CONNECTION_LIMIT", message);
        return ("HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: " +
            body.getBytes(StandardCharsets.UTF_8).length + "\r\nretry-after: 1\r\nconnection: close\r\n\r\n" + body)
            .getBytes(StandardCharsets.UTF_8);
    }
}
