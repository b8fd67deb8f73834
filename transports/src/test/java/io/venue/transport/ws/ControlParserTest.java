package io.venue.transport.ws;

import io.venue.feed.Feed;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The control messages' shapes, strictly: each valid form read whole, each wrong one refused with its id. */
class ControlParserTest
{
    private static ControlParser.Control parse(final String text) throws ControlParser.BadControl
    {
        return ControlParser.parse(text.getBytes(StandardCharsets.UTF_8), 32);
    }

    private static ControlParser.BadControl refused(final String text)
    {
        return assertThrows(ControlParser.BadControl.class, () -> parse(text), text);
    }

    @Test
    void validMessagesAreReadWhole() throws Exception
    {
        final ControlParser.Control subscribe = parse("{\"method\":\"subscribe\",\"id\":9007199254740991," +
            "\"channels\":[\"book.1\",\"fills\"],\"resume\":{\"book.1\":{\"epoch\":\"e7\",\"seq\":123}}}");
        assertEquals(ControlParser.Method.SUBSCRIBE, subscribe.method());
        assertEquals(9_007_199_254_740_991L, subscribe.id());
        assertEquals(List.of("book.1", "fills"), subscribe.channels());
        assertEquals(Map.of("book.1", new Feed.Cursor("e7", 123)), subscribe.resume());
        final ControlParser.Control resend =
            parse("{\"method\":\"resend\",\"id\":0,\"channel\":\"fills\",\"fromSeq\":10,\"toSeq\":500}");
        assertEquals("fills", resend.channel());
        assertEquals(10, resend.fromSeq());
        assertEquals(500, resend.toSeq());
        assertEquals("spws1.a.b", parse("{\"id\":1,\"method\":\"auth\",\"token\":\"spws1.a.b\"}").token());
        assertEquals(ControlParser.Method.PING, parse("{\"method\":\"ping\",\"id\":2}").method());
        assertEquals(List.of("bbo.2"),
            parse("{\"method\":\"unsubscribe\",\"id\":3,\"channels\":[\"bbo.2\"]}").channels());
    }

    @Test
    void wrongShapesAreRefusedWithTheIdWhenItWasRead()
    {
        assertNull(refused("{\"method\":\"ping\"}").id);
        assertNull(refused("{\"method\":\"ping\",\"id\":9007199254740992}").id);
        assertNull(refused("{\"method\":\"ping\",\"id\":-1}").id);
        assertNull(refused("{\"method\":\"ping\",\"id\":1.0}").id);
        assertNull(refused("{\"method\":\"ping\",\"id\":\"1\"}").id);
        assertNull(refused("{\"method\":\"ping\",\"id\":123456789012345678901234567890}").id);
        assertEquals("BAD_JSON", refused("{\"method\":\"ping\",\"id\":1").code);
        assertEquals("BAD_JSON", refused("{\"method\":\"ping\",\"id\":1,\"id\":2}").code);
        assertEquals("BAD_REQUEST", refused("[1]").code);
        final ControlParser.BadControl unknown = refused("{\"method\":\"trade\",\"id\":4}");
        assertEquals("UNKNOWN_METHOD", unknown.code);
        assertEquals(4L, unknown.id);
        assertEquals(5L, refused("{\"method\":\"ping\",\"id\":5,\"x\":1}").id);
        assertEquals(6L, refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":[]}").id);
        refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":\"book.1\"}");
        refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":[\"book.1\",\"book.1\"]}");
        refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":[\"book 1\"]}");
        refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":[\"" + "b".repeat(65) + "\"]}");
        refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":[\"book.1\"],\"resume\":{\"book.2\":" +
            "{\"epoch\":\"e\",\"seq\":1}}}");
        refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":[\"book.1\"],\"resume\":{\"book.1\":" +
            "{\"epoch\":\"e\",\"seq\":-1}}}");
        refused("{\"method\":\"subscribe\",\"id\":6,\"channels\":[\"book.1\"],\"resume\":{\"book.1\":" +
            "{\"epoch\":\"e\",\"seq\":1,\"x\":0}}}");
        refused("{\"method\":\"resend\",\"id\":7,\"channel\":\"fills\",\"fromSeq\":0,\"toSeq\":5}");
        refused("{\"method\":\"resend\",\"id\":7,\"channel\":\"fills\",\"fromSeq\":6,\"toSeq\":5}");
        refused("{\"method\":\"resend\",\"id\":7,\"channel\":\"fills\",\"fromSeq\":1,\"toSeq\":10001}");
        refused("{\"method\":\"auth\",\"id\":8,\"token\":7}");
        final StringBuilder many = new StringBuilder("{\"method\":\"subscribe\",\"id\":9,\"channels\":[");
        for (int i = 0; i < 33; i++)
        {
            many.append(i == 0 ? "" : ",").append("\"book.").append(i).append('"');
        }
        assertEquals(9L, refused(many.append("]}").toString()).id);
    }

    @Test
    void aResendOfExactlyTheMostFramesIsTaken() throws Exception
    {
        assertEquals(10_000L, parse("{\"method\":\"resend\",\"id\":7,\"channel\":\"fills\",\"fromSeq\":1," +
            "\"toSeq\":10000}").toSeq());
    }
}
