package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.VaultOwnerChangedDecoder;
import org.agrona.DirectBuffer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each vault account's owner wallet (VaultOwnerChanged), which may sign for the account (spec 5.2). Written by one
 * thread at a time (the start-up scan, then the responder), read by the I/O threads.
 */
public final class VaultOwners
{
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    private final VaultOwnerChangedDecoder changed = new VaultOwnerChangedDecoder();
    private final byte[] address = new byte[20];

    /** The account's owner wallet, or null when it has none. */
    public String ownerOf(final String account)
    {
        return owners.get(account);
    }

    /** Applies a VaultOwnerChanged event; others are ignored. {@code header} is wrapped at {@code offset}. */
    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        if (header.templateId() != VaultOwnerChangedDecoder.TEMPLATE_ID)
        {
            return;
        }
        changed.wrapAndApplyHeader(buffer, offset, header);
        changed.getAccount(address, 0, 20);
        final String account = Hex.to0x(address);
        if (changed.hasOwner() == BooleanType.TRUE)
        {
            changed.getOwner(address, 0, 20);
            owners.put(account, Hex.to0x(address));
        }
        else
        {
            owners.remove(account);
        }
    }
}
