package io.venue.engine;

import io.venue.action.Address;
import io.venue.journal.sbe.AgentCreateEncoder;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.AgentKind;
import io.venue.journal.sbe.AgentRevokeEncoder;
import io.venue.journal.sbe.AgentRotateEncoder;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.OwnerRevokeEncoder;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteOrder;
import java.util.List;

/**
 * Writes agent lifecycle commands as the REST layer will once it has verified the owner's signed intent.
 */
final class AgentCommands
{
    static final int TRADE = 1;
    static final int CANCEL = 2;

    private final EngineHarness harness;
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(512);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private long intentNonce;
    private AgentKeyKind keyKind = AgentKeyKind.SECP256K1;

    AgentCommands(final EngineHarness harness)
    {
        this.harness = harness;
    }

    List<String> create(final Address owner, final long agentId, final Address signer, final int scopes,
        final long expiresAtMs)
    {
        final AgentCreateEncoder e = new AgentCreateEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(harness.nextSequence()).timestampMs(harness.now).epoch(1);
        e.putOwner(owner.toBytes(), 0, 20);
        buffer.putLong(e.offset() + AgentCreateEncoder.agentIdEncodingOffset(), agentId, ByteOrder.BIG_ENDIAN);
        e.keyKind(keyKind).putAgentKey(key(signer), 0, 32).agentKind(AgentKind.API)
            .issuedAtMs(harness.now).expiresAtMs(expiresAtMs).nonce(intentNonce++).putIntentDigest(new byte[32], 0, 32);
        buffer.putByte(e.offset() + AgentCreateEncoder.scopesEncodingOffset(), (byte)scopes);
        e.policy("");
        return harness.apply(buffer, MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength());
    }

    List<String> rotate(final Address owner, final long agentId, final long newCredentialId, final Address newSigner)
    {
        final AgentRotateEncoder e = new AgentRotateEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(harness.nextSequence()).timestampMs(harness.now).epoch(1);
        e.putOwner(owner.toBytes(), 0, 20);
        buffer.putLong(e.offset() + AgentRotateEncoder.agentIdEncodingOffset(), agentId, ByteOrder.BIG_ENDIAN);
        buffer.putLong(e.offset() + AgentRotateEncoder.newCredentialIdEncodingOffset(), newCredentialId,
            ByteOrder.BIG_ENDIAN);
        e.keyKind(keyKind).putAgentKey(key(newSigner), 0, 32)
            .overlapUntilMs(harness.now + 24L * 3600 * 1000).issuedAtMs(harness.now).nonce(intentNonce++)
            .putIntentDigest(new byte[32], 0, 32);
        return harness.apply(buffer, MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength());
    }

    List<String> revoke(final Address owner, final long agentId, final long credentialId, final boolean all)
    {
        final AgentRevokeEncoder e = new AgentRevokeEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(harness.nextSequence()).timestampMs(harness.now).epoch(1);
        e.putOwner(owner.toBytes(), 0, 20);
        buffer.putLong(e.offset() + AgentRevokeEncoder.agentIdEncodingOffset(), agentId, ByteOrder.BIG_ENDIAN);
        buffer.putLong(e.offset() + AgentRevokeEncoder.credentialIdEncodingOffset(), credentialId,
            ByteOrder.BIG_ENDIAN);
        e.allCredentials(all ? BooleanType.TRUE : BooleanType.FALSE).issuedAtMs(harness.now).nonce(intentNonce++)
            .putIntentDigest(new byte[32], 0, 32);
        return harness.apply(buffer, MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength());
    }

    List<String> ownerRevoke(final Address owner)
    {
        final OwnerRevokeEncoder e = new OwnerRevokeEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(harness.nextSequence()).timestampMs(harness.now).epoch(1);
        e.putOwner(owner.toBytes(), 0, 20).issuedAtMs(harness.now).nonce(intentNonce++)
            .putIntentDigest(new byte[32], 0, 32);
        return harness.apply(buffer, MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength());
    }

    /** The key kind of the next creates and rotations (secp256k1 unless set): an Ed25519 key signs no action. */
    void keyKind(final AgentKeyKind kind)
    {
        keyKind = kind;
    }

    /** The nonce the next owner intent carries (consumed in the owner's window, like an action's). */
    void intentNonce(final long nonce)
    {
        intentNonce = nonce;
    }

    private static byte[] key(final Address signer)
    {
        final byte[] key = new byte[32];
        signer.copyTo(key, 0);
        return key;
    }
}
