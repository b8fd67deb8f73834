package io.venue.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.function.Consumer;

/**
 * A man in the middle on loopback: datagrams sent to its port go on to a target, and what the target sends back goes
 * to whoever sent last, so a UDP protocol with replies (Aeron's data one way, its status messages and NAKs the other)
 * works through it unchanged. Each datagram going to the target is shown to a tap first: what a host on the path
 * sees. Two threads, one a direction; closing the relay ends them.
 */
public final class UdpRelay implements AutoCloseable
{
    private final DatagramChannel front;
    private final DatagramChannel back;
    private final InetSocketAddress target;
    private final Consumer<byte[]> tap;
    private volatile SocketAddress sender;

    private UdpRelay(final int port, final int targetPort, final Consumer<byte[]> tap) throws IOException
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        this.front = DatagramChannel.open().bind(new InetSocketAddress(loopback, port));
        this.back = DatagramChannel.open().bind(new InetSocketAddress(loopback, 0));
        this.target = new InetSocketAddress(loopback, targetPort);
        this.tap = tap;
    }

    /** Relays datagrams sent to {@code port} on loopback to {@code targetPort}, showing each to {@code tap}. */
    public static UdpRelay start(final int port, final int targetPort, final Consumer<byte[]> tap) throws IOException
    {
        final UdpRelay relay = new UdpRelay(port, targetPort, tap);
        relay.thread("udp-relay-to-" + targetPort, relay::forward);
        relay.thread("udp-relay-from-" + targetPort, relay::backward);
        return relay;
    }

    private void thread(final String name, final Runnable loop)
    {
        final Thread thread = new Thread(loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void forward()
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(65_536);
        try
        {
            while (true)
            {
                buffer.clear();
                sender = front.receive(buffer);
                buffer.flip();
                final byte[] datagram = new byte[buffer.remaining()];
                buffer.duplicate().get(datagram);
                tap.accept(datagram);
                back.send(buffer, target);
            }
        }
        catch (final ClosedChannelException closed)
        {
            // the relay was closed
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private void backward()
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(65_536);
        try
        {
            while (true)
            {
                buffer.clear();
                back.receive(buffer);
                buffer.flip();
                final SocketAddress to = sender;
                if (to != null)
                {
                    front.send(buffer, to);
                }
            }
        }
        catch (final ClosedChannelException closed)
        {
            // the relay was closed
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() throws IOException
    {
        front.close();
        back.close();
    }
}
