package io.venue.transport.bsltcp;

import io.venue.bsltcp.sbe.ErrorDecoder;
import io.venue.bsltcp.sbe.ProtectionAckDecoder;
import io.venue.bsltcp.sbe.HeartbeatDecoder;
import io.venue.bsltcp.sbe.LoginAcceptedDecoder;
import io.venue.bsltcp.sbe.LoginRejectedDecoder;
import io.venue.bsltcp.sbe.LogoutDecoder;
import io.venue.bsltcp.sbe.MessageHeaderDecoder;
import io.venue.bsltcp.sbe.OrderAnswersDecoder;
import io.venue.bsltcp.sbe.RequestRefusedDecoder;
import io.venue.codec.Hex;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A blocking client of the BSL TCP lane (the {@code venue bsl} command's, the system tests'): sends frames
 * ({@link ClientMessages}) and reads the server's messages one by one, decoded into {@link Received}. Checks what it
 * reads as strictly as the server does: a frame that is not one whole message is an {@link IOException}.
 */
public final class BslTcpClient implements AutoCloseable
{
    /**
     * One message from the server: its name (the schema's: LoginAccepted, OrderAnswers, Error, ...), its
     * lastProcessedSeq, its fields in schema order (OrderAnswers' results as a list of maps under "results").
     */
    public record Received(String type, long lastProcessedSeq, Map<String, Object> fields)
    {
        public Object get(final String field)
        {
            return fields.get(field);
        }

        /** OrderAnswers' results (empty for the other messages). */
        @SuppressWarnings("unchecked")
        public List<Map<String, Object>> results()
        {
            final Object results = fields.get("results");
            return results == null ? List.of() : (List<Map<String, Object>>)results;
        }

