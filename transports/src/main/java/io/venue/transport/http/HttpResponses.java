package io.venue.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.venue.codec.JsonWriter;
import io.venue.entry.Refusal;

import java.nio.charset.StandardCharsets;
import java.util.Date;

/** The HTTP lane's responses: JSON with the limiter headers, the core's refusals, the error bodies (docs/API.md). */
final class HttpResponses
{
    static final String OK_PREFIX = "{\"ok\":true";
    static final String RATE_LIMIT = "X-RateLimit-Limit";
    static final String RATE_REMAINING = "X-RateLimit-Remaining";
    static final String RATE_RESET_MS = "X-RateLimit-Reset-Ms";

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
        final ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        final FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        http.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, contentType)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes())
            .set(HttpHeaderNames.DATE, DateFormatter.format(new Date()));
        return http;
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
            http.headers().set("x-ratelimit-after", refusal.retryAfterSeconds())
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
