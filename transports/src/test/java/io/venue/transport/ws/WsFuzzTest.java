package io.venue.transport.ws;

import io.venue.transport.http.JsonReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile inbound frames, generated from a fixed seed: malformed JSON, wrong shapes, unknown methods, huge and
 * non-integer ids, random bytes, unmasked frames and floods. Each is answered by an error frame naming a documented
 * code (the connection staying open, nothing sent to the feed), or ends its connection with a documented close; a
 * well-behaved client on the same gateway is served throughout.
 */
class WsFuzzTest
{
    private static final Set<String> ERROR_CODES = Set.of("BAD_JSON", "BAD_REQUEST", "UNKNOWN_METHOD");
    private static final Set<String> DOCUMENTED = Set.of("BAD_JSON", "BAD_REQUEST", "UNKNOWN_METHOD",
        "MESSAGE_TOO_BIG", "BINARY_NOT_ACCEPTED", "PROTOCOL_ERROR", "LIMIT_EXCEEDED");
    private static final Set<Integer> CLOSES = Set.of(WsCloses.PROTOCOL_ERROR, WsCloses.UNSUPPORTED_DATA,
        WsCloses.INVALID_PAYLOAD, WsCloses.MESSAGE_TOO_BIG, WsCloses.LIMIT_EXCEEDED);

    private WsFixture fixture;

    @AfterEach
    void close() throws Exception
    {
        fixture.close();
    }

    private static final String[] TEMPLATES = {
        "{\"method\":\"subscribe\",\"id\":%s,\"channels\":%s}",
        "{\"method\":\"unsubscribe\",\"id\":%s,\"channels\":%s}",
        "{\"method\":\"resend\",\"id\":%s,\"channel\":%s,\"fromSeq\":10,\"toSeq\":5}",
        "{\"method\":%s,\"id\":%s}",
        "{\"method\":\"ping\",\"id\":%s,\"extra\":%s}",
        "{\"method\":\"subscribe\",\"id\":%s,\"channels\":[\"book.1\"],\"resume\":%s}",
        "{\"method\":\"auth\",\"id\":%s,\"token\":%s}",
        "[%s,%s]",
        "%s%s",
    };
    private static final String[] VALUES = {"null", "1.5", "-1", "9007199254740992", "1e3", "\"7\"", "[]", "{}",
        "99999999999999999999999999", "\"book.1\"", "[\"\"]", "[1,2]", "\"x\\ud800\"", "{\"book.1\":{\"seq\":1}}",
        "[\"" + "a".repeat(65) + "\"]", "\"\\u00zz\"", "true", "{\"a\":1,\"a\":2}",
        "[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]"};

    private static String pick(final Random random)
    {
        return VALUES[random.nextInt(VALUES.length)];
    }

    @Test
    void malformedMessagesAreErrorsAndChangeNothing() throws Exception
    {
        fixture = new WsFixture(ws -> ws.controlMessages(100_000, 60_000).heartbeatMs(60_000));
        final WsClient good = fixture.connectPublic();
        good.next();
        final RawWs hostile = fixture.raw(0);
        assertTrue(hostile.upgrade(WsGateway.PUBLIC_PATH, "").startsWith("HTTP/1.1 101"));
        hostile.read();
        final Random random = new Random(20_261_129);
        for (int i = 0; i < 500; i++)
        {
            final String template = TEMPLATES[random.nextInt(TEMPLATES.length)];
            final String message = String.format(template, pick(random), pick(random));
            if (template.startsWith("{\"method\":\"subscribe\",\"id\":%s,\"channels\":[\"book.1\"]") ||
                template.startsWith("{\"method\":%s"))
            {
                // some of these are valid: covered elsewhere; here only refusals are checked
                continue;
            }
            hostile.sendText(message);
            final RawWs.Frame frame = hostile.read();
            assertNotNull(frame, "closed on " + message);
            final Map<?, ?> error = (Map<?, ?>)JsonReader.read(frame.payload());
            assertEquals("error", error.get("type"), message + " -> " + frame.text());
            assertTrue(ERROR_CODES.contains(error.get("code")), message + " -> " + frame.text());
            assertTrue(error.containsKey("id") && error.containsKey("message"), frame.text());
            if (i % 50 == 0)
            {
                good.send("{\"method\":\"ping\",\"id\":" + i + "}");
                final String expected = "\"id\":" + i + ",";
                good.await(m -> m.contains("pong") && m.contains(expected));
            }
        }
        assertTrue(fixture.feed.requests.isEmpty(), "no malformed message reached the feed: " + fixture.feed.requests);
    }

