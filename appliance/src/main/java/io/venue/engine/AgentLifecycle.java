package io.venue.engine;

import io.venue.engine.agent.Agents;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.journal.sbe.AgentChangedEncoder;
import io.venue.journal.sbe.AgentCreateDecoder;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.AgentRevokeDecoder;
import io.venue.journal.sbe.AgentRotateDecoder;
import io.venue.journal.sbe.AgentState;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.OwnerRevokeDecoder;
import io.venue.journal.sbe.RejectCode;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The agent lifecycle (spec 3.3, 5.8). The owner's EIP-191 authorization was verified before the
 * journal; here its single-use nonce is consumed in the owner's nonce window and the change is applied.
 * Each applied change is an AgentChanged event; a refusal is an ActionRejected naming the owner, the
 * nonce and the authorization's digest.
 * <ul>
 *   <li>create: ACTIVE, credentialId = agentId, validUntil = the agent's expiry;</li>
 *   <li>rotate: ROTATED, credentialId = the new credential, validUntil = the end of the overlap during
 *   which every earlier credential stays valid;</li>
 *   <li>revoke: REVOKED for one credential, or for the whole agent with credentialId zero (the first credential's id
 *   is the agent id, so only zero says "every credential");</li>
 *   <li>owner-revoke: REVOKED with agentId and credentialId zero, meaning every agent of the owner.</li>
 * </ul>
 */
final class AgentLifecycle
{
    /** A record the engine refuses on its face (unknown key kind, expiry not after issue). */
    private static final int INVALID_REQUEST = -1;
    /** The agent or credential limit of {@code EngineConfig.stateLimits} is reached. */
    private static final int CAPACITY = -2;

    private static final byte[] EVERY_CREDENTIAL = new byte[8];

    private final ShardState state;
    private final Gate gate;

    AgentLifecycle(final ShardState state, final Gate gate)
    {
        this.state = state;
        this.gate = gate;
    }

    void onCreate(final AgentCreateDecoder create)
    {
        final DirectBuffer buffer = create.buffer();
        final int offset = create.offset();
        final int ownerOffset = offset + AgentCreateDecoder.ownerEncodingOffset();
        final int digestOffset = offset + AgentCreateDecoder.intentDigestEncodingOffset();
        final int owner = gate.admitOwner(buffer, ownerOffset, create.nonce(), buffer, digestOffset);
        if (owner < 0)
        {
            return;
        }
        final long agentId = buffer.getLong(offset + AgentCreateDecoder.agentIdEncodingOffset(), ByteOrder.BIG_ENDIAN);
        final boolean secp256k1 = create.keyKind() == AgentKeyKind.SECP256K1;
        final var limits = state.config.stateLimits();
        final int result = create.expiresAtMs() <= create.issuedAtMs() || create.keyKind() == AgentKeyKind.NULL_VAL ?
            INVALID_REQUEST :
            state.agents.agentCount() >= limits.agents() || state.agents.credentialCount() >= limits.credentials() ?
            CAPACITY : state.agents.create(owner, agentId, secp256k1 ? buffer : null,
                offset + AgentCreateDecoder.agentKeyEncodingOffset(),
                create.scopes().getRaw(), create.expiresAtMs());
        if (result != Agents.OK)
        {
            refuse(buffer, ownerOffset, create.nonce(), digestOffset, owner, result);
            return;
        }
        state.events.actionAccepted(buffer, ownerOffset, create.nonce(), buffer, digestOffset);
        final AgentChangedEncoder changed = state.events.agentChanged();
        changed.putOwner(buffer, ownerOffset, 20)
            .putAgentId(buffer, offset + AgentCreateDecoder.agentIdEncodingOffset(), 8)
            .putCredentialId(buffer, offset + AgentCreateDecoder.agentIdEncodingOffset(), 8)
            .state(AgentState.ACTIVE).keyKind(create.keyKind())
            .putAgentKey(buffer, offset + AgentCreateDecoder.agentKeyEncodingOffset(), 32)
            .agentKind(create.agentKind()).validUntilMs(create.expiresAtMs());
        changed.buffer()
            .putByte(changed.offset() + AgentChangedEncoder.scopesEncodingOffset(), (byte)create.scopes().getRaw());
        state.events.emitAgentChanged();
    }

    void onRotate(final AgentRotateDecoder rotate)
    {
        final DirectBuffer buffer = rotate.buffer();
        final int offset = rotate.offset();
        final int ownerOffset = offset + AgentRotateDecoder.ownerEncodingOffset();
        final int digestOffset = offset + AgentRotateDecoder.intentDigestEncodingOffset();
        final int owner = knownOwner(buffer, ownerOffset, rotate.nonce(), digestOffset);
        if (owner < 0 || !consume(buffer, ownerOffset, rotate.nonce(), digestOffset, owner))
        {
            return;
        }
        final long agentId = buffer.getLong(offset + AgentRotateDecoder.agentIdEncodingOffset(), ByteOrder.BIG_ENDIAN);
        final long credentialId = buffer.getLong(offset + AgentRotateDecoder.newCredentialIdEncodingOffset(),
            ByteOrder.BIG_ENDIAN);
        final boolean secp256k1 = rotate.keyKind() == AgentKeyKind.SECP256K1;
        final int result = rotate.keyKind() == AgentKeyKind.NULL_VAL ? INVALID_REQUEST :
            state.agents.credentialCount() >= state.config.stateLimits().credentials() ? CAPACITY : state.agents.rotate(
            owner, agentId, credentialId, secp256k1 ? buffer : null,
            offset + AgentRotateDecoder.agentKeyEncodingOffset(),
            rotate.overlapUntilMs(), rotate.timestampMs());
        if (result != Agents.OK)
        {
            refuse(buffer, ownerOffset, rotate.nonce(), digestOffset, owner, result);
            return;
        }
        state.events.actionAccepted(buffer, ownerOffset, rotate.nonce(), buffer, digestOffset);
        final AgentChangedEncoder changed = state.events.agentChanged();
        changed.putOwner(buffer, ownerOffset, 20)
            .putAgentId(buffer, offset + AgentRotateDecoder.agentIdEncodingOffset(), 8)
            .putCredentialId(buffer, offset + AgentRotateDecoder.newCredentialIdEncodingOffset(), 8)
            .state(AgentState.ROTATED).keyKind(rotate.keyKind())
            .putAgentKey(buffer, offset + AgentRotateDecoder.agentKeyEncodingOffset(), 32)
            .validUntilMs(rotate.overlapUntilMs());
        state.events.emitAgentChanged();
    }

