package io.venue.auth;

import io.venue.action.Address;

/**
 * The text an owner wallet signs with EIP-191 to rotate an agent to a new key (spec 3.3); the old
 * credential stays valid for the 24-hour overlap of spec 8.5. Immutable; made by {@link Builder}.
 *
 * <pre>
 * Service Agent Rotation
 * owner:0x...
 * agent_id:spk_...            (the agent being rotated)
 * new_agent:0x... | ed25519:...
 * nonce:u64
 * issued_at:ms
 * chain_id:u64
 * verifying_contract:0x...
 * </pre>
 */
public final class AgentRotationText implements OwnerIntentText
{
    public static final String TITLE = "Service Agent Rotation";

    private final Address owner;
    private final String agentId;
    private final AgentKey newAgent;
    private final long nonce;
    private final long issuedAtMs;
    private final long chainId;
    private final Address verifyingContract;
    private final String text;

    private AgentRotationText(final Builder builder)
    {
        owner = builder.owner;
        agentId = builder.agentId;
        newAgent = builder.newAgent;
        nonce = builder.nonce;
        issuedAtMs = builder.issuedAtMs;
        chainId = builder.chainId;
        verifyingContract = builder.verifyingContract;
        text = TextLines.finish(
            new TextLines(TITLE)
                .line("owner", owner)
                .line("agent_id", agentId)
                .line("new_agent", newAgent.text()),
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

    public AgentKey newAgent()
    {
        return newAgent;
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
        private String agentId;
        private AgentKey newAgent;

        private Builder()
        {
        }

        /** The agent's spk_ id. */
        public Builder agentId(final String agentId)
        {
            this.agentId = agentId;
            return this;
        }

        public Builder newAgent(final AgentKey newAgent)
        {
            this.newAgent = newAgent;
            return this;
        }

        @Override
        String problemOfOwnFields()
        {
            if (!Credentials.isApiKeyId(agentId))
            {
                return "agent_id must be spk_ followed by 16 lowercase hex digits";
            }
            if (newAgent == null)
            {
                return "new_agent is required";
            }
            return null;
        }

        /**
         * @throws IllegalArgumentException naming the first invalid field.
         */
        public AgentRotationText build()
        {
            throwIfProblem();
            return new AgentRotationText(this);
        }
    }
}
