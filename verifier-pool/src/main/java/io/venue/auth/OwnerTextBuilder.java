package io.venue.auth;

import io.venue.action.Address;

/**
 * The fields every owner-signed text carries: the owner wallet, a single-use nonce, the issue time and
 * the deployment binding (chain id and verifying contract), so a signature cannot be replayed on another
 * deployment.
 *
 * @param <B> the concrete builder, returned by the setters.
 */
public abstract class OwnerTextBuilder<B extends OwnerTextBuilder<B>>
{
    Address owner;
    long nonce;
    boolean nonceSet;
    long issuedAtMs = -1;
    long chainId;
    Address verifyingContract;

    OwnerTextBuilder()
    {
    }

    @SuppressWarnings("unchecked")
    private B self()
    {
        return (B)this;
    }

    /** The owner wallet, 20 bytes. */
    public final B owner(final Address owner)
    {
        this.owner = owner;
        return self();
    }

    /** A u64: values above Long.MAX_VALUE are passed as negative longs. */
    public final B nonce(final long nonce)
    {
        this.nonce = nonce;
        this.nonceSet = true;
        return self();
    }

    /** Unix milliseconds. */
    public final B issuedAtMs(final long issuedAtMs)
    {
        this.issuedAtMs = issuedAtMs;
        return self();
    }

    /** A non-zero u64. */
    public final B chainId(final long chainId)
    {
        this.chainId = chainId;
        return self();
    }

    public final B verifyingContract(final Address verifyingContract)
    {
        this.verifyingContract = verifyingContract;
        return self();
    }

    /** The first problem, naming the field, or null when the text can be built. */
    public final String problem()
    {
        if (owner == null)
        {
            return "owner is required";
        }
        final String own = problemOfOwnFields();
        if (own != null)
        {
            return own;
        }
        if (!nonceSet)
        {
            return "nonce is required";
        }
        if (issuedAtMs < 0)
        {
            return "issued_at is required, Unix milliseconds >= 0";
        }
        if (chainId == 0)
        {
            return "chain_id is required, a non-zero u64";
        }
        if (verifyingContract == null)
        {
            return "verifying_contract is required";
        }
        return problemAfterBinding();
    }

    /** Checks of the message's own fields, written between owner and nonce. */
    abstract String problemOfOwnFields();

    /** Checks that need the common fields, such as a lifetime; null by default. */
    String problemAfterBinding()
    {
        return null;
    }

    final void throwIfProblem()
    {
        final String problem = problem();
        if (problem != null)
        {
            throw new IllegalArgumentException(problem);
        }
    }
}
