package io.venue.responder;

import io.venue.auth.CredentialSecrets;
import io.venue.auth.Credentials;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.entry.credential.ApiKey;
import io.venue.entry.credential.TokenSigners;
import io.venue.journal.sbe.AgentChangedDecoder;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.AgentKind;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.svc.SvcCredential;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every agent credential as the event journal tells it (AgentChanged), for the lanes' machine authentication: an
 * API key id to its account, scopes and validity. The event is the engine's decision, so a credential is usable
 * here exactly when the engine applied its creation, and stops when the engine applied its revocation. Written by
 * one thread at a time (the start-up scan, then the responder), read by the I/O threads.
 */
public final class AgentDirectory
{
    /** One agent: whose, which kind, what it may do, until when, and whether it was revoked whole. */
    private record Agent(String owner, AgentKind kind, int scopes, long expiresAtMs, List<String> credentials,
        boolean revoked)
    {
        Agent revoke()
        {
            return new Agent(owner, kind, scopes, expiresAtMs, credentials, true);
        }
    }

    /**
     * One credential: its agent, valid until {@code validUntilMs} unless revoked. {@code ed25519} holds an Ed25519
     * credential's public key; an HMAC credential holds nothing secret: its secret is derived when it is used, under
     * credential key {@code keyVersion} (0 for an Ed25519 credential).
     */
    private record Credential(String agentId, SvcCredential ed25519, int keyVersion, long validUntilMs,
        boolean revoked)
    {
        Credential until(final long untilMs)
        {
            return new Credential(agentId, ed25519, keyVersion, Math.min(validUntilMs, untilMs), revoked);
        }

        Credential revoke()
        {
            return new Credential(agentId, ed25519, keyVersion, validUntilMs, true);
        }
    }

    /** The id in an AgentChanged event that means "every" (agent or credential). */
    private static final String ZERO_ID = keyId(new byte[8]);

    private final AgentChangedDecoder changed = new AgentChangedDecoder();
    private final Map<String, Agent> agents = new ConcurrentHashMap<>();
    private final Map<String, Credential> credentials = new ConcurrentHashMap<>();
    /** A secp256k1 credential's signing address to its id. */
    private final Map<String, String> signers = new ConcurrentHashMap<>();
    private final byte[] owner = new byte[20];
    private final byte[] id = new byte[8];
    private final byte[] key = new byte[32];

    /** Credentials known, active or not. */
    public int credentials()
    {
        return credentials.size();
    }

    /**
     * The active credential with this API key id at {@code nowMs}, or null (unknown, revoked or expired); an HMAC
     * credential's secret is derived from {@code secrets} here, on each use.
     */
    public ApiKey find(final String apiKeyId, final long nowMs, final CredentialSecrets secrets)
    {
        final Credential credential = apiKeyId == null ? null : credentials.get(apiKeyId);
        final Agent agent = active(credential, nowMs);
        if (agent == null)
        {
            return null;
        }
        if (credential.ed25519 == null && !secrets.holds(credential.keyVersion))
        {
            // issued under a key version retired since (it leaked): refused like an unknown key
            return null;
        }
        final SvcCredential svc = credential.ed25519 != null ? credential.ed25519 :
            secrets.hmacCredential(apiKeyId, credential.keyVersion);
        return new ApiKey(svc, agent.owner, agent.scopes, agent.kind == AgentKind.INSTITUTIONAL);
    }

    /**
     * The credential key versions the HMAC credentials active at {@code nowMs} were issued under, each to how many
     * use it: a version may be retired once no active credential needs it.
     */
    public SortedMap<Integer, Integer> keyVersionsInUse(final long nowMs)
    {
        final SortedMap<Integer, Integer> inUse = new TreeMap<>();
        credentials.values().forEach(credential ->
        {
            if (credential.ed25519 == null && active(credential, nowMs) != null)
            {
                inUse.merge(credential.keyVersion, 1, Integer::sum);
            }
        });
        return inUse;
    }

    /**
     * The active secp256k1 credential that signs with {@code signer} (0x address) for {@code account}, as its id and
     * scopes; null when there is none (unknown, another account's, revoked or expired).
     */
    public TokenSigners.Grant signerFor(final String account, final String signer, final long nowMs)
    {
        final String credentialId = signers.get(signer);
        final Agent agent = credentialId == null ? null : active(credentials.get(credentialId), nowMs);
        return agent == null || !agent.owner.equals(account) ? null :
            new TokenSigners.Grant(credentialId, (agent.scopes & Scope.READ.bit()) != 0);
    }

    /** The credential's agent when both are active at {@code nowMs}; else null. */
    private Agent active(final Credential credential, final long nowMs)
    {
        if (credential == null || credential.revoked || nowMs >= credential.validUntilMs)
        {
            return null;
        }
        final Agent agent = agents.get(credential.agentId);
        return agent == null || agent.revoked || nowMs >= agent.expiresAtMs ? null : agent;
    }

    /** Applies an AgentChanged event; others are ignored. {@code header} is wrapped at {@code offset}. */
    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
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
                    changed.validUntilMs(), ids, false));
                credentials.put(credentialId,
                    credential(agentId, credentialId, changed.validUntilMs(), header.version()));
            }
            case ROTATED ->
            {
                final Agent agent = agents.get(agentId);
                if (agent != null && !agent.revoked)
                {
                    for (final String earlier : agent.credentials)
                    {
                        credentials.computeIfPresent(earlier, (k, c) -> c.until(changed.validUntilMs()));
                    }
                    agent.credentials.add(credentialId);
                    credentials.put(credentialId,
                        credential(agentId, credentialId, agent.expiresAtMs, header.version()));
                }
            }
            case REVOKED ->
            {
                if (noAgent)
                {
                    agents.replaceAll((key, agent) -> agent.owner.equals(ownerAddress) ? agent.revoke() : agent);
                }
                else if (credentialId.equals(ZERO_ID))
                {
                    agents.computeIfPresent(agentId, (key, agent) -> agent.revoke());
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

    /** {@code version}: the event's, which is its command's (the engine writes each command's events in it). */
    private Credential credential(
        final String agentId, final String credentialId, final long validUntilMs, final int version)
    {
        changed.getAgentKey(key, 0, 32);
        final SvcCredential ed25519 = changed.keyKind() == AgentKeyKind.ED25519 ?
            SvcCredential.ed25519(credentialId, key.clone()) :
            null;
        if (ed25519 == null)
        {
            signers.put(Hex.to0x(Arrays.copyOf(key, 20)), credentialId);
        }
        final int keyVersion = ed25519 != null ? 0 : JournalRecords.credentialKeyVersion(version, id[0]);
        return new Credential(agentId, ed25519, keyVersion, validUntilMs, false);
    }

    private static String keyId(final byte[] bytes)
    {
        return Credentials.API_KEY_ID_PREFIX + Hex.toHex(bytes);
    }
}
