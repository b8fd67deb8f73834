package io.venue.loadgen;

import io.venue.bsltcp.sbe.ErrorDecoder;
import io.venue.bsltcp.sbe.HeartbeatDecoder;
import io.venue.bsltcp.sbe.LoginAcceptedDecoder;
import io.venue.bsltcp.sbe.MessageHeaderDecoder;
import io.venue.bsltcp.sbe.OrderAnswersDecoder;
import io.venue.bsltcp.sbe.RequestRefusedDecoder;
import io.venue.transport.bsltcp.ClientMessages;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntFunction;

/**
 * The load generator's BSL Direct TCP client (docs/BSL-TCP.md): one session per trader, logged in with the trader's
 * institutional agent credential, every session on one thread with non-blocking sockets, so that the generator costs
 * the shared cores little (as {@link HttpLoadClient}). A request is an {@code Orders} message carrying the trader's
 * compact body; its answer, matched by {@code seq}, is handed on as an HTTP-like status and code: 200 "ok" for an
 * {@code OrderAnswers} with nothing refused ("orders_refused" otherwise), 429 or 400 and the code for a
 * {@code RequestRefused}, and an error for an {@code Error} or a closed session. Each session sends a heartbeat when it
 * has sent nothing for a third of the lane's interval, so that the pauses between runs (the signing) keep it open.
 */
public final class BslTcpLoadClient implements LoadTransport
{
    private static final long SELECT_MS = 20;
    private static final int READ_BYTES = 1 << 20;

    private final Selector selector;
    private final Session[] sessions;
    private final ConcurrentLinkedQueue<Pending> handedOver = new ConcurrentLinkedQueue<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final OrderAnswersDecoder answers = new OrderAnswersDecoder();
    private final RequestRefusedDecoder refused = new RequestRefusedDecoder();
    private final ErrorDecoder error = new ErrorDecoder();
    private final UnsafeBuffer message = new UnsafeBuffer(0, 0);
    private final Thread thread;
    private long heartbeatNs;
    private volatile boolean running = true;

