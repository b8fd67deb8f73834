package io.venue.loadgen;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load generator's HTTP/1.1 client: a fixed set of keep-alive connections on one thread of its own with a
 * selector, one request in flight per connection and a FIFO of the ones waiting. A trader always uses the same
 * connection, so its place and the cancel after it arrive in order, as a real client's would.
 * <p>
 * Written to cost the appliance as little of the machine as possible, since the generator shares its cores: a request
 * is written straight from its body into one buffer per connection, an answer is read by {@link HttpAnswerReader}
 * without decoding its headers into objects, and a request handed over from another thread wakes the client's
 * thread only when that thread is waiting in its selector. (The Netty client this replaced spent about 64 µs of CPU
 * per request on its event loop, docs/PERFORMANCE.md.)
 */
public final class HttpLoadClient implements LoadTransport
{
    /** How long the client's thread waits in its selector at most, so that a close is seen. */
    private static final long SELECT_MS = 100;

    private final Selector selector;
    private final Connection[] connections;
    private final byte[] requestLine;
    private final ConcurrentLinkedQueue<Pending> handedOver = new ConcurrentLinkedQueue<>();
    /** True while the client's thread is in (or about to enter) a blocking select: only then must a submit wake it. */
    private final AtomicBoolean waiting = new AtomicBoolean();
    private final Thread thread;
    private volatile boolean running = true;

