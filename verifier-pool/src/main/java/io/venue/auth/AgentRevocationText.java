package io.venue.auth;

import io.venue.action.Address;

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
public final class AgentRevocationText implements OwnerIntentText
{
    public static final String TITLE = "Service Agent Revocation";
    /** The credential value that revokes every credential of the agent, i.e. the agent itself. */
    public static final String ALL_CREDENTIALS = "all";

    private final Address owner;
    private final String agentId;
    private final String credentialId;
    private final long nonce;
    private final long issuedAtMs;
    private final long chainId;
    private final Address verifyingContract;
    private final String text;

    private AgentRevocationText(final Builder builder)
    {
        owner = builder.owner;
        agentId = builder.agentId;
        credentialId = builder.credentialId;
        nonce = builder.nonce;
        issuedAtMs = builder.issuedAtMs;
        chainId = builder.chainId;
        verifyingContract = builder.verifyingContract;
        text = TextLines.finish(
            new TextLines(TITLE)
                .line("owner", owner)
                .line("agent_id", agentId)
                .line("credential", credentialId == null ? ALL_CREDENTIALS : credentialId),
            builder,
            null,
            0);
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
