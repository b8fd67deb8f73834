package io.venue.engine.agent;

import io.venue.auth.AgentRotationText;
import io.venue.engine.StateDigest;
import io.venue.engine.account.AddressKeys;
import io.venue.engine.index.DirtySet;
import io.venue.engine.index.FixedKeyIndex;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * Delegated agents (spec 2.6, 3.3, 5.8): an agent belongs to an owner account, holds scopes and an expiry,
 * and signs with one or more secp256k1 credentials (signer addresses). Rotation adds a credential and lets
 * the previous one live for the overlap (24 hours by default); revocation ends one credential or the
 * agent; owner-revoke ends every agent of the owner. Times are stamped command times.
 * <p>
 * Agents and credentials are numbered densely in creation order; nothing iterates hash order.
 */
public final class Agents
{
    public static final int OK = 0;
    public static final int UNKNOWN_SIGNER = 1;
    public static final int REVOKED = 2;
    public static final int EXPIRED = 3;
    public static final int WRONG_ACCOUNT = 4;
    public static final int SCOPE_DENIED = 5;
    public static final int AGENT_EXISTS = 6;
    public static final int SIGNER_IN_USE = 7;
    public static final int UNKNOWN_AGENT = 8;
    public static final int NOT_OWNER = 9;
    public static final int TOO_MANY_AGENTS = 10;

    /** Agents one owner may hold unrevoked: an owner cannot fill the venue's agent capacity alone. */
    public static final int MAX_AGENTS_PER_OWNER = 64;

    public static final long ROTATION_OVERLAP_MS = AgentRotationText.OVERLAP_MS;
    private static final long FOREVER = Long.MAX_VALUE;
    private static final int ADDRESS_LONGS = 3;

    private final FixedKeyIndex credentialBySigner;
    private final Long2LongHashMap agentById = new Long2LongHashMap(-1);
    private final Long2LongHashMap credentialById = new Long2LongHashMap(-1);
    private final long[] key = new long[ADDRESS_LONGS];

    private long[] agentIds = new long[16];
    private int[] owners = new int[16];
    private int[] scopes = new int[16];
    private long[] expiresAt = new long[16];
    private boolean[] agentRevoked = new boolean[16];
    private int agentCount;

    private long[] credentialIds = new long[16];
    private int[] credentialAgent = new int[16];
    private long[] credentialValidUntil = new long[16];
    private boolean[] credentialRevoked = new boolean[16];
    /** The signer address of each signing credential as three longs (as in the index); all zero otherwise. */
    private long[] credentialSigners = new long[16 * ADDRESS_LONGS];
    private boolean[] credentialSigns = new boolean[16];
    private int credentialCount;

    private DirtySet changedAgents;
    private DirtySet changedCredentials;

    public Agents(final int expectedCredentials)
    {
        credentialBySigner = new FixedKeyIndex(ADDRESS_LONGS, expectedCredentials);
    }

    /**
     * May this signer act for {@code account} with scope bit {@code scope} at {@code nowMs}?
     *
     * @return {@link #OK} or the reason it may not.
     */
    public int authorize(final DirectBuffer signer, final int signerOffset, final int account, final int scope,
        final long nowMs)
    {
        final int credential = credentialOf(signer, signerOffset);
        if (credential == FixedKeyIndex.MISSING)
        {
            return UNKNOWN_SIGNER;
        }
        return authorizeFound(credential, account, scope, nowMs);
    }

    /**
     * May the credential {@code credentialId} (an agent credential's id, as a session lane authenticated it) act for
     * {@code account} with scope bit {@code scope} at {@code nowMs}? The same checks as {@link #authorize}, found by id
     * rather than by signer address (a SESSION_CREDENTIAL command, journal version 13).
     *
     * @return {@link #OK} or the reason it may not.
     */
    public int authorizeCredential(final long credentialId, final int account, final int scope, final long nowMs)
    {
        final long found = credentialById.get(credentialId);
        if (found < 0)
        {
            return UNKNOWN_SIGNER;
        }
        final int credential = (int)found;
        return authorizeFound(credential, account, scope, nowMs);
    }

