package io.venue.verifier;

/**
 * The addresses known to sign for accounts other than their own: secp256k1 agents and vault owners, as the event
 * journal has told them. The verifier asks it when the raw-mode signer is not the account: a signature that
 * recovers, in raw mode, to one of these addresses was made by that key in raw mode, so the personal-mode
 * candidate (which would be no one's address) is not worth a second recovery. The answer saves work only: the
 * engine's gate still decides who may sign for whom, so an address that is stale here changes no decision.
 */
@FunctionalInterface
public interface DelegateSigners
{
    /** Nobody: every action whose raw-mode signer is not its account is recovered in both modes. */
    DelegateSigners NONE = address -> false;

    /** Whether the 20-byte {@code address} has been an agent or a vault owner of some account. Called on verifier threads. */
    boolean contains(byte[] address);
}
