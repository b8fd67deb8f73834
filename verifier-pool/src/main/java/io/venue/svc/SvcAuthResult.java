package io.venue.svc;

/**
 * Every outcome of checking SVC-* headers and a signed request, with the HTTP status the transport
 * answers (docs/MACHINE-AUTH.md): malformed requests are 400, failed authentication 401, a replayed
 * nonce 409.
 */
public enum SvcAuthResult
{
    /** Headers well formed, signature and passphrase correct, timestamp within the skew. */
    OK(200),

    /** A required SVC-* header is absent. */
    MISSING_HEADER(400),

    /** A header is present but not in its exact format. */
    INVALID_HEADER(400),

    /** SVC-Auth-Version is a decimal other than 2 or 3. */
    UNSUPPORTED_AUTH_VERSION(400),

    /** SVC-Nonce is 18446744073709551615, reserved: the credential must be rotated. */
    NONCE_RESERVED(400),

    /** SVC-Nonce does not fit in an unsigned 64-bit integer. */
    NONCE_OUT_OF_RANGE(400),

    /** SVC-Passphrase sent with auth version 3, which has none. */
    PASSPHRASE_NOT_ALLOWED(400),

    /** Method, path, query or body cannot be put in the signed string unambiguously. */
    MALFORMED_REQUEST(400),

    /** No credential for SVC-Key (unknown, revoked or expired). */
    UNKNOWN_KEY(401),

    /** SVC-Auth-Version does not match the kind of the credential (HMAC for 2, Ed25519 for 3). */
    CREDENTIAL_MISMATCH(401),

    /** SVC-Timestamp is more than 30 s away from the server's clock. */
    SKEW(401),

    /** The signature does not verify over the signed string. */
    BAD_SIGNATURE(401),

    /** The signature verifies but SVC-Passphrase is not the credential's passphrase. */
    BAD_PASSPHRASE(401),

    /**
     * What the lanes answer for {@link #UNKNOWN_KEY}, {@link #CREDENTIAL_MISMATCH} and {@link #BAD_SIGNATURE}
     * alike (and for a session logon whose key, secret or passphrase is wrong), so that no one learns which keys
     * exist; never a result of {@link SvcVerifier}, whose results tell them apart for the journal.
     */
    UNAUTHENTICATED(401),

    /** SVC-Nonce is not above the highest nonce already accepted for the key (spec 3.2). */
    NONCE_REPLAYED(409);

    private final int httpStatus;

    SvcAuthResult(final int httpStatus)
    {
        this.httpStatus = httpStatus;
    }

    public int httpStatus()
    {
        return httpStatus;
    }
}
