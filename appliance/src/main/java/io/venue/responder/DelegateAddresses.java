package io.venue.responder;

import io.venue.journal.sbe.AgentChangedDecoder;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.AgentState;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.VaultOwnerChangedDecoder;
import io.venue.verifier.DelegateSigners;
import org.agrona.DirectBuffer;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every (account, signer) pair the event journal has named: a secp256k1 agent's key for its owner's account
 * (AgentChanged) and a vault's owner for the vault (VaultOwnerChanged), for the verifier threads
 * ({@link DelegateSigners}). Pairs are never removed: a revoked agent here only saves a recovery that could not have
 * authorized anyone, and the gate refuses it anyway. Written by one thread at a time (the start-up scan, then the
 * responder); the verifier threads look up without allocating, each with a probe of its own.
 */
public final class DelegateAddresses implements DelegateSigners
{
    private final Set<Pair> pairs = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Pair> probes = ThreadLocal.withInitial(Pair::new);
    private final AgentChangedDecoder agentChanged = new AgentChangedDecoder();
    private final VaultOwnerChangedDecoder ownerChanged = new VaultOwnerChangedDecoder();

    @Override
    public boolean signsFor(final byte[] account, final byte[] signer)
    {
        return pairs.contains(probes.get().of(account, signer));
    }

    /** How many pairs are known. */
    public int size()
    {
        return pairs.size();
    }

    /** Applies an AgentChanged or VaultOwnerChanged event; others are ignored. {@code header} is wrapped at {@code offset}. */
    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        if (header.templateId() == AgentChangedDecoder.TEMPLATE_ID)
        {
            agentChanged.wrapAndApplyHeader(buffer, offset, header);
            if ((agentChanged.state() == AgentState.ACTIVE || agentChanged.state() == AgentState.ROTATED) &&
                agentChanged.keyKind() == AgentKeyKind.SECP256K1)
            {
                final Pair pair = new Pair();
                // a new agent or a rotation's new credential, for its owner's account: a secp256k1 key is its address
                // in the first 20 bytes
                agentChanged.getOwner(pair.bytes, 0, Pair.ADDRESS);
                agentChanged.getAgentKey(pair.bytes, Pair.ADDRESS, Pair.ADDRESS);
                pairs.add(pair.hashed());
            }
        }
        else if (header.templateId() == VaultOwnerChangedDecoder.TEMPLATE_ID)
        {
            ownerChanged.wrapAndApplyHeader(buffer, offset, header);
            if (ownerChanged.hasOwner() == BooleanType.TRUE)
            {
                final Pair pair = new Pair();
                ownerChanged.getAccount(pair.bytes, 0, Pair.ADDRESS);
                ownerChanged.getOwner(pair.bytes, Pair.ADDRESS, Pair.ADDRESS);
                pairs.add(pair.hashed());
            }
        }
    }

    /** An account's 20 bytes then its signer's, with their hash; a probe is one whose bytes are refilled for each lookup. */
    private static final class Pair
    {
        static final int ADDRESS = 20;
        final byte[] bytes = new byte[2 * ADDRESS];
        int hash;

        Pair of(final byte[] account, final byte[] signer)
        {
            System.arraycopy(account, 0, bytes, 0, ADDRESS);
            System.arraycopy(signer, 0, bytes, ADDRESS, ADDRESS);
            return hashed();
        }

        Pair hashed()
        {
            hash = Arrays.hashCode(bytes);
            return this;
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Pair that && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }
}
