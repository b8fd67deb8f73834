package io.venue.entry.credential;

/**
 * Who may obtain a private token for an account by signing its {@code WsTokenText} (spec 5.7's "delegated wallet
 * signature"): the account itself, its vault owner, or an active secp256k1 agent of the account.
 */
@FunctionalInterface
public interface TokenSigners
{
    /**
     * @param credentialId the agent credential that signed, or empty for the account or its vault owner; a token
     *                     names it, so revoking the credential ends the token.
     * @param readScope    whether the signer may read (always for the account and its owner).
     */
    record Grant(String credentialId, boolean readScope)
    {
    }

    /** What {@code signer} (0x address) may do for {@code account} at {@code nowMs}; null: it does not sign for it. */
    Grant grant(String account, String signer, long nowMs);
}
