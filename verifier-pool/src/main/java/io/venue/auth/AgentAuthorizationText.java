package io.venue.auth;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The text an owner wallet signs with EIP-191 to authorize a delegated agent once (spec 2.5, 5.8).
 * Immutable; made by {@link Builder}, which checks every field and the lifetime cap of the agent kind
 * (spec 8.5).
 *
 * <pre>
 * Service Agent Authorization
 * app:service-trading
 * owner:0x...                 (20 bytes)
 * agent:0x... | ed25519:...   (see {@link AgentKey})
 * agent_kind:api|institutional|browser|mobile
 * scopes:trade,cancel,...     (fixed order of {@link Scope})
 * policy:...                  (printable ASCII, may be empty)
 * delivery_key:x25519:...     (secp256k1 agents only: the key the HMAC secret is sealed to, {@link CredentialDelivery})
 * nonce:u64
 * issued_at:ms
 * expires_at:ms
 * chain_id:u64
 * verifying_contract:0x...
 * </pre>
 */
public final class AgentAuthorizationText extends OwnerSignedText
{
    public static final String TITLE = "Service Agent Authorization";
    public static final String APP_ID = "service-trading";
    /** Bounds the signed text; a policy is a short rule, not a document. */
    public static final int MAX_POLICY_LENGTH = 1024;

    private final AgentKey agent;
    private final AgentKind kind;
    private final Set<Scope> scopes;
    private final String policy;
    private final long expiresAtMs;
    private final String deliveryKey;

    private AgentAuthorizationText(final Builder builder)
    {
        super(builder, TextLines.finish(
            new TextLines(TITLE)
                .line("app", APP_ID)
                .line("owner", builder.owner)
                .line("agent", builder.agent.text())
                .line("agent_kind", builder.kind.wire())
                .line("scopes", Scope.join(builder.scopes))
                .line("policy", builder.policy)
                .lineIfSet("delivery_key", builder.deliveryKey),
            builder,
            "expires_at",
            builder.expiresAtMs));
        agent = builder.agent;
        kind = builder.kind;
        scopes = Collections.unmodifiableSet(EnumSet.copyOf(builder.scopes));
        policy = builder.policy;
        expiresAtMs = builder.expiresAtMs;
        deliveryKey = builder.deliveryKey;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public AgentKey agent()
    {
        return agent;
    }

    public AgentKind kind()
    {
        return kind;
    }

    /** Unmodifiable, iterates in the fixed order. */
    public Set<Scope> scopes()
    {
        return scopes;
    }

    public String policy()
    {
        return policy;
    }

    public long expiresAtMs()
    {
        return expiresAtMs;
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
        private AgentKey agent;
        private AgentKind kind;
        private final EnumSet<Scope> scopes = EnumSet.noneOf(Scope.class);
        private String policy;
        private long expiresAtMs = -1;
        private String deliveryKey;

        private Builder()
        {
        }

        public Builder agent(final AgentKey agent)
        {
            this.agent = agent;
            return this;
        }

        public Builder kind(final AgentKind kind)
        {
            this.kind = kind;
            return this;
        }

        /** Adds to the scopes; the order given does not matter. */
        public Builder scopes(final Scope... scopes)
        {
            Collections.addAll(this.scopes, scopes);
            return this;
        }

        /** Adds to the scopes; the order given does not matter. */
        public Builder scopes(final Set<Scope> scopes)
        {
            this.scopes.addAll(scopes);
            return this;
        }

        /** Printable ASCII, may be empty, at most {@link #MAX_POLICY_LENGTH} characters. */
        public Builder policy(final String policy)
        {
            this.policy = policy;
            return this;
        }

        /**
         * {@link CredentialDelivery#KEY_PREFIX} and 64 hex digits: the requester's key that the secret is sealed to;
         * required for a secp256k1 (HMAC) agent, not allowed for an Ed25519 agent (it gets no secret).
         */
        public Builder deliveryKey(final String deliveryKey)
        {
            this.deliveryKey = deliveryKey;
            return this;
        }

        /** Unix milliseconds, after issued_at and within the cap of the agent kind. */
        public Builder expiresAtMs(final long expiresAtMs)
        {
            this.expiresAtMs = expiresAtMs;
            return this;
        }

        @Override
        String problemOfOwnFields()
        {
            if (agent == null)
            {
                return "agent is required";
            }
            if (kind == null)
            {
                return "agent_kind is required";
            }
            if (scopes.isEmpty())
            {
                return "scopes must name at least one scope";
            }
            if (policy == null)
            {
                return "policy is required (it may be empty)";
            }
            if (policy.length() > MAX_POLICY_LENGTH || !TextLines.isPrintableAscii(policy))
            {
                return "policy must be at most " + MAX_POLICY_LENGTH + " printable ASCII characters, no line feed";
            }
            return CredentialDelivery.problem(agent, deliveryKey);
        }

        @Override
        String problemAfterBinding()
        {
            if (expiresAtMs <= issuedAtMs)
            {
                return "expires_at must be after issued_at";
            }
            if (expiresAtMs - issuedAtMs > kind.maxLifetimeMs())
            {
                return "expires_at - issued_at exceeds the " + kind.wire() + " agent cap of " +
                    kind.maxLifetimeMs() + " ms";
            }
            return null;
        }

        /**
         * @throws IllegalArgumentException naming the first invalid field.
         */
        public AgentAuthorizationText build()
        {
            throwIfProblem();
            return new AgentAuthorizationText(this);
        }
    }
}
