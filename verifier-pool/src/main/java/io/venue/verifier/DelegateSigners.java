package io.venue.verifier;

/**
 * Who signs for which account besides the account itself: its secp256k1 agents and its vault owner, as the event
 * journal has told them. The verifier asks it to save recoveries: a signature that recovers, in one preimage mode, to
 * the account or to one of the account's own delegates was made in that mode, so the other mode's candidate (which
 * would be no one's address) is not recovered. Only the account's owner (or the operator, for a vault) names its
 * delegates, so no one else can make the verifier skip a candidate of the account's actions; and the engine's gate
 * still decides who may sign for whom, so a stale pair (a revoked agent) changes no decision.
 */
@FunctionalInterface
public interface DelegateSigners
{
    /** Nobody: every action whose signer is not its account is recovered in both modes. */
    DelegateSigners NONE = (account, signer) -> false;

    /** Whether the 20-byte {@code signer} has been named an agent or the vault owner of the 20-byte {@code account}. */
    boolean signsFor(byte[] account, byte[] signer);
}
