package io.venue.loadgen;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Many public WebSocket subscribers of the same channels on one thread with non-blocking sockets, so that the
 * subscribers cost next to nothing beside the server they measure: each connection's bytes are read into one buffer,
 * split into frames by their headers, and of each text frame only {@code ch}, {@code seq} and {@code ts} are read
 * (the feed writes them first, in that order), to check that every channel's {@code seq} has no gap and to record the
 * delay from a frame's {@code ts} to its arrival at the last subscriber that received it. Nothing else is parsed and
 * nothing is allocated per frame. Stalled subscribers send their subscribe and never read again (with a 4 KiB receive
 * buffer), the server's slow-consumer case. Every reading subscriber sends a WebSocket ping every 30 s, so the server's
 * idle timeout does not close it.
 */
public final class WsNioFanout implements AutoCloseable
{
    private static final long PING_EVERY_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int BUFFER = 64 * 1024;
    /** A frame's delay is kept for this many frames of each channel after the start of the recording. */
    private static final int MAX_FRAMES_PER_CHANNEL = 4_000_000;

    private final List<String> channels;
    private final byte[][] channelNames;
    private final Selector selector;
    private final List<Connection> connections = new ArrayList<>();
    private final Thread reader;
    private volatile boolean running = true;
    private volatile boolean recording;
    private volatile long recordingSince;
    /** Per channel index: the first seq recorded, each seq's stamped ts and its latest arrival (ms). */
    private final long[] baseSeq;
    private final long[][] stamp;
    private final long[][] lastArrival;
    private long frames;
    private long gaps;
    private long closedByServer;
    private volatile Throwable failure;

    /**
     * Opens {@code count} connections to {@code url} (ws://host:port/api/v1/ws/public), upgrades and subscribes each
     * to {@code channels}; the first {@code stalled} stop reading once subscribed. Returns once every connection has
     * its 101.
     */
    public WsNioFanout(final String url, final int count, final int stalled, final List<String> channels)
        throws IOException, InterruptedException
    {
        this.channels = List.copyOf(channels);
        channelNames = new byte[channels.size()][];
        for (int i = 0; i < channels.size(); i++)
        {
            channelNames[i] = channels.get(i).getBytes(StandardCharsets.US_ASCII);
        }
        baseSeq = new long[channels.size()];
        stamp = new long[channels.size()][];
        lastArrival = new long[channels.size()][];
        final URI uri = URI.create(url);
        if (!"ws".equals(uri.getScheme()))
        {
            throw new IllegalArgumentException("the light client speaks ws:// only: " + url);
        }
        final InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
        final byte[] upgrade = ("GET " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" +
            address.getPort() + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
            "Sec-WebSocket-Key: ").getBytes(StandardCharsets.US_ASCII);
        final StringBuilder subscribe = new StringBuilder("{\"method\":\"subscribe\",\"id\":1,\"channels\":[");
        for (int i = 0; i < channels.size(); i++)
        {
            subscribe.append(i == 0 ? "\"" : ",\"").append(channels.get(i)).append('"');
        }
        final byte[] subscribeFrame = clientFrame(0x1, subscribe.append("]}").toString()
            .getBytes(StandardCharsets.UTF_8));
        selector = Selector.open();
        for (int i = 0; i < count; i++)
        {
            final SocketChannel socket = SocketChannel.open();
            if (i < stalled)
            {
                socket.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
            }
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            socket.connect(address);
            final byte[] key = new byte[16];
            ThreadLocalRandom.current().nextBytes(key);
            final ByteBuffer request = ByteBuffer.allocate(upgrade.length + 32 + subscribeFrame.length);
            request.put(upgrade).put(Base64.getEncoder().encode(key)).put(CRLF2);
            request.flip();
            while (request.hasRemaining())
            {
                socket.write(request);
            }
            final Connection connection = new Connection(socket, i < stalled, subscribeFrame);
            connection.awaitUpgrade();
            socket.configureBlocking(false);
            connections.add(connection);
        }
        for (final Connection connection : connections)
        {
            connection.key = connection.socket.register(selector, connection.stalled ? 0 : SelectionKey.OP_READ,
                connection);
        }
        reader = new Thread(this::run, "ws-fanout-nio");
        reader.setDaemon(true);
        reader.start();
    }

    /** Records what arrives from now until {@link #stop}. */
    public void start()
    {
        recordingSince = System.nanoTime();
        recording = true;
    }

