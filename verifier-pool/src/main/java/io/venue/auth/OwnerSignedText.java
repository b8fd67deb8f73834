package io.venue.auth;

import io.venue.action.Address;

/**
 * What every text an owner wallet signs carries besides its own fields: the owner, a single-use nonce, the
 * issue time, the deployment binding, and the exact text. Subclasses are immutable and made by an
 * {@link OwnerTextBuilder}.
 */
public abstract class OwnerSignedText implements OwnerIntentText
{
    private final Address owner;
    private final long nonce;
    private final long issuedAtMs;
    private final long chainId;
    private final Address verifyingContract;
    private final String text;

    OwnerSignedText(final OwnerTextBuilder<?> builder, final String text)
    {
        owner = builder.owner;
        nonce = builder.nonce;
        issuedAtMs = builder.issuedAtMs;
        chainId = builder.chainId;
        verifyingContract = builder.verifyingContract;
        this.text = text;
    }

    @Override
    public final String text()
    {
        return text;
    }

    public final Address owner()
    {
        return owner;
    }

    /** A u64: compare with {@link Long#compareUnsigned}. */
    public final long nonce()
    {
        return nonce;
    }

    public final long issuedAtMs()
    {
        return issuedAtMs;
    }

    /** A u64. */
    public final long chainId()
    {
        return chainId;
    }

    public final Address verifyingContract()
    {
        return verifyingContract;
    }

    @Override
    public final String toString()
    {
        return text;
    }
}
