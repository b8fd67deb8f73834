package io.venue.transport.ws;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/** A WebSocket client on a plain socket, for what Java's client will not send: bad handshakes and frames. */
final class RawWs implements Closeable
{
    static final int TEXT = 1;
    static final int BINARY = 2;
    static final int CONTINUATION = 0;
    static final int CLOSE = 8;
    static final int PING = 9;
    static final int PONG = 10;

    /** One frame read: its opcode and payload (for a close, the code in the first two bytes). */
    record Frame(int opcode, byte[] payload)
    {
        String text()
        {
            return new String(payload, StandardCharsets.UTF_8);
        }

        int closeCode()
        {
            return payload.length >= 2 ? (payload[0] & 0xFF) << 8 | payload[1] & 0xFF : -1;
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final Random random = new Random(7);

    RawWs(final int port, final int receiveBuffer) throws IOException
    {
        socket = new Socket();
        if (receiveBuffer > 0)
        {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    void write(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    /** Sends a request head and returns the response head (status line and headers). */
    String request(final String head) throws IOException
    {
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        final StringBuilder response = new StringBuilder();
        while (!response.toString().endsWith("\r\n\r\n"))
        {
            final int b = in.read();
            if (b < 0)
            {
                break;
            }
            response.append((char)b);
        }
        return response.toString();
    }

    /** The upgrade request of {@code path} with {@code extra} header lines; the response head. */
    String upgrade(final String path, final String extra) throws IOException
    {
        final byte[] key = new byte[16];
        random.nextBytes(key);
        return request("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\nSec-WebSocket-Version: 13\r\n" +
            extra + "\r\n");
    }

    /** The body of an answer with a content-length, after its head. */
    String body(final String head) throws IOException
    {
        final String lower = head.toLowerCase();
        final int at = lower.indexOf("content-length: ") + "content-length: ".length();
        final int length = Integer.parseInt(lower.substring(at, lower.indexOf("\r\n", at)).trim());
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    void send(final int opcode, final boolean fin, final byte[] payload) throws IOException
    {
        sendRaw(opcode, fin, payload, true);
    }

    /** A frame, masked as a client must unless {@code masked} is false. */
    void sendRaw(final int opcode, final boolean fin, final byte[] payload, final boolean masked) throws IOException
    {
        final ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write((fin ? 0x80 : 0) | opcode);
        final int mask = masked ? 0x80 : 0;
        if (payload.length < 126)
        {
            frame.write(mask | payload.length);
        }
        else if (payload.length < 65_536)
        {
            frame.write(mask | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length & 0xFF);
        }
        else
        {
            frame.write(mask | 127);
            for (int shift = 56; shift >= 0; shift -= 8)
            {
                frame.write((int)((long)payload.length >>> shift) & 0xFF);
            }
        }
        final byte[] key = new byte[4];
        random.nextBytes(key);
        if (masked)
        {
            frame.write(key);
        }
        for (int i = 0; i < payload.length; i++)
        {
            frame.write(masked ? payload[i] ^ key[i & 3] : payload[i]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    void sendText(final String text) throws IOException
    {
        send(TEXT, true, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The next frame; null when the connection closed (EOF or reset). Fails if nothing comes within 10 s. */
    Frame read() throws IOException
    {
        try
        {
            final int first = in.read();
            if (first < 0)
            {
                return null;
            }
            final int second = in.readUnsignedByte();
            long length = second & 0x7F;
            if (length == 126)
            {
                length = in.readUnsignedShort();
            }
            else if (length == 127)
            {
                length = in.readLong();
            }
            final byte[] payload = new byte[(int)length];
            in.readFully(payload);
            return new Frame(first & 0x0F, payload);
        }
        catch (final SocketTimeoutException timeout)
        {
            return fail("no frame within 10 s");
        }
        catch (final IOException reset)
        {
            return null;
        }
    }

    /** Reads frames until a text one matching {@code prefix} inside, or the close frame; fails on EOF. */
    Frame readUntil(final String contains) throws IOException
    {
        while (true)
        {
            final Frame frame = read();
            if (frame == null)
            {
                return fail("closed before a frame with " + contains);
            }
            if (frame.opcode() == CLOSE || frame.opcode() != CONTINUATION && frame.text().contains(contains))
            {
                return frame;
            }
        }
    }

    /** Reads frames up to the close frame and returns it; null when the connection ended without one. */
    Frame readToClose() throws IOException
    {
        Frame frame;
        while ((frame = read()) != null)
        {
            if (frame.opcode() == CLOSE)
            {
                return frame;
            }
        }
        return null;
    }

    /** Whether the gateway closed the connection: reads (discarding) until EOF or a reset. */
    boolean drainsToEnd() throws IOException
    {
        final byte[] chunk = new byte[64 * 1024];
        try
        {
            while (true)
            {
                if (in.read(chunk) < 0)
                {
                    return true;
                }
            }
        }
        catch (final SocketTimeoutException open)
        {
            return false;
        }
        catch (final IOException reset)
        {
            return true;
        }
    }

    InputStream input()
    {
        return in;
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