    /** Ends the recording after waiting {@code drainMs} for frames still on their way. */
    public WsFanout.Result stop(final double seconds, final long drainMs) throws InterruptedException
    {
        Thread.sleep(drainMs);
        recording = false;
        running = false;
        selector.wakeup();
        reader.join(10_000);
        if (failure != null)
        {
            throw new IllegalStateException("the reader failed", failure);
        }
        final Histogram delays = new Histogram(60_000, 3);
        for (int c = 0; c < channelNames.length; c++)
        {
            if (stamp[c] == null)
            {
                continue;
            }
            for (int i = 0; i < stamp[c].length; i++)
            {
                if (lastArrival[c][i] != 0)
                {
                    delays.recordValue(Math.max(0, Math.min(60_000, lastArrival[c][i] - stamp[c][i])));
                }
            }
        }
        return new WsFanout.Result(connections.size(), frames, gaps, seconds, delays);
    }

    /** Connections the server closed (a stalled one closed 4408, for example). */
    public long closedByServer()
    {
        return closedByServer;
    }

    @Override
    public void close()
    {
        running = false;
        selector.wakeup();
        try
        {
            reader.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        for (final Connection connection : connections)
        {
            try
            {
                connection.socket.close();
            }
            catch (final IOException ignored)
            {
                // closing anyway
            }
        }
        try
        {
            selector.close();
        }
        catch (final IOException ignored)
        {
            // closing anyway
        }
    }

    private void run()
    {
        long nextPing = System.nanoTime() + PING_EVERY_NS;
        final byte[] ping = clientFrame(0x9, new byte[0]);
        try
        {
            while (running)
            {
                selector.select(100);
                for (final SelectionKey key : selector.selectedKeys())
                {
                    ((Connection)key.attachment()).onReadable();
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() - nextPing > 0)
                {
                    nextPing += PING_EVERY_NS;
                    for (final Connection connection : connections)
                    {
                        if (!connection.stalled && connection.socket.isOpen())
                        {
                            connection.socket.write(ByteBuffer.wrap(ping));
                        }
                    }
                }
            }
        }
        catch (final Throwable ex)
        {
            failure = ex;
        }
    }

    /** One text frame's payload at {@code [from, to)} of {@code bytes}: its channel, seq and ts. */
    private void onText(final Connection connection, final byte[] bytes, final int from, final int to)
    {
        // {"ch":"<name>","type":"…","epoch":"…","seq":N,"engineSeq":S,"ts":T
        final int prefix = 7; // {"ch":"
        if (to - from < prefix || bytes[from + 2] != 'c' || bytes[from + 3] != 'h' || bytes[from + 1] != '"')
        {
            return; // session, ack, heartbeat and notices
        }
        final int channel = channelAt(bytes, from + prefix, to);
        if (channel < 0)
        {
            return;
        }
        final int seqAt = indexOf(bytes, from, to, SEQ);
        if (seqAt < 0)
        {
            return; // gap_fill, resume_required
        }
        final long seq = number(bytes, seqAt + SEQ.length, to);
        if (seq <= 0)
        {
            return;
        }
        final boolean snapshot = indexOf(bytes, from, Math.min(to, seqAt), SNAPSHOT) >= 0;
        final long last = connection.lastSeq[channel];
        if (last != 0 && !snapshot && seq != last + 1)
        {
            gaps++;
        }
        connection.lastSeq[channel] = seq;
        if (!recording)
        {
            return;
        }
        frames++;
        final int tsAt = indexOf(bytes, seqAt, to, TS);
        final long ts = tsAt < 0 ? 0 : number(bytes, tsAt + TS.length, to);
        record(channel, seq, ts, System.currentTimeMillis());
    }

    private void record(final int channel, final long seq, final long ts, final long now)
    {
        if (stamp[channel] == null)
        {
            baseSeq[channel] = seq;
            stamp[channel] = new long[1024];
            lastArrival[channel] = new long[1024];
        }
        final long offset = seq - baseSeq[channel];
        if (offset < 0 || offset >= MAX_FRAMES_PER_CHANNEL)
        {
            return;
        }
        if (offset >= stamp[channel].length)
        {
            final int size = (int)Math.min(MAX_FRAMES_PER_CHANNEL, Math.max(offset + 1, stamp[channel].length * 2L));
            stamp[channel] = Arrays.copyOf(stamp[channel], size);
            lastArrival[channel] = Arrays.copyOf(lastArrival[channel], size);
        }
        stamp[channel][(int)offset] = ts;
        lastArrival[channel][(int)offset] = Math.max(lastArrival[channel][(int)offset], now);
    }

    private static final byte[] SEQ = "\"seq\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TS = "\"ts\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SNAPSHOT = "\"snapshot\"".getBytes(StandardCharsets.US_ASCII);

    /** Which of the channels is named at {@code at} (its name then a quote), or -1. */
    private int channelAt(final byte[] bytes, final int at, final int to)
    {
        for (int c = 0; c < channelNames.length; c++)
        {
            final byte[] name = channelNames[c];
            if (at + name.length < to && bytes[at + name.length] == '"' && regionMatches(bytes, at, name))
            {
                return c;
            }
        }
        return -1;
    }

    private static boolean regionMatches(final byte[] bytes, final int at, final byte[] name)
    {
        for (int i = 0; i < name.length; i++)
        {
            if (bytes[at + i] != name[i])
            {
                return false;
            }
        }
        return true;
    }

    static int indexOf(final byte[] bytes, final int from, final int to, final byte[] key)
    {
        outer:
        for (int i = from; i <= to - key.length; i++)
        {
            for (int j = 0; j < key.length; j++)
            {
                if (bytes[i + j] != key[j])
                {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static long number(final byte[] bytes, final int from, final int to)
    {
        long value = 0;
        int i = from;
        if (i >= to || bytes[i] < '0' || bytes[i] > '9')
        {
            return -1;
        }
        while (i < to && bytes[i] >= '0' && bytes[i] <= '9')
        {
            value = value * 10 + bytes[i++] - '0';
        }
        return value;
    }

    /** A client's frame (RFC 6455 5.3: masked), with a zero mask, which leaves the payload as it is. */
    static byte[] clientFrame(final int opcode, final byte[] payload)
    {
        final int length = payload.length;
        final int header = length < 126 ? 2 : 4;
        if (length > 0xFFFF)
        {
            throw new IllegalArgumentException("a control message this large is not sent");
        }
        final byte[] frame = new byte[header + 4 + length];
        frame[0] = (byte)(0x80 | opcode);
        if (length < 126)
        {
            frame[1] = (byte)(0x80 | length);
        }
        else
        {
            frame[1] = (byte)(0x80 | 126);
            frame[2] = (byte)(length >>> 8);
            frame[3] = (byte)length;
        }
        System.arraycopy(payload, 0, frame, header + 4, length);
        return frame;
    }

    /** One subscriber: its socket, its read buffer and the last seq of each channel. */
    private final class Connection
    {
        final SocketChannel socket;
        final boolean stalled;
        final byte[] subscribe;
        final long[] lastSeq = new long[channelNames.length];
        ByteBuffer in = ByteBuffer.allocate(BUFFER);
        SelectionKey key;

        Connection(final SocketChannel socket, final boolean stalled, final byte[] subscribe)
        {
            this.socket = socket;
            this.stalled = stalled;
            this.subscribe = subscribe;
        }

        /** Blocking: reads the 101 up to the end of its head (the bytes after it stay in the buffer), subscribes. */
        void awaitUpgrade() throws IOException
        {
            while (true)
            {
                if (socket.read(in) < 0)
                {
                    throw new IOException("closed during the upgrade");
                }
                final int end = indexOf(in.array(), 0, in.position(), CRLF2);
                if (end >= 0)
                {
                    final String head = new String(in.array(), 0, end, StandardCharsets.US_ASCII);
                    if (!head.startsWith("HTTP/1.1 101"))
                    {
                        throw new IOException("the upgrade was refused: " + head.lines().findFirst().orElse(""));
                    }
                    in.flip().position(end + CRLF2.length);
                    in.compact();
                    break;
                }
            }
            final ByteBuffer out = ByteBuffer.wrap(subscribe);
            while (out.hasRemaining())
            {
                socket.write(out);
            }
        }

        void onReadable() throws IOException
        {
            final int read;
            try
            {
                read = socket.read(in);
            }
            catch (final IOException reset)
            {
                closed();
                return;
            }
            if (read < 0)
            {
                closed();
                return;
            }
            in.flip();
            final byte[] bytes = in.array();
            while (in.remaining() >= 2)
            {
                final int at = in.position();
                final int opcode = bytes[at] & 0x0F;
                final int length7 = bytes[at + 1] & 0x7F;
                final int header = length7 < 126 ? 2 : length7 == 126 ? 4 : 10;
                if (in.remaining() < header)
                {
                    break;
                }
                final long length = length7 < 126 ? length7 : length7 == 126 ?
                    ((bytes[at + 2] & 0xFF) << 8) | (bytes[at + 3] & 0xFF) : in.getLong(at + 2);
                if (header + length > in.capacity())
                {
                    // a frame larger than the buffer (a deep snapshot): the buffer grows to hold it whole
                    final ByteBuffer bigger = ByteBuffer.allocate((int)(header + length));
                    bigger.put(in);
                    in = bigger;
                    return;
                }
                if (in.remaining() < header + length)
                {
                    break;
                }
                if (opcode == 0x1)
                {
                    onText(this, bytes, at + header, (int)(at + header + length));
                }
                else if (opcode == 0x8)
                {
                    closed();
                    return;
                }
                in.position((int)(at + header + length));
            }
            in.compact();
        }

        private void closed() throws IOException
        {
            closedByServer++;
            key.cancel();
            socket.close();
        }
    }

    private static final byte[] CRLF2 = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
}