    @Test
    void randomFramesEndOnlyTheirConnectionWithADocumentedClose() throws Exception
    {
        fixture = new WsFixture(ws -> ws.controlMessages(200, 60_000).maxInboundBytes(2_048));
        final WsClient good = fixture.connectPublic();
        good.next();
        final Random random = new Random(4_242);
        for (int round = 0; round < 40; round++)
        {
            final RawWs hostile = fixture.raw(0);
            assertTrue(hostile.upgrade(WsGateway.PUBLIC_PATH, "").startsWith("HTTP/1.1 101"));
            hostile.read();
            final int kind = round % 5;
            final byte[] bytes = new byte[1 + random.nextInt(kind == 3 ? 4_096 : 300)];
            random.nextBytes(bytes);
            int sentClose = -1;
            try
            {
                switch (kind)
                {
                    case 0, 3 -> hostile.send(RawWs.TEXT, true, bytes);
                    case 1 ->
                    {
                        final int opcode = random.nextInt(16);
                        sentClose = opcode == RawWs.CLOSE && bytes.length >= 2 ?
                            (bytes[0] & 0xFF) << 8 | bytes[1] & 0xFF : -1;
                        hostile.send(opcode, random.nextBoolean(), bytes);
                    }
                    case 2 -> hostile.sendRaw(RawWs.TEXT, true, "{}".getBytes(StandardCharsets.UTF_8), false);
                    default ->
                    {
                        for (int flood = 0; flood < 250; flood++)
                        {
                            hostile.sendText("{\"method\":\"ping\",\"id\":" + flood + "}");
                        }
                    }
                }
                // a connection that survived answers this
                hostile.sendText("{\"method\":\"ping\",\"id\":-5}");
                hostile.sendText("{\"method\":\"ping\",\"id\":12345}");
            }
            catch (final IOException reset)
            {
                // the gateway closed while we still sent
            }
            RawWs.Frame frame;
            String outcome = "ended without a close frame";
            while ((frame = hostile.read()) != null)
            {
                if (frame.opcode() == RawWs.CLOSE)
                {
                    final int code = frame.closeCode();
                    assertTrue(CLOSES.contains(code) || code == sentClose || code == WsCloses.NORMAL,
                        "kind " + kind + ": close " + code);
                    outcome = "closed";
                    break;
                }
                if (frame.opcode() == RawWs.TEXT)
                {
                    final Map<?, ?> answer = (Map<?, ?>)JsonReader.read(frame.payload());
                    assertTrue(!"error".equals(answer.get("type")) || DOCUMENTED.contains(answer.get("code")),
                        frame.text());
                    if (frame.text().contains("\"id\":12345,"))
                    {
                        outcome = "served";
                        break;
                    }
                }
            }
            // every connection ends with a close frame or is still served (the gateway shuts only its side first,
            // so a client still sending is not reset before it reads the close)
            assertTrue(!outcome.startsWith("ended"), "kind " + kind + " " + outcome);
            hostile.close();
            good.send("{\"method\":\"ping\",\"id\":" + round + "}");
            final String expected = "\"id\":" + round + ",";
            good.await(m -> m.contains("pong") && m.contains(expected));
        }
        assertTrue(fixture.ws.counters().closes(WsCloses.LIMIT_EXCEEDED) >= 1, "the floods were closed 4409");
        assertTrue(fixture.ws.counters().closes(WsCloses.PROTOCOL_ERROR) >= 1, "the unmasked frames were closed 1002");
        assertTrue(fixture.ws.counters().closes(WsCloses.MESSAGE_TOO_BIG) >= 1, "large random text was closed 1009");
        assertEquals(0, fixture.ws.counters().closes(WsCloses.INTERNAL_ERROR), "no failure of the gateway's own");
    }
}
