package io.venue.entry.credential;

import io.venue.journal.sbe.RequestRejectReason;
import io.venue.svc.SvcAuthResult;
import io.venue.svc.SvcHeaders;
import io.venue.svc.SvcNonceTracker;
import io.venue.svc.SvcVerifier;

import java.util.function.Function;

/**
 * Machine credentials for every lane (docs/MACHINE-AUTH.md): SVC-* request headers (HTTP), and a session's logon by
 * API key, secret and passphrase (a FIX Logon, a TCP session login). Each key's SVC-Nonce is single use across the
 * node's lanes, under its own lock.
 */
public final class MachineCredentials
{
    /** The one answer to an unknown key, a credential of the other kind and a signature that does not verify. */
    public static final String UNAUTHENTICATED = "SVC-Signature does not verify under an active credential of " +
        "SVC-Key (the same answer when the key is unknown, revoked or expired, or of the other kind: " +
        "SVC-Auth-Version 2 for an HMAC credential, 3 for an Ed25519 one): check the key, its secret and the signed " +
        "string";

    private final Function<String, ApiKey> apiKeys;
    private final SvcNonceStore store;
    private final SvcNonceTracker nonces = new SvcNonceTracker();
    /**
     * The node knows the nonces it accepted before (its {@link SvcNonceStore}): requests dated before it started are
     * refused. When the store may lack nonces that were accepted (its own, or a replaced primary's after a promotion),
     * it refuses requests dated before its start (or the promotion) plus the 30 s skew
     * ({@link SvcNonceStore#acceptsTimestampsFromMs}), so none taken before can pass again.
     */
    private final long acceptsTimestampsFromMs;

    /**
     * @param apiKeys   an API key id to its active credential, null when unknown, revoked or expired.
     * @param store     where each key's highest accepted SVC-Nonce is kept across restarts; null: in memory only.
     * @param startedMs when the node started serving.
     */
    public MachineCredentials(final Function<String, ApiKey> apiKeys, final SvcNonceStore store, final long startedMs)
    {
        this.apiKeys = apiKeys;
        this.store = store;
        if (store != null)
        {
            store.load(nonces::tryAccept);
        }
        this.acceptsTimestampsFromMs = store == null ? startedMs : store.acceptsTimestampsFromMs(startedMs);
    }

    /** The active credential of an API key id, or null. */
    public ApiKey find(final String apiKeyId)
    {
        return apiKeys.apply(apiKeyId);
    }

    public long acceptsTimestampsFromMs()
    {
        return acceptsTimestampsFromMs;
    }

    /** A checker of SVC-* headers for one connection (its verifier keeps scratch state). */
    public HeaderCheck headerCheck()
    {
        return new HeaderCheck();
    }

    /**
     * A session's logon (FIX Logon's Username and Password, a TCP login): the key active, an HMAC credential whose
     * secret and passphrase match, in constant time. An Ed25519 credential cannot log on this way (its holder never
     * shows a secret). Null when the logon passes; otherwise the refusal, the same whichever part was wrong, so that a
     * stranger learns nothing about which keys exist.
     */
    public Failure logon(final String apiKeyId, final String secret, final String passphrase, final long nowMs)
    {
        final ApiKey key = apiKeyId == null ? null : apiKeys.apply(apiKeyId);
        if (key != null && key.svc().matchesSecret(secret, passphrase))
        {
            return null;
        }
        return new Failure(SvcAuthResult.UNAUTHENTICATED, "apiKeyId",
            "the API key, secret or passphrase is not an active HMAC " +
            "credential's", nowMs, -1, RequestRejectReason.TRANSPORT_AUTH_FAILED, "logon: " + apiKeyId +
            " is not an active HMAC credential with this secret and passphrase");
    }

    /** A request's machine credential, or why it was refused. */
    public record Authenticated(ApiKey key, String apiKeyId, Failure failure)
    {
    }

    /**
     * A refused machine authentication: the check's result, the field at fault and a message a person can act on, the
     * server's time (and the earliest timestamp taken, or -1), and what the journal records of it.
     */
    public record Failure(SvcAuthResult result, String field, String message, long serverTimeMs,
        long acceptsTimestampsFromMs, RequestRejectReason journalReason, String journalDetail)
    {
    }

