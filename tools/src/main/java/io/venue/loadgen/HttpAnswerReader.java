package io.venue.loadgen;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads HTTP/1.1 answers out of one connection's bytes as they arrive: the status, and the body once its
 * Content-Length says it is whole; a partial answer waits for more bytes. Enough for the appliance's answers, which
 * are always sized by Content-Length: an answer in chunks, or of a status that needs a length and has none, is
 * refused with an {@link IOException} naming what was wrong, never guessed at.
 */
final class HttpAnswerReader
{
    /** Called for each whole answer; {@code body} is valid only during the call. */
    interface Handler
    {
        void onAnswer(int status, byte[] body, int offset, int length);
    }

    static final int MAX_HEAD = 16 << 10;
    static final int MAX_BODY = 64 << 20;
    private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding:".getBytes(StandardCharsets.US_ASCII);

    private byte[] bytes = new byte[MAX_HEAD];
    private int held;

    /** Takes the bytes between {@code in}'s position and limit. */
    void append(final ByteBuffer in)
    {
        final int length = in.remaining();
        room(length);
        in.get(bytes, held, length);
        held += length;
    }

    void append(final byte[] source, final int offset, final int length)
    {
        room(length);
        System.arraycopy(source, offset, bytes, held, length);
        held += length;
    }

    /** Bytes held that are not yet part of a whole answer. */
    int held()
    {
        return held;
    }

    /**
     * Hands every whole answer held to {@code handler}, in order, and keeps the rest.
     *
     * @return how many answers were handed over
     * @throws IOException when the bytes are not an HTTP/1.1 answer this reader can size; the connection is then
     *                     unusable (nothing after the bad answer can be trusted to start an answer)
     */
    int drain(final Handler handler) throws IOException
    {
        int start = 0;
        int answers = 0;
        while (true)
        {
            final int headEnd = headEnd(start);
            if (headEnd < 0)
            {
                if (held - start > MAX_HEAD)
                {
                    throw new IOException("an answer's head is longer than " + MAX_HEAD + " bytes");
                }
                break;
            }
            final int status = status(start);
            final long length = bodyLength(start, headEnd, status);
            if (held - headEnd < length)
            {
                break;
            }
            handler.onAnswer(status, bytes, headEnd, (int)length);
            start = headEnd + (int)length;
            answers++;
        }
        held -= start;
        System.arraycopy(bytes, start, bytes, 0, held);
        return answers;
    }

    private void room(final int more)
    {
        if (held + more > bytes.length)
        {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, held + more));
        }
    }

    /**
     * The index just past the blank line that ends the head starting at {@code start}, or -1 if it has not come yet.
     */
    private int headEnd(final int start)
    {
        for (int i = start; i + 3 < held; i++)
        {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n')
            {
                return i + 4;
            }
        }
        return -1;
    }

    private int status(final int start) throws IOException
    {
        // "HTTP/1.x NNN"
        if (held - start < 12 || !startsWith(start, "HTTP/1.") || bytes[start + 8] != ' ' || !digit(start + 9) ||
            !digit(start + 10) || !digit(start + 11))
        {
            throw new IOException("not an HTTP/1.x status line: " + printable(start, 40));
        }
        return (bytes[start + 9] - '0') * 100 + (bytes[start + 10] - '0') * 10 + (bytes[start + 11] - '0');
    }

    private long bodyLength(final int start, final int headEnd, final int status) throws IOException
    {
        long length = -1;
        int line = lineAfter(start, headEnd);
        while (line < headEnd - 2)
        {
            if (named(line, headEnd, TRANSFER_ENCODING))
            {
                throw new IOException("a chunked answer (Transfer-Encoding) is not read by the load generator");
            }
            if (named(line, headEnd, CONTENT_LENGTH))
            {
                if (length >= 0)
                {
                    throw new IOException("an answer with two Content-Length headers");
                }
                length = contentLength(line + CONTENT_LENGTH.length);
            }
            line = lineAfter(line, headEnd);
        }
        if (length < 0)
        {
            if (status / 100 == 1 || status == 204 || status == 304)
            {
                return 0;
            }
            throw new IOException("an answer of status " + status + " without Content-Length");
        }
        return length;
    }

    private long contentLength(final int from) throws IOException
    {
        int i = from;
        while (bytes[i] == ' ' || bytes[i] == '\t')
        {
            i++;
        }
        long value = 0;
        int digits = 0;
        while (digit(i))
        {
            value = value * 10 + bytes[i++] - '0';
            if (++digits > 9 || value > MAX_BODY)
            {
                throw new IOException("an answer's Content-Length is over " + MAX_BODY + " bytes");
            }
        }
        while (bytes[i] == ' ' || bytes[i] == '\t')
        {
            i++;
        }
        if (digits == 0 || bytes[i] != '\r')
        {
            throw new IOException("an unreadable Content-Length: " + printable(from, 30));
        }
        return value;
    }

    /** The index after the CRLF that ends the line at {@code line} (the head always ends in one). */
    private int lineAfter(final int line, final int headEnd)
    {
        int i = line;
        while (i < headEnd - 1 && !(bytes[i] == '\r' && bytes[i + 1] == '\n'))
        {
            i++;
        }
        return i + 2;
    }

    private boolean named(final int line, final int headEnd, final byte[] lowerCaseName)
    {
        if (line + lowerCaseName.length > headEnd)
        {
            return false;
        }
        for (int i = 0; i < lowerCaseName.length; i++)
        {
            final int b = bytes[line + i];
            if ((b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b) != lowerCaseName[i])
            {
                return false;
            }
        }
        return true;
    }

    private boolean startsWith(final int at, final String text)
    {
        for (int i = 0; i < text.length(); i++)
        {
            if (bytes[at + i] != text.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private boolean digit(final int at)
    {
        return at < held && bytes[at] >= '0' && bytes[at] <= '9';
    }

    private String printable(final int at, final int most)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = at; i < Math.min(held, at + most); i++)
        {
            final int b = bytes[i] & 0xff;
            text.append(b >= 0x20 && b < 0x7f ? (char)b : '.');
        }
        return text.toString();
    }
}
