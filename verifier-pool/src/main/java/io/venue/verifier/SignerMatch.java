package io.venue.verifier;

/**
 * How a verified signature relates to the payload's account. Each digest version and preimage mode is
 * tried only until one recovers to the account, so the common case costs one recovery.
 */
public enum SignerMatch
{
    /** The raw-mode signer over the v2 digest is the account. */
    ACCOUNT_RAW,
    /** The personal-mode (EIP-191) signer over the v2 digest is the account. */
    ACCOUNT_PERSONAL,
    /** v1 digest (migration flag on), raw mode, signed by the account. */
    ACCOUNT_RAW_V1,
    /** v1 digest (migration flag on), personal mode, signed by the account. */
    ACCOUNT_PERSONAL_V1,
    /** Neither mode recovers to the account: both v2 candidates are reported for the gate to check against
     * the vault owner and the delegated agents (the raw one alone when it is a known delegate,
     * {@link DelegateSigners}). */
    OTHER,
    /**
     * An admin action whose account signed its admin text with EIP-191 ({@link io.venue.auth.AdminActionText},
     * docs/MESSAGE-TEXTS.md section 6): neither v2 candidate is the account, and both are left zero.
     */
    ACCOUNT_ADMIN_TEXT;

    private static final SignerMatch[] VALUES = values();

    static SignerMatch of(final int ordinal)
    {
        return VALUES[ordinal];
    }

    public boolean isAccount()
    {
        return this != OTHER;
    }
}
