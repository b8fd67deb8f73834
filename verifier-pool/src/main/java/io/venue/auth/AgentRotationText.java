package io.venue.auth;

/**
 * The text an owner wallet signs with EIP-191 to rotate an agent to a new key (spec 3.3); the old
 * credential stays valid for the 24-hour overlap of spec 8.5. Immutable; made by {@link Builder}.
 *
 * <pre>
 * Service Agent Rotation
 * owner:0x...
 * agent_id:spk_...            (the agent being rotated)
 * new_agent:0x... | ed25519:...
 * delivery_key:x25519:...     (secp256k1 agents only: the key the HMAC secret is sealed to, {@link CredentialDelivery})
 * nonce:u64
 * issued_at:ms
 * chain_id:u64
 * verifying_contract:0x...
 * </pre>
 */
public final class AgentRotationText extends OwnerSignedText
{
    public static final String TITLE = "Service Agent Rotation";
    /** Spec 8.5: after a rotation the earlier credentials stay valid this long. */
    public static final long OVERLAP_MS = 24L * AgentKind.HOUR_MS;

    private final String agentId;
    private final AgentKey newAgent;
    private final String deliveryKey;

    private AgentRotationText(final Builder builder)
    {
        super(builder, TextLines.finish(
            new TextLines(TITLE)
                .line("owner", builder.owner)
                .line("agent_id", builder.agentId)
                .line("new_agent", builder.newAgent.text())
                .lineIfSet("delivery_key", builder.deliveryKey),
            builder,
            null,
            0));
        agentId = builder.agentId;
        newAgent = builder.newAgent;
        deliveryKey = builder.deliveryKey;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public String agentId()
    {
        return agentId;
    }

    public AgentKey newAgent()
    {
        return newAgent;
    }

    /** The X25519 key the new credential's secret is sealed to; null for an Ed25519 agent. */
    public String deliveryKey()
    {
        return deliveryKey;
    }

    /**
     * Collects the fields; {@link #problem()} names the first invalid one without throwing, {@link #build()}
     * throws it.
     */
    public static final class Builder extends OwnerTextBuilder<Builder>
    {
        private String agentId;
        private AgentKey newAgent;
        private String deliveryKey;

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

        /** As {@link AgentAuthorizationText.Builder#deliveryKey}, for the new key. */
        public Builder deliveryKey(final String deliveryKey)
        {
            this.deliveryKey = deliveryKey;
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
            return CredentialDelivery.problem(newAgent, deliveryKey);
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