    /**
     * The account the credential's agent acts for, when the credential and its agent are neither revoked nor expired
     * at {@code nowMs}; -1 otherwise (unknown included).
     */
    public int activeCredentialOwner(final long credentialId, final long nowMs)
    {
        final long found = credentialById.get(credentialId);
        if (found < 0)
        {
            return -1;
        }
        final int credential = (int)found;
        final int agent = credentialAgent[credential];
        if (credentialRevoked[credential] || agentRevoked[agent] || nowMs >= credentialValidUntil[credential] ||
            nowMs >= expiresAt[agent])
        {
            return -1;
        }
        return owners[agent];
    }

    /** The checks of a credential found, by signer or by id. */
    private int authorizeFound(final int credential, final int account, final int scope, final long nowMs)
    {
        final int agent = credentialAgent[credential];
        if (credentialRevoked[credential] || agentRevoked[agent])
        {
            return REVOKED;
        }
        if (nowMs >= credentialValidUntil[credential] || nowMs >= expiresAt[agent])
        {
            return EXPIRED;
        }
        if (owners[agent] != account)
        {
            return WRONG_ACCOUNT;
        }
        return (scopes[agent] & scope) == scope ? OK : SCOPE_DENIED;
    }

    /**
     * Creates an active agent with its first credential, whose id is the agent id. {@code signer} is the
     * secp256k1 address that signs actions, or null for an Ed25519 agent (transport authentication only).
     */
    public int create(
        final int owner,
        final long agentId,
        final DirectBuffer signer,
        final int signerOffset,
        final int scopeBits,
        final long expiresAtMs)
    {
        if (agentById.containsKey(agentId) || credentialById.containsKey(agentId))
        {
            return AGENT_EXISTS;
        }
        if (signer != null && credentialOf(signer, signerOffset) != FixedKeyIndex.MISSING)
        {
            return SIGNER_IN_USE;
        }
        int held = 0;
        for (int other = 0; other < agentCount; other++)
        {
            if (owners[other] == owner && !agentRevoked[other])
            {
                held++;
            }
        }
        if (held >= MAX_AGENTS_PER_OWNER)
        {
            return TOO_MANY_AGENTS;
        }
        final int agent = agentCount++;
        ensureAgents(agentCount);
        agentIds[agent] = agentId;
        owners[agent] = owner;
        scopes[agent] = scopeBits;
        expiresAt[agent] = expiresAtMs;
        agentById.put(agentId, agent);
        changed(agent);
        addCredential(agent, agentId, signer != null, FOREVER);
        return OK;
    }

    /**
     * Adds a new credential ({@code newSigner} null for Ed25519); the agent's live credentials stay valid
     * until {@code overlapEnd} (the stamped time plus {@link #ROTATION_OVERLAP_MS}). A revoked or expired agent
     * is gone: it cannot be rotated back to life ({@link #UNKNOWN_AGENT}).
     */
    public int rotate(
        final int owner,
        final long agentId,
        final long newCredentialId,
        final DirectBuffer newSigner,
        final int signerOffset,
        final long overlapEnd,
        final long nowMs)
    {
        final int agent = ownedAgent(owner, agentId);
        if (agent < 0)
        {
            return -agent;
        }
        if (agentRevoked[agent] || expiresAt[agent] <= nowMs)
        {
            return UNKNOWN_AGENT;
        }
        if (credentialById.containsKey(newCredentialId))
        {
            return AGENT_EXISTS;
        }
        if (newSigner != null && credentialOf(newSigner, signerOffset) != FixedKeyIndex.MISSING)
        {
            return SIGNER_IN_USE;
        }
        for (int credential = 0; credential < credentialCount; credential++)
        {
            if (credentialAgent[credential] == agent && credentialValidUntil[credential] > overlapEnd)
            {
                credentialValidUntil[credential] = overlapEnd;
                credentialChanged(credential);
            }
        }
        addCredential(agent, newCredentialId, newSigner != null, FOREVER);
        return OK;
    }

