package io.venue.engine.state;

import org.agrona.DirectBuffer;

/**
 * Delegated agents by signer address. Lookups by key only; nothing here iterates, so no output can depend on
 * hash order. Single-threaded: the store reuses one key, so only the owning thread may call it.
 */
public final class AgentStore
{
    private final FixedMap<AddressKey, Agent> map;
    private final AddressKey key = new AddressKey();

    AgentStore(final FixedMap<AddressKey, Agent> map)
    {
        this.map = map;
    }

    /** Points {@code into} at the signer's agent record; null (and {@code into} untouched) when there is none. */
    public Agent find(final DirectBuffer signer, final int offset, final Agent into)
    {
        return map.find(key.address(signer, offset), into);
    }

    public Agent find(final byte[] signer, final Agent into)
    {
        return map.find(key.address(signer), into);
    }

    /**
     * Inserts an all-zero record for a new signer and points {@code into} at it for the caller to fill;
     * null when the signer already has a record.
     */
    public Agent insert(final DirectBuffer signer, final int offset, final Agent into)
    {
        return map.insertNew(key.address(signer, offset), into);
    }

    public Agent insert(final byte[] signer, final Agent into)
    {
        return map.insertNew(key.address(signer), into);
    }

    public boolean remove(final DirectBuffer signer, final int offset)
    {
        return map.remove(key.address(signer, offset));
    }

    public boolean remove(final byte[] signer)
    {
        return map.remove(key.address(signer));
    }

    public long size()
    {
        return map.size();
    }

    /** The entry count the map was sized for; Chronicle may take a little more, never rely on it. */
    public long capacity()
    {
        return map.capacity();
    }
}
