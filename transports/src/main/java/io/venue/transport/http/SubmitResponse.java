package io.venue.transport.http;

/**
 * The answer to one submitted action: the HTTP status and the JSON body (spec 2.4 and docs/API.md).
 * {@code retryAfterSeconds} is sent as {@code Retry-After} when positive (only with 429 and 503). When
 * {@code rateLimit} is not negative the answer carries the account's limiter as the engine left it:
 * {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset-Ms}.
 */
public record SubmitResponse(int status, String body, long retryAfterSeconds, long rateLimit, long rateRemaining,
    long rateResetMs)
{
    public SubmitResponse(final int status, final String body, final long retryAfterSeconds)
    {
        this(status, body, retryAfterSeconds, -1, 0, 0);
    }

    public SubmitResponse(final int status, final String body)
    {
        this(status, body, 0);
    }
}
