package io.venue.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.venue.codec.JsonWriter;
import io.venue.entry.Refusal;

import java.util.Date;

/** The HTTP lane's responses: JSON with the limiter headers, the core's refusals, the error bodies (docs/API.md). */
final class HttpResponses
{
    static final String OK_PREFIX = "{\"ok\":true";
    static final AsciiString RATE_LIMIT = AsciiString.cached("X-RateLimit-Limit");
    static final AsciiString RATE_REMAINING = AsciiString.cached("X-RateLimit-Remaining");
    static final AsciiString RATE_RESET_MS = AsciiString.cached("X-RateLimit-Reset-Ms");
    private static final AsciiString RATE_LIMIT_AFTER = AsciiString.cached("x-ratelimit-after");
    /**
     * The answers' headers are this class's names with constant or numeric values, never a client's text: validating
     * each one again per answer was a measurable share of the I/O thread (PERFORMANCE.md, "The answer's bytes").
     */
    private static final HttpHeadersFactory UNVALIDATED = DefaultHttpHeadersFactory.headersFactory()
        .withValidation(false);
    private static final HttpHeadersFactory UNVALIDATED_TRAILERS = DefaultHttpHeadersFactory.trailersFactory()
        .withValidation(false);
    /** The Date header has a resolution of a second (RFC 9110 5.6.7): formatted once a second, not per answer. */
    private static volatile DateValue date = new DateValue(Long.MIN_VALUE, AsciiString.EMPTY_STRING);

    private HttpResponses()
    {
    }

    static String error(final String code, final String message)
    {
        return new JsonWriter().field("ok", false).field("code", code).field("message", message).toJson();
    }

    /** A JSON answer with the limiter headers (when it has them) and Retry-After (only with 429 and 503). */
    static FullHttpResponse json(final SubmitResponse response)
    {
        final FullHttpResponse http = response(HttpResponseStatus.valueOf(response.status()),
            HttpHeaderValues.APPLICATION_JSON, response.body());
        if (response.rateLimit() >= 0)
        {
            http.headers().set(RATE_LIMIT, response.rateLimit()).set(RATE_REMAINING, response.rateRemaining())
                .set(RATE_RESET_MS, response.rateResetMs());
        }
        if (response.retryAfterSeconds() > 0 && (response.status() == 429 || response.status() == 503))
        {
            http.headers().set(HttpHeaderNames.RETRY_AFTER, response.retryAfterSeconds());
        }
        return http;
    }

    /** A response with its body, length and the server's time (the Date header every answer carries). */
    static FullHttpResponse response(final HttpResponseStatus status, final CharSequence contentType, final String body)
    {
        // the allocator's (pooled, direct) buffer: the socket writes it without a copy; the encoder releases it
        final ByteBuf content = ByteBufUtil.writeUtf8(ByteBufAllocator.DEFAULT, body);
        final FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content, UNVALIDATED,
            UNVALIDATED_TRAILERS);
        http.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, contentType)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes())
            .set(HttpHeaderNames.DATE, date());
        return http;
    }

    /** Now as an HTTP date; the value formatted for the current second is shared by every I/O thread. */
    static AsciiString date()
    {
        final long second = System.currentTimeMillis() / 1000;
        DateValue current = date;
        if (current.second != second)
        {
            // two threads may both format a new second: each keeps a correct value, the last one written stays
            current = new DateValue(second, AsciiString.cached(DateFormatter.format(new Date(second * 1000))));
            date = current;
        }
        return current.value;
    }

    private record DateValue(long second, AsciiString value)
    {
    }

    static FullHttpResponse notAllowed(final String allowed)
    {
        final FullHttpResponse http = json(new SubmitResponse(405, error("METHOD_NOT_ALLOWED", "use " + allowed)));
        http.headers().set(HttpHeaderNames.ALLOW, allowed);
        return http;
    }

    static FullHttpResponse badRequest(final String message)
    {
        return json(new SubmitResponse(400, error("BAD_REQUEST", message)));
    }

    /**
     * The HTTP form of the core's refusal: the edge throttle's is a plain-text 429 (spec 7.2); the others are JSON with
     * Retry-After.
     */
    static FullHttpResponse refusal(final Refusal refusal)
    {
        if (refusal.code() == Refusal.Code.EDGE_RATE_LIMITED)
        {
            final FullHttpResponse http = response(HttpResponseStatus.TOO_MANY_REQUESTS, "text/plain; charset=utf-8",
                refusal.message());
            http.headers().set(RATE_LIMIT_AFTER, refusal.retryAfterSeconds())
                .set(HttpHeaderNames.RETRY_AFTER, refusal.retryAfterSeconds());
            return http;
        }
        return json(
            new SubmitResponse(503, error(refusal.code().name(), refusal.message()), refusal.retryAfterSeconds()));
    }

    static FullHttpResponse queueLimit(final String message)
    {
        return refusal(new Refusal(Refusal.Code.QUEUE_LIMIT, message, 1));
    }
}