    /** Revokes the whole agent. */
    public int revokeAgent(final int owner, final long agentId)
    {
        final int agent = ownedAgent(owner, agentId);
        if (agent < 0)
        {
            return -agent;
        }
        agentRevoked[agent] = true;
        changed(agent);
        return OK;
    }

    /** Revokes one credential (by its id) of the owner's agent. */
    public int revokeCredential(final int owner, final long agentId, final long credentialId)
    {
        final int agent = ownedAgent(owner, agentId);
        if (agent < 0)
        {
            return -agent;
        }
        final int credential = (int)credentialById.get(credentialId);
        if (credential < 0 || credentialAgent[credential] != agent)
        {
            return UNKNOWN_SIGNER;
        }
        credentialRevoked[credential] = true;
        credentialChanged(credential);
        return OK;
    }

    /** The emergency path: every agent of the owner is revoked. Returns how many were active. */
    public int ownerRevoke(final int owner)
    {
        int revoked = 0;
        for (int agent = 0; agent < agentCount; agent++)
        {
            if (owners[agent] == owner && !agentRevoked[agent])
            {
                agentRevoked[agent] = true;
                changed(agent);
                revoked++;
            }
        }
        return revoked;
    }

    public int agentCount()
    {
        return agentCount;
    }

    /** The owner account of an agent id, or -1. */
    public int ownerOf(final long agentId)
    {
        final int agent = (int)agentById.get(agentId);
        return agent < 0 ? -1 : owners[agent];
    }

    /**
     * From now on, every agent and credential number whose record changes is added to the given sets, for a
     * write-through mirror.
     */
    public void track(final DirtySet changedAgents, final DirtySet changedCredentials)
    {
        this.changedAgents = changedAgents;
        this.changedCredentials = changedCredentials;
    }

    public long agentId(final int agent)
    {
        return agentIds[agent];
    }

    public int owner(final int agent)
    {
        return owners[agent];
    }

    public int scopes(final int agent)
    {
        return scopes[agent];
    }

    public long expiresAt(final int agent)
    {
        return expiresAt[agent];
    }

    public boolean isRevoked(final int agent)
    {
        return agentRevoked[agent];
    }

    public int credentialCount()
    {
        return credentialCount;
    }

    public long credentialId(final int credential)
    {
        return credentialIds[credential];
    }

    public int credentialAgent(final int credential)
    {
        return credentialAgent[credential];
    }

    public long credentialValidUntil(final int credential)
    {
        return credentialValidUntil[credential];
    }

    public boolean isCredentialRevoked(final int credential)
    {
        return credentialRevoked[credential];
    }

    /** True if the credential signs actions (secp256k1), so it has a signer address. */
    public boolean signs(final int credential)
    {
        return credentialSigns[credential];
    }

    /** Writes a signing credential's 20-byte signer address into {@code buffer} at {@code offset}. */
    public void signerInto(final int credential, final MutableDirectBuffer buffer, final int offset)
    {
        AddressKeys.store(credentialSigners, credential * ADDRESS_LONGS, buffer, offset);
    }

    /** Re-creates an agent as it was stored: start-up only, in agent-number order. Returns its number. */
    public int restoreAgent(final long agentId, final int owner, final int scopeBits, final long expiresAtMs,
        final boolean revoked)
    {
        final int agent = agentCount++;
        ensureAgents(agentCount);
        agentIds[agent] = agentId;
        owners[agent] = owner;
        scopes[agent] = scopeBits;
        expiresAt[agent] = expiresAtMs;
        agentRevoked[agent] = revoked;
        agentById.put(agentId, agent);
        return agent;
    }

