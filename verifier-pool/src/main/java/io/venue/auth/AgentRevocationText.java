package io.venue.auth;

/**
 * The text an owner wallet signs with EIP-191 to revoke one credential of an agent, or all of them
 * (spec 3.3). Immutable; made by {@link Builder}.
 *
 * <pre>
 * Service Agent Revocation
 * owner:0x...
 * agent_id:spk_...
 * credential:spk_... | credential:all
 * nonce:u64
 * issued_at:ms
 * chain_id:u64
 * verifying_contract:0x...
 * </pre>
 */
public final class AgentRevocationText extends OwnerSignedText
{
    public static final String TITLE = "Service Agent Revocation";
    /** The credential value that revokes every credential of the agent, i.e. the agent itself. */
    public static final String ALL_CREDENTIALS = "all";

    private final String agentId;
    private final String credentialId;

    private AgentRevocationText(final Builder builder)
    {
        super(builder, TextLines.finish(
            new TextLines(TITLE)
                .line("owner", builder.owner)
                .line("agent_id", builder.agentId)
                .line("credential", builder.credentialId == null ? ALL_CREDENTIALS : builder.credentialId),
            builder,
            null,
            0));
        agentId = builder.agentId;
        credentialId = builder.credentialId;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public String agentId()
    {
        return agentId;
    }

    /** The spk_ id of the one credential revoked, or null when every credential of the agent is. */
    public String credentialId()
    {
        return credentialId;
    }

    public boolean revokesAll()
    {
        return credentialId == null;
    }

    /**
     * Collects the fields; {@link #problem()} names the first invalid one without throwing, {@link #build()}
     * throws it. Without {@link #credentialId(String)} the text revokes every credential of the agent.
     */
    public static final class Builder extends OwnerTextBuilder<Builder>
    {
        private String agentId;
        private String credentialId;

        private Builder()
        {
        }

        /** The agent's spk_ id. */
        public Builder agentId(final String agentId)
        {
            this.agentId = agentId;
            return this;
        }

        /** The spk_ id of the one credential to revoke; null (the default) revokes them all. */
        public Builder credentialId(final String credentialId)
        {
            this.credentialId = credentialId;
            return this;
        }

        @Override
        String problemOfOwnFields()
        {
            if (!Credentials.isApiKeyId(agentId))
            {
                return "agent_id must be spk_ followed by 16 lowercase hex digits";
            }
            if (credentialId != null && !Credentials.isApiKeyId(credentialId))
            {
                return "credential must be spk_ followed by 16 lowercase hex digits, or absent for all";
            }
            return null;
        }

        /**
         * @throws IllegalArgumentException naming the first invalid field.
         */
        public AgentRevocationText build()
        {
            throwIfProblem();
            return new AgentRevocationText(this);
        }
    }
}
