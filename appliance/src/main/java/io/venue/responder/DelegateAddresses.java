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
 * Every address that has been a secp256k1 agent's key or a vault's owner (AgentChanged, VaultOwnerChanged), for the
 * verifier threads ({@link DelegateSigners}): a raw-mode signature by one of them needs no personal-mode recovery.
 * Addresses are never removed: a revoked agent here only saves a recovery that could not have authorized anyone,
 * and the gate refuses it anyway. Written by one thread at a time (the start-up scan, then the responder); the
 * verifier threads look up without allocating, each with a probe of its own.
 */
public final class DelegateAddresses implements DelegateSigners
{
    private final Set<Address> addresses = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Address> probes = ThreadLocal.withInitial(Address::new);
    private final AgentChangedDecoder agentChanged = new AgentChangedDecoder();
    private final VaultOwnerChangedDecoder ownerChanged = new VaultOwnerChangedDecoder();

    @Override
    public boolean contains(final byte[] address)
    {
        return addresses.contains(probes.get().of(address));
    }

    /** How many addresses are known. */
    public int size()
    {
        return addresses.size();
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
                final Address key = new Address();
                // a new agent or a rotation's new credential: a secp256k1 key is its address in the first 20 bytes
                agentChanged.getAgentKey(key.bytes, 0, Address.LENGTH);
                addresses.add(key.hashed());
            }
        }
        else if (header.templateId() == VaultOwnerChangedDecoder.TEMPLATE_ID)
        {
            ownerChanged.wrapAndApplyHeader(buffer, offset, header);
            if (ownerChanged.hasOwner() == BooleanType.TRUE)
            {
                final Address owner = new Address();
                ownerChanged.getOwner(owner.bytes, 0, Address.LENGTH);
                addresses.add(owner.hashed());
            }
        }
    }

    /** 20 bytes with their hash; a probe is one whose bytes are refilled for each lookup. */
    private static final class Address
    {
        static final int LENGTH = 20;
        final byte[] bytes = new byte[LENGTH];
        int hash;

        Address of(final byte[] address)
        {
            System.arraycopy(address, 0, bytes, 0, LENGTH);
            return hashed();
        }

        Address hashed()
        {
            hash = Arrays.hashCode(bytes);
            return this;
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Address that && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }
}