    /**
     * Re-creates a credential as it was stored: start-up only, in credential-number order, after its agent.
     * {@code signer} is null for a credential that does not sign. Returns its number.
     */
    public int restoreCredential(
        final int agent,
        final long credentialId,
        final DirectBuffer signer,
        final int signerOffset,
        final long validUntil,
        final boolean revoked)
    {
        if (null != signer)
        {
            loadKey(signer, signerOffset);
        }
        final int credential = credentialCount;
        addCredential(agent, credentialId, null != signer, validUntil);
        credentialRevoked[credential] = revoked;
        return credential;
    }

    /** Feeds every agent and credential, in creation order, to a state digest. */
    public void hashInto(final StateDigest digest)
    {
        digest.putInt(agentCount);
        for (int agent = 0; agent < agentCount; agent++)
        {
            digest.putLong(agentIds[agent]).putInt(owners[agent]).putInt(scopes[agent]).putLong(expiresAt[agent])
                .putBoolean(agentRevoked[agent]);
        }
        digest.putInt(credentialCount);
        for (int credential = 0; credential < credentialCount; credential++)
        {
            digest.putLong(credentialIds[credential]).putInt(credentialAgent[credential])
                .putLong(credentialValidUntil[credential]).putBoolean(credentialRevoked[credential]);
        }
    }

    /** -reason if the agent is unknown or not the owner's, else its number. */
    private int ownedAgent(final int owner, final long agentId)
    {
        final int agent = (int)agentById.get(agentId);
        if (agent < 0)
        {
            return -UNKNOWN_AGENT;
        }
        return owners[agent] == owner ? agent : -NOT_OWNER;
    }

    private int credentialOf(final DirectBuffer signer, final int offset)
    {
        loadKey(signer, offset);
        return credentialBySigner.get(key, 0);
    }

    /** A signing credential uses the key loaded by the preceding {@link #credentialOf} call. */
    private void addCredential(final int agent, final long credentialId, final boolean signs, final long validUntil)
    {
        final int credential = credentialCount++;
        if (credentialCount > credentialAgent.length)
        {
            final int capacity = credentialAgent.length * 2;
            credentialIds = Arrays.copyOf(credentialIds, capacity);
            credentialAgent = Arrays.copyOf(credentialAgent, capacity);
            credentialValidUntil = Arrays.copyOf(credentialValidUntil, capacity);
            credentialRevoked = Arrays.copyOf(credentialRevoked, capacity);
            credentialSigners = Arrays.copyOf(credentialSigners, capacity * ADDRESS_LONGS);
            credentialSigns = Arrays.copyOf(credentialSigns, capacity);
        }
        credentialIds[credential] = credentialId;
        credentialAgent[credential] = agent;
        credentialValidUntil[credential] = validUntil;
        credentialById.put(credentialId, credential);
        if (signs)
        {
            credentialBySigner.put(key, 0, credential);
            System.arraycopy(key, 0, credentialSigners, credential * ADDRESS_LONGS, ADDRESS_LONGS);
            credentialSigns[credential] = true;
        }
        credentialChanged(credential);
    }

    private void changed(final int agent)
    {
        if (null != changedAgents)
        {
            changedAgents.add(agent);
        }
    }

    private void credentialChanged(final int credential)
    {
        if (null != changedCredentials)
        {
            changedCredentials.add(credential);
        }
    }

    private void loadKey(final DirectBuffer buffer, final int offset)
    {
        AddressKeys.load(buffer, offset, key);
    }

    private void ensureAgents(final int needed)
    {
        if (needed > agentIds.length)
        {
            final int capacity = agentIds.length * 2;
            agentIds = Arrays.copyOf(agentIds, capacity);
            owners = Arrays.copyOf(owners, capacity);
            scopes = Arrays.copyOf(scopes, capacity);
            expiresAt = Arrays.copyOf(expiresAt, capacity);
            agentRevoked = Arrays.copyOf(agentRevoked, capacity);
        }
    }
}