        @Override
        public String toString()
        {
            return type + fields;
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    private BslTcpClient(final Socket socket) throws IOException
    {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects within {@code timeoutMs}, in plain TCP. */
    public static BslTcpClient connect(final String host, final int port, final int timeoutMs) throws IOException
    {
        return connect(host, port, timeoutMs, null);
    }

    /**
     * Connects within {@code timeoutMs}; with {@code tls} (a lane with {@code bsl.tcp.tls=true}) over TLS, the host
     * name sent by SNI and checked against the certificate, the handshake done before this returns.
     */
    public static BslTcpClient connect(final String host, final int port, final int timeoutMs, final SSLContext tls)
        throws IOException
    {
        final Socket socket = new Socket();
        try
        {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            if (tls == null)
            {
                return new BslTcpClient(socket);
            }
            final SSLSocket secured = (SSLSocket)tls.getSocketFactory().createSocket(socket, host, port, true);
            final SSLParameters parameters = secured.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            secured.setSSLParameters(parameters);
            secured.setSoTimeout(timeoutMs);
            secured.startHandshake();
            return new BslTcpClient(secured);
        }
        catch (final IOException ex)
        {
            socket.close();
            throw ex;
        }
    }

    /** Writes bytes as they are (a frame of {@link ClientMessages}, or anything a test wants to send). */
    public void send(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    /**
     * The next message, waiting at most {@code timeoutMs}; heartbeats are returned like any other message.
     *
     * @throws SocketTimeoutException nothing within the time.
     * @throws EOFException           the server closed.
     */
    public Received read(final int timeoutMs) throws IOException
    {
        socket.setSoTimeout(timeoutMs);
        final InputStream stream = in;
        final byte[] length = new byte[BslFraming.LENGTH_FIELD_BYTES];
        final int first = stream.read();
        if (first < 0)
        {
            throw new EOFException("the server closed the connection");
        }
        length[0] = (byte)first;
        in.readFully(length, 1, 3);
        final long size = (length[0] & 0xFFL) | (length[1] & 0xFFL) << 8 | (length[2] & 0xFFL) << 16 |
            (length[3] & 0xFFL) << 24;
        if (size < BslFraming.MIN_MESSAGE_BYTES || size > 16 * 1024 * 1024)
        {
            throw new IOException("a frame of " + size + " bytes from the server");
        }
        final byte[] message = new byte[(int)size];
        in.readFully(message);
        return decode(new UnsafeBuffer(message), message.length);
    }

    /** The next message that is not a Heartbeat. */
    public Received readSkippingHeartbeats(final int timeoutMs) throws IOException
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true)
        {
            final int left = (int)Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            final Received received = read(left);
            if (!received.type().equals("Heartbeat"))
            {
                return received;
            }
        }
    }

    /** Whether the server has closed: waits at most {@code timeoutMs} for the end of the stream, skipping messages. */
    public boolean closedWithin(final int timeoutMs) throws IOException
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (System.nanoTime() < deadline)
        {
            try
            {
                read((int)Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
            catch (final EOFException closed)
            {
                return true;
            }
            catch (final SocketTimeoutException stillOpen)
            {
                return false;
            }
            catch (final IOException reset)
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }

    private Received decode(final UnsafeBuffer buffer, final int length) throws IOException
    {
        header.wrap(buffer, 0);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            throw new IOException("a message of schema " + header.schemaId() + " from the server");
        }
        final Map<String, Object> fields = new LinkedHashMap<>();
        final String type;
        final long lastProcessed;
        final int limit;
        switch (header.templateId())
        {
            case LoginAcceptedDecoder.TEMPLATE_ID ->
            {
                final LoginAcceptedDecoder m = new LoginAcceptedDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "LoginAccepted";
                lastProcessed = m.lastProcessedSeq();
                fields.put("sessionId", m.sessionId());
                final byte[] account = new byte[20];
                m.getAccount(account, 0, 20);
                fields.put("account", Hex.to0x(account));
                fields.put("heartbeatIntervalMs", m.heartbeatIntervalMs());
                fields.put("maxFrameBytes", m.maxFrameBytes());
                fields.put("serverTimeMs", m.serverTimeMs());
                limit = m.limit();
            }
            case LoginRejectedDecoder.TEMPLATE_ID ->
            {
                final LoginRejectedDecoder m = new LoginRejectedDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "LoginRejected";
                lastProcessed = m.lastProcessedSeq();
                fields.put("reason", m.reason().name());
                fields.put("serverTimeMs", m.serverTimeMs());
                fields.put("message", m.message());
                limit = m.limit();
            }
            case HeartbeatDecoder.TEMPLATE_ID ->
            {
                final HeartbeatDecoder m = new HeartbeatDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "Heartbeat";
                lastProcessed = m.lastProcessedSeq();
                limit = m.limit();
            }
            case OrderAnswersDecoder.TEMPLATE_ID ->
            {
                final OrderAnswersDecoder m = new OrderAnswersDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "OrderAnswers";
                lastProcessed = m.lastProcessedSeq();
                fields.put("seq", m.seq());
                fields.put("resultMode", m.resultMode().name());
                fields.put("orders", m.orders());
                fields.put("accepted", m.accepted());
                fields.put("refused", m.refused());
                fields.put("windowMs", m.windowMs());
                fields.put("usedActions", m.usedActions());
                fields.put("remainingActions", m.remainingActions());
                fields.put("resetInMs", m.resetInMs());
                final List<Map<String, Object>> results = new ArrayList<>();
                for (final OrderAnswersDecoder.ResultsDecoder result : m.results())
                {
                    final Map<String, Object> one = new LinkedHashMap<>();
                    one.put("index", result.index());
                    one.put("outcome", result.outcome().name());
                    one.put("sequence", result.sequence());
                    final byte[] orderId = new byte[32];
                    result.getOrderId(orderId, 0, 32);
                    one.put("orderId", Hex.to0x(orderId));
                    one.put("code", result.code());
                    one.put("message", result.message());
                    results.add(Collections.unmodifiableMap(one));
                }
                fields.put("results", Collections.unmodifiableList(results));
                limit = m.limit();
            }
            case RequestRefusedDecoder.TEMPLATE_ID ->
            {
                final RequestRefusedDecoder m = new RequestRefusedDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "RequestRefused";
                lastProcessed = m.lastProcessedSeq();
                fields.put("seq", m.seq());
                fields.put("retryAfterMs", m.retryAfterMs());
                fields.put("windowMs", m.windowMs());
                fields.put("usedActions", m.usedActions());
                fields.put("remainingActions", m.remainingActions());
                fields.put("resetInMs", m.resetInMs());
                fields.put("code", m.code());
                fields.put("field", m.field());
                fields.put("message", m.message());
                limit = m.limit();
            }
            case LogoutDecoder.TEMPLATE_ID ->
            {
                final LogoutDecoder m = new LogoutDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "Logout";
                lastProcessed = m.lastProcessedSeq();
                fields.put("reason", m.reason());
                limit = m.limit();
            }
            case ProtectionAckDecoder.TEMPLATE_ID ->
            {
                final ProtectionAckDecoder m = new ProtectionAckDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "ProtectionAck";
                lastProcessed = m.lastProcessedSeq();
                fields.put("requestId", m.requestId());
                fields.put("result", m.result().name());
                fields.put("deadlineMs", m.deadlineMs());
                fields.put("sequence", m.sequence());
                fields.put("message", m.message());
                limit = m.limit();
            }
            case ErrorDecoder.TEMPLATE_ID ->
            {
                final ErrorDecoder m = new ErrorDecoder().wrapAndApplyHeader(buffer, 0, header);
                type = "Error";
                lastProcessed = m.lastProcessedSeq();
                fields.put("code", m.code().name());
                fields.put("message", m.message());
                limit = m.limit();
            }
            default -> throw new IOException("template " + header.templateId() + " from the server");
        }
        if (limit != length)
        {
            throw new IOException(type + " ends at " + limit + ", its frame at " + length);
        }
        return new Received(type, lastProcessed, Collections.unmodifiableMap(fields));
    }
}
