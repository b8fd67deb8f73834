package io.venue.auth;

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
public final class OwnerRevokeText extends OwnerSignedText
{
    public static final String TITLE = "Service Owner Revoke";

    private OwnerRevokeText(final Builder builder)
    {
        super(builder, TextLines.finish(new TextLines(TITLE).line("owner", builder.owner), builder, null, 0));
    }

    public static Builder builder()
    {
        return new Builder();
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
