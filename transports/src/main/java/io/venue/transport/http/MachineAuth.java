package io.venue.transport.http;

import io.venue.journal.sbe.RequestRejectReason;
import io.venue.svc.SvcAuthResult;
import io.venue.svc.SvcHeaders;
import io.venue.svc.SvcNonceTracker;
import io.venue.svc.SvcVerifier;

import java.util.function.Function;

/**
 * Machine request authentication on the lane (spec 5.4, docs/MACHINE-AUTH.md): SVC-* headers against the active
 * credentials, and each key's SVC-Nonce single use. One instance per connection (its SVC verifier is not shared);
 * the nonces are shared by every connection, under their own lock.
 */
final class MachineAuth
{
    private final HttpGateway.Context context;
    private final SvcNonceTracker svcNonces;
    private final SvcVerifier svc = new SvcVerifier();
    /**
     * A lane knows the nonces its node accepted before (its {@link SvcNonceStore}): requests dated before this lane
     * started are refused. When the store may lack nonces that were accepted (its own, or a replaced primary's after a
     * promotion), the lane refuses requests dated before its start (or the promotion) plus the 30 s skew
     * ({@link SvcNonceStore#acceptsTimestampsFromMs}), so none taken before can pass again.
     */
    private final long acceptsTimestampsFromMs;

    MachineAuth(final HttpGateway.Context context, final SvcNonceTracker svcNonces, final long acceptsTimestampsFromMs)
    {
        this.context = context;
        this.svcNonces = svcNonces;
        this.acceptsTimestampsFromMs = acceptsTimestampsFromMs;
    }

    /** A request's machine credential, or the refusal to answer (journaled) when its SVC-* headers do not pass. */
    record Authenticated(ApiKey key, String apiKeyId, TokenRoute.Outcome refusal)
    {
    }

    /**
     * Checks the SVC-* headers (spec 5.4): parsed, the credential active, the skew, the signature over the request as
     * sent, and the SVC-Nonce above the key's last (taken only once everything else passed).
     */
    Authenticated authenticate(final Function<String, String> headers, final String method, final String uri, final byte[] body,
        final long now)
    {
        final int query = uri.indexOf('?');
        final String rawPath = query < 0 ? uri : uri.substring(0, query);
        final ApiKey[] key = new ApiKey[1];
        // the path is signed as sent, percent-encoding untouched (docs/MACHINE-AUTH.md)
        SvcAuthResult result = svc.verify(headers, id ->
        {
            key[0] = context.apiKeys.apply(id);
            return key[0] == null ? null : key[0].svc();
        }, method, rawPath, query < 0 ? null : uri.substring(query + 1), body, now);
        final boolean beforeStart = result == SvcAuthResult.OK && svc.headers().timestampMs() < acceptsTimestampsFromMs;
        if (beforeStart)
        {
            result = SvcAuthResult.SKEW;
        }
        if (result == SvcAuthResult.OK)
        {
            synchronized (svcNonces)
            {
                result = svcNonces.accept(svc.headers().apiKeyId(), svc.headers().nonce());
                if (result == SvcAuthResult.OK && context.svcNonceStore != null)
                {
                    context.svcNonceStore.put(svc.headers().apiKeyId(), svc.headers().nonce());
                }
            }
        }
        if (result == SvcAuthResult.OK)
        {
            return new Authenticated(key[0], svc.headers().apiKeyId(), null);
        }
        final String field = beforeStart ? SvcHeaders.TIMESTAMP : result == SvcAuthResult.NONCE_REPLAYED ? SvcHeaders.NONCE :
            svc.errorField();
        final String message = beforeStart ? "signed at " + svc.headers().timestampMs() + ", before this node started serving at " +
            acceptsTimestampsFromMs + " (its start, or its start or promotion plus the 30 s skew when its record of used " +
            "nonces may be incomplete; nonces used before then may be unknown to it): sign again with an SVC-Timestamp from " +
            acceptsTimestampsFromMs + " on; a client whose clock is behind the server's (serverTimeMs) waits for it" :
            result == SvcAuthResult.NONCE_REPLAYED ?
            "this SVC-Nonce is not above the highest one accepted for the key: each is single use, send a larger one" :
            svc.errorMessage();
        final JsonWriter refusal = new JsonWriter().field("ok", false).field("code", result.name()).field("field", field)
            .field("message", message).field("serverTimeMs", now);
        if (beforeStart)
        {
            refusal.field("acceptsTimestampsFromMs", acceptsTimestampsFromMs);
        }
        return new Authenticated(null, null, new TokenRoute.Outcome(new SubmitResponse(result.httpStatus(), refusal.toJson()),
            switch (result)
            {
                case SKEW -> RequestRejectReason.TIMESTAMP_SKEW;
                case NONCE_REPLAYED -> RequestRejectReason.MACHINE_NONCE_REPLAYED;
                default -> RequestRejectReason.TRANSPORT_AUTH_FAILED;
            }, method + " " + rawPath + ": " + result + " (" + field + "): " + message));
    }
}