    public HttpLoadClient(final String submitUrl, final int connectionCount) throws IOException
    {
        final URI uri = URI.create(submitUrl);
        requestLine = ("POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort() +
            "\r\nConnection: keep-alive\r\n").getBytes(StandardCharsets.US_ASCII);
        selector = Selector.open();
        connections = new Connection[connectionCount];
        try
        {
            for (int i = 0; i < connectionCount; i++)
            {
                final SocketChannel channel = SocketChannel.open(new InetSocketAddress(uri.getHost(), uri.getPort()));
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.configureBlocking(false);
                connections[i] = new Connection(channel);
                connections[i].key = channel.register(selector, SelectionKey.OP_READ, connections[i]);
            }
        }
        catch (final IOException ex)
        {
            closeChannels();
            selector.close();
            throw ex;
        }
        thread = new Thread(this::run, "loadgen-http");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public int connections()
    {
        return connections.length;
    }

    /** Queues {@code body} on connection {@code index}; the answer comes on the client's thread. */
    public void submit(final int index, final byte[] body, final Answer answer)
    {
        submit(index, body, Map.of(), answer);
    }

    /** The same with extra request headers (a Content-Type among them replaces JSON's). */
    @Override
    public void submit(final int index, final byte[] body, final Map<String, String> headers, final Answer answer)
    {
        handedOver.add(new Pending(connections[index], body, headers, answer));
        if (waiting.get())
        {
            selector.wakeup();
        }
    }

    @Override
    public void close()
    {
        running = false;
        selector.wakeup();
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void run()
    {
        try
        {
            while (running)
            {
                takeHandedOver();
                waiting.set(true);
                // a request handed over between the take and the flag is seen here, so no wake-up is ever missed
                final boolean block = handedOver.isEmpty();
                if (block)
                {
                    selector.select(SELECT_MS);
                }
                else
                {
                    selector.selectNow();
                }
                waiting.set(false);
                final Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
                while (ready.hasNext())
                {
                    final SelectionKey key = ready.next();
                    ready.remove();
                    ((Connection)key.attachment()).onReady(key);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            for (final Connection connection : connections)
            {
                connection.fail(ex);
            }
        }
        finally
        {
            final IllegalStateException closed = new IllegalStateException("the load client is closed");
            takeHandedOver();
            for (final Connection connection : connections)
            {
                connection.fail(closed);
            }
            closeChannels();
            try
            {
                selector.close();
            }
            catch (final IOException ignored)
            {
                // closing
            }
        }
    }

    private void takeHandedOver()
    {
        Pending pending;
        while ((pending = handedOver.poll()) != null)
        {
            pending.connection().enqueue(pending);
        }
    }

    private void closeChannels()
    {
        for (final Connection connection : connections)
        {
            if (connection != null)
            {
                try
                {
                    connection.channel.close();
                }
                catch (final IOException ignored)
                {
                    // closing
                }
            }
        }
    }

    private record Pending(Connection connection, byte[] body, Map<String, String> headers, Answer answer)
    {
    }

    /** One keep-alive connection; touched only on the client's thread. */
    private final class Connection implements HttpAnswerReader.Handler
    {
        final SocketChannel channel;
        SelectionKey key;
        private final ArrayDeque<Pending> queued = new ArrayDeque<>();
        private final HttpAnswerReader reader = new HttpAnswerReader();
        private final ByteBuffer in = ByteBuffer.allocateDirect(64 << 10);
        private ByteBuffer out = ByteBuffer.allocateDirect(16 << 10);
        private Pending inFlight;
        private boolean closed;

        Connection(final SocketChannel channel)
        {
            this.channel = channel;
        }

        void enqueue(final Pending pending)
        {
            if (closed)
            {
                pending.answer().onAnswer(0, null, new IllegalStateException("the connection is closed"));
            }
            else if (inFlight == null)
            {
                send(pending);
            }
            else
            {
                queued.add(pending);
            }
        }

        private void send(final Pending pending)
        {
            inFlight = pending;
            encode(pending);
            flush();
        }

        private void encode(final Pending pending)
        {
            final byte[] body = pending.body();
            final Map<String, String> headers = pending.headers();
            int size = requestLine.length + 64 + body.length;
            for (final Map.Entry<String, String> header : headers.entrySet())
            {
                size += header.getKey().length() + header.getValue().length() + 4;
            }
            if (out.capacity() < size)
            {
                out = ByteBuffer.allocateDirect(Math.max(size, out.capacity() * 2));
            }
            out.clear();
            out.put(requestLine);
            boolean typed = false;
            for (final Map.Entry<String, String> header : headers.entrySet())
            {
                typed |= header.getKey().equalsIgnoreCase("Content-Type");
                ascii(header.getKey()).ascii(": ").ascii(header.getValue()).ascii("\r\n");
            }
            if (!typed)
            {
                ascii("Content-Type: application/json\r\n");
            }
            ascii("Content-Length: ").ascii(Integer.toString(body.length)).ascii("\r\n\r\n");
            out.put(body);
            out.flip();
        }

        private Connection ascii(final String text)
        {
            for (int i = 0; i < text.length(); i++)
            {
                out.put((byte)text.charAt(i));
            }
            return this;
        }

        private void flush()
        {
            try
            {
                channel.write(out);
                key.interestOps(
                    out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            }
            catch (final IOException ex)
            {
                fail(ex);
            }
        }

        void onReady(final SelectionKey ready)
        {
            if (!ready.isValid())
            {
                fail(new IllegalStateException("the connection is closed"));
                return;
            }
            if (ready.isWritable())
            {
                flush();
            }
            if (ready.isValid() && ready.isReadable())
            {
                read();
            }
        }

        private void read()
        {
            try
            {
                int count;
                while ((count = channel.read(in)) > 0)
                {
                    in.flip();
                    reader.append(in);
                    in.clear();
                    reader.drain(this);
                }
                if (count < 0)
                {
                    fail(new IllegalStateException("the appliance closed the connection"));
                }
            }
            catch (final IOException ex)
            {
                fail(ex);
            }
        }

        @Override
        public void onAnswer(final int status, final byte[] body, final int offset, final int length)
        {
            final Pending done = inFlight;
            inFlight = null;
            if (done != null)
            {
                done.answer().onAnswer(status, code(new String(body, offset, length, StandardCharsets.UTF_8)), null);
            }
            final Pending next = queued.poll();
            if (next != null && !closed)
            {
                send(next);
            }
        }

        void fail(final Throwable cause)
        {
            if (!closed)
            {
                closed = true;
                if (key != null)
                {
                    key.cancel();
                }
                try
                {
                    channel.close();
                }
                catch (final IOException ignored)
                {
                    // already failing
                }
            }
            if (inFlight != null)
            {
                inFlight.answer().onAnswer(0, null, cause);
                inFlight = null;
            }
            Pending next;
            while ((next = queued.poll()) != null)
            {
                next.answer().onAnswer(0, null, cause);
            }
        }
    }

    /**
     * "ok" for {"ok":true…} (for a compact request: with none of its orders refused, else "orders_refused"), the value
     * of "code" for a refusal, or "HTTP" when the body has neither.
     */
    static String code(final String text)
    {
        if (text.startsWith("{\"ok\":true"))
        {
            return !text.contains("\"refused\":") || text.contains("\"refused\":0,") ? "ok" : "orders_refused";
        }
        final int at = text.indexOf("\"code\":\"");
        return at < 0 ? "HTTP" : text.substring(at + 8, text.indexOf('"', at + 8));
    }
}