    /**
     * Opens and logs in {@code count} sessions to {@code host}:{@code port}, session {@code i} with {@code login(i)}
     * (e.g. {@link LoadAccounts#bslLogin}); fails if any login is not accepted.
     */
    public BslTcpLoadClient(final String host, final int port, final int count, final IntFunction<byte[]> login)
        throws IOException
    {
        selector = Selector.open();
        sessions = new Session[count];
        try
        {
            for (int i = 0; i < count; i++)
            {
                sessions[i] = new Session(host, port, login.apply(i));
            }
        }
        catch (final IOException ex)
        {
            closeChannels();
            selector.close();
            throw ex;
        }
        thread = new Thread(this::run, "loadgen-bsl-tcp");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public int connections()
    {
        return sessions.length;
    }

    /** Queues {@code body} (a compact body) on session {@code index}; {@code headers} are HTTP's and ignored here. */
    @Override
    public void submit(final int index, final byte[] body, final Map<String, String> headers, final Answer answer)
    {
        handedOver.add(new Pending(sessions[index], body, answer));
        selector.wakeup();
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
                Pending pending;
                while ((pending = handedOver.poll()) != null)
                {
                    pending.session.send(pending);
                }
                selector.select(SELECT_MS);
                final Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
                while (ready.hasNext())
                {
                    final SelectionKey key = ready.next();
                    ready.remove();
                    ((Session)key.attachment()).onReady(key);
                }
                final long now = System.nanoTime();
                for (final Session session : sessions)
                {
                    if (session.open && now - session.lastWriteNs > heartbeatNs)
                    {
                        session.write(ClientMessages.heartbeat());
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            for (final Session session : sessions)
            {
                session.fail(ex);
            }
        }
        finally
        {
            closeChannels();
            try
            {
                selector.close();
            }
            catch (final IOException ignored)
            {
                // closing anyway
            }
        }
    }

    private void closeChannels()
    {
        for (final Session session : sessions)
        {
            if (session != null)
            {
                try
                {
                    session.channel.close();
                }
                catch (final IOException ignored)
                {
                    // closing anyway
                }
            }
        }
    }

    private record Pending(Session session, byte[] body, Answer answer)
    {
    }

    /** One logged-in session: its socket, the requests waiting for their answer by seq, what waits to be written. */
    private final class Session
    {
        private final SocketChannel channel;
        private final SelectionKey key;
        private final ByteBuffer in = ByteBuffer.allocateDirect(READ_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
        private final Map<Long, Answer> waiting = new HashMap<>();
        private long nextSeq = 1;
        private long lastWriteNs = System.nanoTime();
        private boolean open = true;

        Session(final String host, final int port, final byte[] login) throws IOException
        {
            channel = SocketChannel.open(new InetSocketAddress(host, port));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.write(ByteBuffer.wrap(login));
            // the login's answer, read blocking: the first message that is not a heartbeat
            while (true)
            {
                final int length = readBlocking();
                header.wrap(message, 0);
                if (header.templateId() == LoginAcceptedDecoder.TEMPLATE_ID)
                {
                    final LoginAcceptedDecoder accepted = new LoginAcceptedDecoder().wrapAndApplyHeader(message, 0,
                        header);
                    heartbeatNs = accepted.heartbeatIntervalMs() * 1_000_000L / 3;
                    in.compact();
                    break;
                }
                if (header.templateId() != HeartbeatDecoder.TEMPLATE_ID)
                {
                    channel.close();
                    throw new IOException("login not accepted (template " + header.templateId() + ", " + length +
                        " bytes)");
                }
                in.compact();
            }
            channel.configureBlocking(false);
            key = channel.register(selector, SelectionKey.OP_READ, this);
        }

        /** Reads one whole message blocking; {@link #message} wraps it, {@code in} is positioned after it. */
        private int readBlocking() throws IOException
        {
            in.flip();
            while (true)
            {
                if (in.remaining() >= 4 && in.remaining() >= 4 + in.getInt(in.position()))
                {
                    final int length = in.getInt(in.position());
                    message.wrap(in, in.position() + 4, length);
                    in.position(in.position() + 4 + length);
                    return length;
                }
                in.compact();
                if (channel.read(in) < 0)
                {
                    throw new IOException("the lane closed the session at its login");
                }
                in.flip();
            }
        }

        void send(final Pending pending)
        {
            if (!open)
            {
                pending.answer.onAnswer(0, null, new IllegalStateException("the session is closed"));
                return;
            }
            final long seq = nextSeq++;
            waiting.put(seq, pending.answer);
            write(ClientMessages.orders(seq, pending.body));
        }

        void write(final byte[] bytes)
        {
            lastWriteNs = System.nanoTime();
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            try
            {
                if (out.isEmpty())
                {
                    channel.write(buffer);
                }
                if (buffer.hasRemaining())
                {
                    out.add(buffer);
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                }
            }
            catch (final IOException ex)
            {
                fail(ex);
            }
        }

        void onReady(final SelectionKey ready)
        {
            try
            {
                if (ready.isWritable())
                {
                    while (!out.isEmpty())
                    {
                        channel.write(out.peek());
                        if (out.peek().hasRemaining())
                        {
                            return;
                        }
                        out.poll();
                    }
                    key.interestOps(SelectionKey.OP_READ);
                }
                if (ready.isReadable())
                {
                    if (channel.read(in) < 0)
                    {
                        fail(new IOException("the lane closed the session"));
                        return;
                    }
                    in.flip();
                    while (in.remaining() >= 4 && in.remaining() >= 4 + in.getInt(in.position()))
                    {
                        final int length = in.getInt(in.position());
                        message.wrap(in, in.position() + 4, length);
                        in.position(in.position() + 4 + length);
                        onMessage();
                    }
                    in.compact();
                }
            }
            catch (final IOException ex)
            {
                fail(ex);
            }
        }

        private void onMessage()
        {
            header.wrap(message, 0);
            switch (header.templateId())
            {
                case OrderAnswersDecoder.TEMPLATE_ID ->
                {
                    answers.wrapAndApplyHeader(message, 0, header);
                    final Answer answer = waiting.remove(answers.seq());
                    if (answer != null)
                    {
                        answer.onAnswer(200, answers.refused() == 0 ? "ok" : "orders_refused", null);
                    }
                }
                case RequestRefusedDecoder.TEMPLATE_ID ->
                {
                    refused.wrapAndApplyHeader(message, 0, header);
                    final Answer answer = waiting.remove(refused.seq());
                    final String code = refused.code();
                    if (answer != null)
                    {
                        answer.onAnswer(refused.retryAfterMs() > 0 ? 429 : 400, code, null);
                    }
                }
                case ErrorDecoder.TEMPLATE_ID ->
                {
                    error.wrapAndApplyHeader(message, 0, header);
                    fail(new IOException("Error " + error.code() + ": " + error.message()));
                }
                default ->
                {
                    // heartbeats, a logout: nothing waits for them
                }
            }
        }

        void fail(final Throwable cause)
        {
            if (!open)
            {
                return;
            }
            open = false;
            for (final Answer answer : waiting.values())
            {
                answer.onAnswer(0, null, cause);
            }
            waiting.clear();
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // closed anyway
            }
        }
    }
}
