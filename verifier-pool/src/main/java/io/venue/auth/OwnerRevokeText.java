package io.venue.auth;

import io.venue.action.Address;

/**
 * The text an owner wallet signs with EIP-191 for the emergency path that revokes every agent of the
 * account (spec 3.3). Immutable; made by {@link Builder}.
 *
 * <pre>
 * Service Owner Revoke
 * owner:0x...
 * nonce:u64
 * issued_at:ms
 * chain_id:u64
 * verifying_contract:0x...
 * </pre>
 */
public final class OwnerRevokeText implements OwnerIntentText
{
    public static final String TITLE = "Service Owner Revoke";

    private final Address owner;
    private final long nonce;
    private final long issuedAtMs;
    private final long chainId;
    private final Address verifyingContract;
    private final String text;

    private OwnerRevokeText(final Builder builder)
    {
        owner = builder.owner;
        nonce = builder.nonce;
        issuedAtMs = builder.issuedAtMs;
        chainId = builder.chainId;
        verifyingContract = builder.verifyingContract;
        text = TextLines.finish(new TextLines(TITLE).line("owner", owner), builder, null, 0);
    }

    public static Builder builder()
    {
        return new Builder();
    }

    @Override
    public String text()
    {
        return text;
    }

    public Address owner()
    {
        return owner;
    }

    /** A u64. */
    public long nonce()
    {
        return nonce;
    }

    public long issuedAtMs()
    {
        return issuedAtMs;
    }

    /** A u64. */
    public long chainId()
    {
        return chainId;
    }

    public Address verifyingContract()
    {
        return verifyingContract;
    }

    @Override
    public String toString()
    {
        return text;
    }

    /**
     * Collects the fields; {@link #problem()} names the first invalid one without throwing, {@link #build()}
     * throws it.
     */
    public static final class Builder extends OwnerTextBuilder<Builder>
    {
        private Builder()
        {
        }

        @Override
        String problemOfOwnFields()
        {
            return null;
        }

        /**
         * @throws IllegalArgumentException naming the first invalid field.
         */
        public OwnerRevokeText build()
        {
            throwIfProblem();
            return new OwnerRevokeText(this);
        }
    }
}
