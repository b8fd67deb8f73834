package io.venue.loadgen;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpAnswerReaderTest
{
    record Answer(int status, String lengthName, List<String> otherHeaders, byte[] body)
    {
        byte[] wire()
        {
            final StringBuilder head = new StringBuilder("HTTP/1.1 " + status + " Whatever\r\n");
            otherHeaders.forEach(h -> head.append(h).append("\r\n"));
            head.append(lengthName).append(": ").append(body.length).append("\r\n\r\n");
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(body);
            return out.toByteArray();
        }
    }

    @Provide
    Arbitrary<List<Answer>> answers()
    {
        final Arbitrary<Integer> status = Arbitraries.of(200, 400, 401, 409, 413, 429, 503);
        final Arbitrary<String> lengthName = Arbitraries.of("Content-Length", "content-length", "CONTENT-LENGTH",
            "Content-length");
        final Arbitrary<List<String>> others = Arbitraries.of("Date: Sat, 28 Nov 2026 11:00:00 GMT",
            "X-RateLimit-Limit: 50",
            "Content-Type: application/json", "Retry-After: 1", "x-content-lengthy: 7").list().ofMaxSize(5);
        final Arbitrary<byte[]> body = Arbitraries.bytes().array(byte[].class).ofMaxSize(3_000);
        return Combinators.combine(status, lengthName, others, body).as(Answer::new).list().ofMinSize(1).ofMaxSize(8);
    }

    @Property(tries = 300)
    void answersSplitAnywhereAreReadWholeAndInOrder(@ForAll("answers") final List<Answer> sent,
        @ForAll final long seed, @ForAll @IntRange(min = 1, max = 4_000) final int mostPerRead) throws IOException
    {
        final ByteArrayOutputStream stream = new ByteArrayOutputStream();
        sent.forEach(a -> stream.writeBytes(a.wire()));
        final byte[] wire = stream.toByteArray();
        final HttpAnswerReader reader = new HttpAnswerReader();
        final List<Answer> read = new ArrayList<>();
        final Random random = new Random(seed);
        int at = 0;
        while (at < wire.length)
        {
            final int count = Math.min(wire.length - at, 1 + random.nextInt(mostPerRead));
            reader.append(ByteBuffer.wrap(wire, at, count));
            at += count;
            reader.drain((status, body, offset, length) ->
                read.add(new Answer(status, "", List.of(), Arrays.copyOfRange(body, offset, offset + length))));
        }
        assertEquals(sent.size(), read.size());
        for (int i = 0; i < sent.size(); i++)
        {
            assertEquals(sent.get(i).status(), read.get(i).status());
            assertArrayEquals(sent.get(i).body(), read.get(i).body(), "answer " + i);
        }
        assertEquals(0, reader.held(), "nothing left over");
    }

    @Property(tries = 2_000)
    void anyBytesGiveAnswersOrWaitOrANamedRefusal(@ForAll @Size(max = 600) final byte[] noise,
        @ForAll final boolean asHead)
    {
        final HttpAnswerReader reader = new HttpAnswerReader();
        if (asHead)
        {
            reader.append("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII), 0, 17);
        }
        reader.append(noise, 0, noise.length);
        try
        {
            reader.drain((status, body, offset,
                length) -> assertTrue(offset >= 0 && length >= 0 && offset + length <= body.length));
        }
        catch (final IOException refused)
        {
            assertTrue(refused.getMessage() != null && !refused.getMessage().isEmpty());
        }
    }

    @Test
    void refusesWhatItCannotSize()
    {
        assertRefused("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "chunked");
        assertRefused("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello", "without Content-Length");
        assertRefused("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", "two Content-Length");
        assertRefused("HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello", "unreadable Content-Length");
        assertRefused("HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n", "over");
        assertRefused("SPDY/3 200 OK\r\nContent-Length: 0\r\n\r\n", "not an HTTP/1.x status line");
        assertRefused("HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n", "not an HTTP/1.x status line");
        assertRefused("HTTP/1.1 200 OK\r\nX: " + "a".repeat(HttpAnswerReader.MAX_HEAD) + "\r\n", "head is longer");
    }

    @Test
    void anAnswerWithNoBodyNeedsNoLengthAndAPartialOneWaits() throws IOException
    {
        final HttpAnswerReader reader = new HttpAnswerReader();
        final byte[] wire =
            "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nab".getBytes(
                StandardCharsets.US_ASCII);
        reader.append(wire, 0, wire.length);
        final List<Integer> statuses = new ArrayList<>();
        assertEquals(1, reader.drain((status, body, offset, length) -> statuses.add(status)));
        assertEquals(List.of(204), statuses);
        reader.append("cd".getBytes(StandardCharsets.US_ASCII), 0, 2);
        final String[] body = new String[1];
        assertEquals(1, reader.drain(
            (status, bytes, offset, length) -> body[0] = new String(bytes, offset, length, StandardCharsets.US_ASCII)));
        assertEquals("abcd", body[0]);
    }

    private static void assertRefused(final String wire, final String because)
    {
        final HttpAnswerReader reader = new HttpAnswerReader();
        final byte[] bytes = wire.getBytes(StandardCharsets.US_ASCII);
        reader.append(bytes, 0, bytes.length);
        final IOException refused = assertThrows(IOException.class, () -> reader.drain((s, b, o, l) -> { }));
        assertTrue(refused.getMessage().contains(because), refused.getMessage());
    }
}