    /** SVC-* headers checked for one connection. */
    public final class HeaderCheck
    {
        private final SvcVerifier svc = new SvcVerifier();

        private HeaderCheck()
        {
        }

        /**
         * Checks the SVC-* headers (spec 5.4): parsed, the credential active, the skew, the signature over the request
         * as sent, and the SVC-Nonce above the key's last (taken only once everything else passed).
         */
        public Authenticated authenticate(final Function<String, String> headers, final String method, final String uri,
            final byte[] body, final long now)
        {
            final int query = uri.indexOf('?');
            final String rawPath = query < 0 ? uri : uri.substring(0, query);
            final ApiKey[] key = new ApiKey[1];
            // the path is signed as sent, percent-encoding untouched (docs/MACHINE-AUTH.md)
            SvcAuthResult result = svc.verify(headers, id ->
            {
                key[0] = apiKeys.apply(id);
                return key[0] == null ? null : key[0].svc();
            }, method, rawPath, query < 0 ? null : uri.substring(query + 1), body, now);
            final boolean beforeStart = result == SvcAuthResult.OK &&
                svc.headers().timestampMs() < acceptsTimestampsFromMs;
            if (beforeStart)
            {
                result = SvcAuthResult.SKEW;
            }
            if (result == SvcAuthResult.OK)
            {
                synchronized (nonces)
                {
                    result = nonces.accept(svc.headers().apiKeyId(), svc.headers().nonce());
                    if (result == SvcAuthResult.OK && store != null)
                    {
                        store.put(svc.headers().apiKeyId(), svc.headers().nonce());
                    }
                }
            }
            if (result == SvcAuthResult.OK)
            {
                return new Authenticated(key[0], svc.headers().apiKeyId(), null);
            }
            // an unknown key, a credential of the other kind and a bad signature are one answer: which keys exist is
            // nobody's business but their owners' (the journal keeps which it was, for the operator)
            final boolean unauthenticated = result == SvcAuthResult.UNKNOWN_KEY ||
                result == SvcAuthResult.CREDENTIAL_MISMATCH || result == SvcAuthResult.BAD_SIGNATURE;
            final String field = beforeStart ? SvcHeaders.TIMESTAMP : result == SvcAuthResult.NONCE_REPLAYED ?
                SvcHeaders.NONCE : unauthenticated ? SvcHeaders.SIGNATURE : svc.errorField();
            final String message = beforeStart ? "signed at " + svc.headers().timestampMs() +
                ", before this node started serving at " + acceptsTimestampsFromMs + " (its start, or its start or " +
                "promotion plus the 30 s skew when its record of used nonces may be incomplete; nonces used " +
                "before then " + "may be unknown to it): sign again with an SVC-Timestamp from " +
                acceptsTimestampsFromMs + " on; a client " +
                "whose clock is behind the server's (serverTimeMs) waits for it" :
                result == SvcAuthResult.NONCE_REPLAYED ?
                "this SVC-Nonce is not above the highest one accepted for the key: each is single use, send a " +
                "larger one" : unauthenticated ? UNAUTHENTICATED : svc.errorMessage();
            final RequestRejectReason reason = switch (result)
            {
                case SKEW -> RequestRejectReason.TIMESTAMP_SKEW;
                case NONCE_REPLAYED -> RequestRejectReason.MACHINE_NONCE_REPLAYED;
                default -> RequestRejectReason.TRANSPORT_AUTH_FAILED;
            };
            // the journal keeps the verifier's own result, field and message
            final String journalDetail = method + " " + rawPath + ": " + result + " (" +
                (unauthenticated ? svc.errorField() : field) + "): " + (unauthenticated ? svc.errorMessage() : message);
            return new Authenticated(null, null, new Failure(unauthenticated ? SvcAuthResult.UNAUTHENTICATED : result,
                field, message, now, beforeStart ? acceptsTimestampsFromMs : -1, reason, journalDetail));
        }
    }
}
