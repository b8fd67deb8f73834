package io.venue.transport.http;

import io.venue.codec.JsonWriter;
import io.venue.entry.credential.ApiKey;
import io.venue.entry.credential.TokenSigners;
import io.venue.entry.credential.WsTokens;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.svc.SvcHeaders;

import java.util.function.Function;
import io.venue.auth.Scope;
import java.util.Map;

/**
 * POST /api/v1/ws/token (spec 2.5, 5.7), and the check a private read makes of the token it is shown. A token is
 * obtained with SVC-* headers (spec 5.4) of a credential whose agent holds the read scope, or, without them, with a
 * wallet's signature over a {@code WsTokenText} ({@link OwnerIntents#walletToken}). A token names what obtained it
 * (the credential, or {@code wallet:<address>}), and {@link #stillGranted} checks on every use that it still holds.
 * One instance per connection, with the connection's {@link MachineAuth}.
 */
final class TokenRoute
{
    /** A token obtained by a wallet signature names the wallet in place of a credential id. */
    static final String WALLET = "wallet:";

    /** The answer, and for a refusal the journal should hold, its reason and detail (otherwise null). */
    record Outcome(SubmitResponse response, RequestRejectReason journalReason, String journalDetail)
    {
        static Outcome answer(final SubmitResponse response)
        {
            return new Outcome(response, null, null);
        }
    }

    private final HttpGateway.Context context;
    private final MachineAuth machineAuth;

    TokenRoute(final HttpGateway.Context context, final MachineAuth machineAuth)
    {
        this.context = context;
        this.machineAuth = machineAuth;
    }

    /**
     * @param headers  the request's headers, case-insensitive.
     * @param uri      the request line's target as sent (path and query).
     */
    Outcome issue(final Function<String, String> headers, final String method, final String uri,
        final byte[] body, final long now)
    {
        final int query = uri.indexOf('?');
        final String rawPath = query < 0 ? uri : uri.substring(0, query);
        if (headers.apply(SvcHeaders.AUTH_VERSION) == null && context.tokenSigners != null &&
            context.ownerIntents != null && body.length > 0)
        {
            return walletToken(rawPath, body, now);
        }
        final MachineAuth.Authenticated auth = machineAuth.authenticate(headers, method, uri, body, now);
        if (auth.refusal() != null)
        {
            return auth.refusal();
        }
        if (!auth.key().holds(Scope.READ))
        {
            return Outcome.answer(new SubmitResponse(403, HttpResponses.error("SCOPE_DENIED",
                "the credential's agent does not hold the read scope")));
        }
        long ttlMs = 0;
        if (body.length > 0)
        {
            try
            {
                if (!(JsonReader.read(body) instanceof Map<?, ?> map) || !(map.get("ttlMs") instanceof Long asked) ||
                    map.size() != 1)
                {
                    throw new JsonReader.JsonException("the body is empty or {\"ttlMs\":<integer>}");
                }
                ttlMs = asked;
            }
            catch (final JsonReader.JsonException ex)
            {
                return Outcome.answer(badRequest("", ex.getMessage()));
            }
        }
        return Outcome.answer(token(auth.key().account(), auth.apiKeyId(), ttlMs, now));
    }

    /**
     * Without machine headers: a wallet signs for the account (itself, its vault owner, or an agent of it
     * holding read).
     */
    private Outcome walletToken(final String path, final byte[] body, final long now)
    {
        final OwnerIntents.WalletToken request;
        try
        {
            request = context.ownerIntents.walletToken(OwnerIntents.object(body));
        }
        catch (final OwnerIntents.BadIntent bad)
        {
            return new Outcome(badRequest(bad.field(), bad.getMessage()), RequestRejectReason.TRANSPORT_AUTH_FAILED,
                "POST " + path + ": wallet token " + bad.field() + ": " + bad.getMessage());
        }
        final TokenSigners.Grant grant = context.tokenSigners.grant(request.account(), request.signer(), now);
        if (grant == null)
        {
            return new Outcome(
                new SubmitResponse(401, new JsonWriter().field("ok", false).field("code", "UNAUTHORIZED_SIGNER")
                .field("message", "the signer is neither the account, its vault owner nor an active agent of it")
                .field("expectedSigner", request.account()).field("recoveredSigner", request.signer()).toJson()),
                RequestRejectReason.TRANSPORT_AUTH_FAILED, "POST " + path + ": wallet token for " + request.account() +
                " signed by " + request.signer() + ", not a signer of the account");
        }
        if (!grant.readScope())
        {
            return Outcome.answer(new SubmitResponse(403, HttpResponses.error("SCOPE_DENIED",
                "the signing agent does not hold the read scope")));
        }
        final String used = context.ownerIntents.useOnce(request);
        if (used != null)
        {
            return Outcome.answer("used".equals(used) ?
                badRequest("nonce", "this signed text already obtained a token: sign a new one with another nonce") :
                new SubmitResponse(503,
                    HttpResponses.error("BUSY", "too many token texts in the last minute; retry after the delay"), 1));
        }
        // the token names what must still hold when it is used: the agent credential, or the wallet that signed
        return Outcome.answer(token(request.account(), grant.credentialId().isEmpty() ? WALLET + request.signer() :
            grant.credentialId(), request.ttlMs(), now));
    }

    /**
     * Whether what obtained the token still holds: its agent credential is active and the account's, or the wallet that
     * signed still signs for the account (the account itself, or its vault owner now).
     */
    boolean stillGranted(final WsTokens.Claims claims, final long now)
    {
        if (claims.apiKeyId().startsWith(WALLET))
        {
            // the wallet must still be the account or its owner: a grant by way of an agent key is the agent's, not
            // the wallet's
            final String signer = claims.apiKeyId().substring(WALLET.length());
            final TokenSigners.Grant grant = context.tokenSigners == null ? null :
                context.tokenSigners.grant(claims.account(), signer, now);
            return grant != null && grant.credentialId().isEmpty();
        }
        final ApiKey key = context.entry.credentials().find(claims.apiKeyId());
        return key != null && key.account().equals(claims.account());
    }

    private SubmitResponse token(final String account, final String credentialId, final long ttlMs, final long now)
    {
        final long ttl = WsTokens.clampTtl(ttlMs, context.wsTokenTtlMs);
        final String token = context.wsTokens.issue(account, credentialId, now + ttl);
        return new SubmitResponse(200,
            new JsonWriter().field("ok", true).field("account", account).field("scope", WsTokens.SCOPE)
            .field("tokenType", "Bearer").field("token", token).field("ttlMs", ttl).toJson());
    }

    /** A 400 naming the field, with the server's time, which a time-related refusal needs. */
    static SubmitResponse badRequest(final String field, final String message)
    {
        return new SubmitResponse(400,
            new JsonWriter().field("ok", false).field("code", "BAD_REQUEST").field("field", field)
            .field("message", message).field("serverTimeMs", System.currentTimeMillis()).toJson());
    }
}
