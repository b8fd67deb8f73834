package io.venue.responder;

import io.venue.auth.CredentialSecrets;
import io.venue.codec.Hex;
import io.venue.journal.sbe.AgentChangedDecoder;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.AgentKind;
import io.venue.svc.SvcCredential;
import io.venue.transport.http.ApiKey;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every agent credential as the event journal tells it (AgentChanged), for the lanes' machine authentication: an
 * API key id to its account, scopes and validity. The event is the engine's decision, so a credential is usable
 * here exactly when the engine applied its creation, and stops when the engine applied its revocation. Written by
 * one thread at a time (the start-up scan, then the responder), read by the I/O threads.
 */
public final class AgentDirectory
{
    /** One agent: whose, which kind, what it may do, until when. */
    private record Agent(String owner, AgentKind kind, int scopes, long expiresAtMs, List<String> credentials)
    {
    }

    /** One credential: its agent and what verifies it, valid until {@code validUntilMs} unless revoked. */
    private record Credential(String agentId, SvcCredential svc, long validUntilMs, boolean revoked)
    {
        Credential until(final long untilMs)
        {
            return new Credential(agentId, svc, Math.min(validUntilMs, untilMs), revoked);
        }

        Credential revoke()
        {
            return new Credential(agentId, svc, validUntilMs, true);
        }
    }

    /** The id in an AgentChanged event that means "every" (agent or credential). */
    private static final String ZERO_ID = keyId(new byte[8]);

    private final CredentialSecrets secrets;
    private final AgentChangedDecoder changed = new AgentChangedDecoder();
    private final Map<String, Agent> agents = new ConcurrentHashMap<>();
    private final Map<String, Credential> credentials = new ConcurrentHashMap<>();
    private final byte[] owner = new byte[20];
    private final byte[] id = new byte[8];
    private final byte[] key = new byte[32];

    public AgentDirectory(final CredentialSecrets secrets)
    {
        this.secrets = secrets;
    }

    /** The active credential with this API key id at {@code nowMs}, or null (unknown, revoked or expired). */
    public ApiKey find(final String apiKeyId, final long nowMs)
    {
        final Credential credential = apiKeyId == null ? null : credentials.get(apiKeyId);
        if (credential == null || credential.revoked || nowMs >= credential.validUntilMs)
        {
            return null;
        }
        final Agent agent = agents.get(credential.agentId);
        return new ApiKey(credential.svc, agent.owner, agent.scopes, agent.kind == AgentKind.INSTITUTIONAL);
    }

    /** Applies an AgentChanged event; others are ignored. {@code header} is wrapped at {@code offset}. */
    void onEvent(final org.agrona.DirectBuffer buffer, final int offset, final io.venue.journal.sbe.MessageHeaderDecoder header)
    {
        if (header.templateId() != AgentChangedDecoder.TEMPLATE_ID)
        {
            return;
        }
        changed.wrapAndApplyHeader(buffer, offset, header);
        changed.getOwner(owner, 0, 20);
        final String ownerAddress = Hex.to0x(owner);
        changed.getAgentId(id, 0, 8);
        final String agentId = keyId(id);
        changed.getCredentialId(id, 0, 8);
        final String credentialId = keyId(id);
        final boolean noAgent = agentId.equals(ZERO_ID);
        switch (changed.state())
        {
            case ACTIVE ->
            {
                final List<String> ids = new ArrayList<>();
                ids.add(credentialId);
                agents.put(agentId, new Agent(ownerAddress, changed.agentKind(), changed.scopes().getRaw() & 0xFF,
                    changed.validUntilMs(), ids));
                credentials.put(credentialId, credential(agentId, credentialId, changed.validUntilMs()));
            }
            case ROTATED ->
            {
                final Agent agent = agents.get(agentId);
                if (agent != null)
                {
                    for (final String earlier : agent.credentials)
                    {
                        credentials.computeIfPresent(earlier, (k, c) -> c.until(changed.validUntilMs()));
                    }
                    agent.credentials.add(credentialId);
                    credentials.put(credentialId, credential(agentId, credentialId, agent.expiresAtMs));
                }
            }
            case REVOKED ->
            {
                if (noAgent)
                {
                    agents.forEach((agentKey, agent) ->
                    {
                        if (agent.owner.equals(ownerAddress))
                        {
                            revokeAll(agent);
                        }
                    });
                }
                else if (credentialId.equals(ZERO_ID))
                {
                    final Agent agent = agents.get(agentId);
                    if (agent != null)
                    {
                        revokeAll(agent);
                    }
                }
                else
                {
                    credentials.computeIfPresent(credentialId, (k, c) -> c.revoke());
                }
            }
            default ->
            {
                // a state this reader does not know: nothing to grant
            }
        }
    }

    private void revokeAll(final Agent agent)
    {
        for (final String credential : agent.credentials)
        {
            credentials.computeIfPresent(credential, (k, c) -> c.revoke());
        }
    }

    private Credential credential(final String agentId, final String credentialId, final long validUntilMs)
    {
        changed.getAgentKey(key, 0, 32);
        final SvcCredential svc = changed.keyKind() == AgentKeyKind.ED25519 ? SvcCredential.ed25519(credentialId, key.clone()) :
            secrets.hmacCredential(credentialId);
        return new Credential(agentId, svc, validUntilMs, false);
    }

    private static String keyId(final byte[] bytes)
    {
        return io.venue.auth.Credentials.API_KEY_ID_PREFIX + Hex.toHex(bytes);
    }
}
