package io.venue.transport.http;

import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Date;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP lane's response heads: the Date formatted once a second, the body and its length, the limiter's names. */
class HttpResponsesTest
{
    @Test
    void theDateIsTheCurrentSecondInHttpForm()
    {
        for (int i = 0; i < 1_000; i++)
        {
            final long before = System.currentTimeMillis() / 1000 * 1000;
            final String value = HttpResponses.date().toString();
            final long after = System.currentTimeMillis();
            final Date parsed = DateFormatter.parseHttpDate(value);
            assertNotNull(parsed, value);
            assertTrue(parsed.getTime() >= before && parsed.getTime() <= after, value);
            assertEquals(DateFormatter.format(parsed), value);
        }
    }

    @Test
    void aResponseCarriesItsBodyLengthTypeAndDate()
    {
        final String body = "{\"ok\":true,\"note\":\"é€\"}";
        final FullHttpResponse http = HttpResponses.response(HttpResponseStatus.OK, "application/json", body);
        try
        {
            final byte[] utf8 = body.getBytes(StandardCharsets.UTF_8);
            assertEquals(body, http.content().toString(StandardCharsets.UTF_8));
            assertEquals(Integer.toString(utf8.length), http.headers().get(HttpHeaderNames.CONTENT_LENGTH));
            assertEquals("application/json", http.headers().get(HttpHeaderNames.CONTENT_TYPE));
            assertNotNull(DateFormatter.parseHttpDate(http.headers().get(HttpHeaderNames.DATE)));
        }
        finally
        {
            http.release();
        }
    }

    @Test
    void theLimiterHeadersAreFoundWhateverTheirCase()
    {
        final FullHttpResponse http = HttpResponses.json(new SubmitResponse(200, "{}", 0, 50, 49, 20));
        try
        {
            assertEquals("50", http.headers().get("x-ratelimit-limit"));
            assertEquals("49", http.headers().get("X-RATELIMIT-REMAINING"));
            assertEquals("20", http.headers().get("X-RateLimit-Reset-Ms"));
            assertTrue(http.headers().contains(HttpResponses.RATE_LIMIT));
        }
        finally
        {
            http.release();
        }
    }
}
