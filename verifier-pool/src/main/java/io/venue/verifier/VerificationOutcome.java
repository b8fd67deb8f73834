package io.venue.verifier;

/**
 * What the verifier decided about one request.
 */
public enum VerificationOutcome
{
    /** Parsed, canonically re-encoded, hashed and a signer recovered. Whether that signer may act for the
     * account (itself, its vault owner or a delegated agent) is the engine gate's decision. */
    VERIFIED,
    /** The body was refused by the strict parser; the detail is a {@link io.venue.action.json.ParseErrorCode}. */
    MALFORMED,
    /** The signature bytes cannot be a valid signature; the detail is a {@link io.venue.crypto.RecoveryStatus}. */
    BAD_SIGNATURE;

    private static final VerificationOutcome[] VALUES = values();

    static VerificationOutcome of(final int ordinal)
    {
        return VALUES[ordinal];
    }
}
