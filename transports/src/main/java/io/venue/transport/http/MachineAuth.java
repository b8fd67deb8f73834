package io.venue.transport.http;

import io.venue.codec.JsonWriter;
import io.venue.entry.credential.ApiKey;
import io.venue.entry.credential.MachineCredentials;

import java.util.function.Function;

/**
 * SVC-* headers on the HTTP lane: the order-entry core's check ({@link MachineCredentials}) with its refusal in the
 * lane's JSON. One per connection.
 */
final class MachineAuth
{
    private final MachineCredentials.HeaderCheck check;

    MachineAuth(final MachineCredentials credentials)
    {
        this.check = credentials == null ? null : credentials.headerCheck();
    }

    /** A request's machine credential, or the refusal to answer (journaled) when its SVC-* headers do not pass. */
    record Authenticated(ApiKey key, String apiKeyId, TokenRoute.Outcome refusal)
    {
    }

    Authenticated authenticate(final Function<String, String> headers, final String method, final String uri,
        final byte[] body, final long now)
    {
        final MachineCredentials.Authenticated checked = check.authenticate(headers, method, uri, body, now);
        final MachineCredentials.Failure failure = checked.failure();
        if (failure == null)
        {
            return new Authenticated(checked.key(), checked.apiKeyId(), null);
        }
        final JsonWriter refusal = new JsonWriter().field("ok", false).field("code", failure.result().name())
            .field("field", failure.field()).field("message", failure.message())
            .field("serverTimeMs", failure.serverTimeMs());
        if (failure.acceptsTimestampsFromMs() >= 0)
        {
            refusal.field("acceptsTimestampsFromMs", failure.acceptsTimestampsFromMs());
        }
        return new Authenticated(null, null, new TokenRoute.Outcome(new SubmitResponse(failure.result().httpStatus(),
            refusal.toJson()), failure.journalReason(), failure.journalDetail()));
    }
}