    void onRevoke(final AgentRevokeDecoder revoke)
    {
        final DirectBuffer buffer = revoke.buffer();
        final int offset = revoke.offset();
        final int ownerOffset = offset + AgentRevokeDecoder.ownerEncodingOffset();
        final int digestOffset = offset + AgentRevokeDecoder.intentDigestEncodingOffset();
        final int owner = knownOwner(buffer, ownerOffset, revoke.nonce(), digestOffset);
        if (owner < 0 || !consume(buffer, ownerOffset, revoke.nonce(), digestOffset, owner))
        {
            return;
        }
        final long agentId = buffer.getLong(offset + AgentRevokeDecoder.agentIdEncodingOffset(), ByteOrder.BIG_ENDIAN);
        final boolean all = revoke.allCredentials() == BooleanType.TRUE;
        final int credentialOffset = AgentRevokeDecoder.credentialIdEncodingOffset();
        final int result = all ? state.agents.revokeAgent(owner, agentId) :
            state.agents.revokeCredential(owner, agentId,
                buffer.getLong(offset + credentialOffset, ByteOrder.BIG_ENDIAN));
        if (result != Agents.OK)
        {
            refuse(buffer, ownerOffset, revoke.nonce(), digestOffset, owner, result);
            return;
        }
        state.events.actionAccepted(buffer, ownerOffset, revoke.nonce(), buffer, digestOffset);
        final AgentChangedEncoder changed = state.events.agentChanged();
        changed.putOwner(buffer, ownerOffset, 20)
            .putAgentId(buffer, offset + AgentRevokeDecoder.agentIdEncodingOffset(), 8);
        if (all)
        {
            changed.putCredentialId(EVERY_CREDENTIAL, 0, 8);
        }
        else
        {
            changed.putCredentialId(buffer, offset + credentialOffset, 8);
        }
        changed.state(AgentState.REVOKED).validUntilMs(revoke.timestampMs());
        state.events.emitAgentChanged();
    }

    void onOwnerRevoke(final OwnerRevokeDecoder revoke)
    {
        final DirectBuffer buffer = revoke.buffer();
        final int offset = revoke.offset();
        final int ownerOffset = offset + OwnerRevokeDecoder.ownerEncodingOffset();
        final int digestOffset = offset + OwnerRevokeDecoder.intentDigestEncodingOffset();
        final int owner = knownOwner(buffer, ownerOffset, revoke.nonce(), digestOffset);
        if (owner < 0 || !consume(buffer, ownerOffset, revoke.nonce(), digestOffset, owner))
        {
            return;
        }
        state.agents.ownerRevoke(owner);
        state.events.actionAccepted(buffer, ownerOffset, revoke.nonce(), buffer, digestOffset);
        state.events.agentChanged().putOwner(buffer, ownerOffset, 20).state(AgentState.REVOKED)
            .validUntilMs(revoke.timestampMs());
        state.events.emitAgentChanged();
    }

    /** An owner that has never been seen has no agents: refuse without numbering it. */
    private int knownOwner(final DirectBuffer buffer, final int ownerOffset, final long nonce, final int digestOffset)
    {
        final int owner = state.accounts.find(buffer, ownerOffset);
        if (owner == FixedKeyIndex.MISSING)
        {
            gate.reject(buffer, ownerOffset, nonce, buffer, digestOffset, -1, RejectCode.UNKNOWN_AGENT, -1);
            return -1;
        }
        return owner;
    }

    private boolean consume(final DirectBuffer buffer, final int ownerOffset, final long nonce, final int digestOffset,
        final int owner)
    {
        final RejectCode refusal = gate.consumeNonce(owner, nonce);
        if (refusal != null)
        {
            gate.reject(buffer, ownerOffset, nonce, buffer, digestOffset, owner, refusal, -1);
            return false;
        }
        return true;
    }

    private void refuse(
        final DirectBuffer buffer, final int ownerOffset, final long nonce, final int digestOffset, final int owner,
        final int result)
    {
        final RejectCode code = switch (result)
        {
            // a new key that already signs for an agent is taken, like an agent id
            case Agents.AGENT_EXISTS, Agents.SIGNER_IN_USE -> RejectCode.AGENT_EXISTS;
            // no such agent, or no such credential of it
            case Agents.UNKNOWN_AGENT, Agents.UNKNOWN_SIGNER -> RejectCode.UNKNOWN_AGENT;
            case Agents.NOT_OWNER -> RejectCode.UNAUTHORIZED_SIGNER;
            case CAPACITY, Agents.TOO_MANY_AGENTS -> RejectCode.CAPACITY_LIMIT;
            default -> RejectCode.INVALID_ACTION;
        };
        gate.reject(buffer, ownerOffset, nonce, buffer, digestOffset, owner, code, -1);
    }
}
