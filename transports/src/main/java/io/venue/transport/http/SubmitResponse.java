package io.venue.transport.http;

/**
 * The answer to one submitted action: the HTTP status and the JSON body (spec 2.4 and docs/API.md).
 * {@code retryAfterSeconds} is sent as {@code Retry-After} when positive (only with 429 and 503).
 */
public record SubmitResponse(int status, String body, long retryAfterSeconds)
{
    public SubmitResponse(final int status, final String body)
    {
        this(status, body, 0);
    }
}
