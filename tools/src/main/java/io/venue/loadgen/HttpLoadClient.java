package io.venue.loadgen;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * The load generator's HTTP/1.1 client on Netty: a fixed set of keep-alive connections, one request in flight
 * per connection and a FIFO of the ones waiting, all on one event-loop thread. A trader always uses the same
 * connection, so its place and the cancel after it arrive in order, as a real client's would. Much lighter than
 * the JDK client, which matters when the generator shares two cores with the appliance.
 */
public final class HttpLoadClient implements AutoCloseable
{
    /** Called on the client's thread with the status and the body's code ("ok" for an accepted action). */
    public interface Answer
    {
        void onAnswer(int status, String code, Throwable error);
    }

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Connection[] connections;
    private final String host;
    private final String path;

    public HttpLoadClient(final String submitUrl, final int connectionCount) throws InterruptedException
    {
        final URI uri = URI.create(submitUrl);
        host = uri.getHost() + ":" + uri.getPort();
        path = uri.getRawPath();
        final Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true);
        connections = new Connection[connectionCount];
        for (int i = 0; i < connectionCount; i++)
        {
            final Connection connection = new Connection();
            connections[i] = connection;
            connection.channel = bootstrap.handler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel channel)
                {
                    channel.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20), connection);
                }
            }).connect(uri.getHost(), uri.getPort()).sync().channel();
        }
    }

    public int connections()
    {
        return connections.length;
    }

    /** Queues {@code body} on connection {@code index}; the answer comes on the client's thread. */
    public void submit(final int index, final byte[] body, final Answer answer)
    {
        submit(index, body, java.util.Map.of(), answer);
    }

    /** The same with extra request headers (a Content-Type among them replaces JSON's). */
    public void submit(final int index, final byte[] body, final java.util.Map<String, String> headers, final Answer answer)
    {
        final Connection connection = connections[index];
        connection.channel.eventLoop().execute(() -> connection.enqueue(body, headers, answer));
    }

    @Override
    public void close()
    {
        for (final Connection connection : connections)
        {
            if (connection != null && connection.channel != null)
            {
                connection.channel.close();
            }
        }
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private record Pending(byte[] body, java.util.Map<String, String> headers, Answer answer)
    {
    }

    /** One keep-alive connection; touched only on the event loop. */
    private final class Connection extends SimpleChannelInboundHandler<FullHttpResponse>
    {
        Channel channel;
        private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
        private Pending inFlight;

        void enqueue(final byte[] body, final java.util.Map<String, String> headers, final Answer answer)
        {
            if (!channel.isActive())
            {
                answer.onAnswer(0, null, new IllegalStateException("the connection is closed"));
                return;
            }
            final Pending pending = new Pending(body, headers, answer);
            if (inFlight == null)
            {
                send(pending);
            }
            else
            {
                waiting.add(pending);
            }
        }

        private void send(final Pending pending)
        {
            inFlight = pending;
            final FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path,
                Unpooled.wrappedBuffer(pending.body()));
            request.headers().set(HttpHeaderNames.HOST, host)
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, pending.body().length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            pending.headers().forEach((name, value) -> request.headers().set(name, value));
            channel.writeAndFlush(request).addListener(written ->
            {
                if (!written.isSuccess())
                {
                    fail(written.cause());
                }
            });
        }

        @Override
        protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpResponse response)
        {
            final Pending done = inFlight;
            inFlight = null;
            if (done != null)
            {
                done.answer().onAnswer(response.status().code(), code(response.content()), null);
            }
            final Pending next = waiting.poll();
            if (next != null)
            {
                send(next);
            }
        }

        @Override
        public void channelInactive(final ChannelHandlerContext ctx)
        {
            fail(new IllegalStateException("the appliance closed the connection"));
        }

        @Override
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            fail(cause);
            ctx.close();
        }

        private void fail(final Throwable cause)
        {
            if (inFlight != null)
            {
                inFlight.answer().onAnswer(0, null, cause);
                inFlight = null;
            }
            Pending next;
            while ((next = waiting.poll()) != null)
            {
                next.answer().onAnswer(0, null, cause);
            }
        }
    }

    /**
     * "ok" for {"ok":true…} (for a compact request: with none of its orders refused, else "orders_refused"), the value
     * of "code" for a refusal, or "HTTP" when the body has neither.
     */
    static String code(final ByteBuf content)
    {
        final String text = content.toString(StandardCharsets.UTF_8);
        if (text.startsWith("{\"ok\":true"))
        {
            return !text.contains("\"refused\":") || text.contains("\"refused\":0,") ? "ok" : "orders_refused";
        }
        final int at = text.indexOf("\"code\":\"");
        return at < 0 ? "HTTP" : text.substring(at + 8, text.indexOf('"', at + 8));
    }
}
