package io.venue.transport.tcp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.venue.transport.tls.ServerTls;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The listening socket of a session lane over TCP (BSL Direct TCP, FIX): one acceptor thread, {@code ioThreads} I/O
 * threads, no Nagle, a write buffer that stops reading a peer who does not read its answers, and TLS first in every
 * connection's pipeline when the lane has it. The lane adds its own framing and session behind it.
 */
public final class TcpLaneServer implements AutoCloseable
{
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel server;

    private TcpLaneServer(final EventLoopGroup boss, final EventLoopGroup workers, final Channel server)
    {
        this.boss = boss;
        this.workers = workers;
        this.server = server;
    }

    /**
     * Binds {@code host}:{@code port} (0: any free port); {@code session} adds the lane's handlers to each accepted
     * connection, after the TLS handler when {@code tls} is given (the handshake then counts against the lane's login
     * deadline, which its session starts when it becomes active).
     *
     * @throws IllegalStateException when interrupted while binding; a failed bind's exception as it is.
     */
    public static TcpLaneServer bind(final String lane, final String host, final int port, final int ioThreads,
        final ServerTls tls, final Consumer<SocketChannel> session)
    {
        final EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        final EventLoopGroup workers = new MultiThreadIoEventLoopGroup(ioThreads, NioIoHandler.newFactory());
        try
        {
            final Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // answers a peer does not read stop its requests being read (the sessions' channelWritabilityChanged)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel channel)
                    {
                        if (tls != null)
                        {
                            channel.pipeline().addLast(tls.handler(channel.alloc()));
                        }
                        session.accept(channel);
                    }
                })
                .bind(host, port).sync().channel();
            return new TcpLaneServer(boss, workers, server);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            shutDown(boss, workers);
            throw new IllegalStateException("interrupted while binding the " + lane + " lane", ex);
        }
        catch (final RuntimeException ex)
        {
            shutDown(boss, workers);
            throw ex;
        }
    }

    /** The bound port. */
    public int port()
    {
        return ((InetSocketAddress)server.localAddress()).getPort();
    }

    /** Stops accepting and closes every connection (at most about 2 s). */
    @Override
    public void close()
    {
        server.close().syncUninterruptibly();
        shutDown(boss, workers);
    }

    private static void shutDown(final EventLoopGroup boss, final EventLoopGroup workers)
    {
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
