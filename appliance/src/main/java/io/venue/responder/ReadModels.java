package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.verifier.DelegateSigners;
import org.agrona.DirectBuffer;

/**
 * What the lanes read that the event journal tells: the listing ({@link VenueDirectory}), the agents' credentials
 * ({@link AgentDirectory}), each account's nonce window ({@link AccountNonces}), each order's status
 * ({@link OrderStatuses}), the vaults' owners ({@link VaultOwners}) and the FIX onboarding records
 * ({@link FixOnboardings}), which also tell the verifiers who signs
 * for an account ({@link #delegates}). Filled by a scan of the whole event journal at start, then kept by the responder
 * with every event after it; one thread writes at a time, the I/O threads read.
 */
public final class ReadModels
{
    private final AgentDirectory agents;
    private final VenueDirectory directory;
    private final AccountNonces nonces = new AccountNonces();
    private final OrderStatuses orders;
    private final VaultOwners vaultOwners = new VaultOwners();
    private final FixOnboardings fixOnboardings = new FixOnboardings();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    /** @param openOrders how many orders may be open at once (the state's limit), for the order statuses' table. */
    public ReadModels(final long openOrders)
    {
        orders = new OrderStatuses(openOrders);
        agents = new AgentDirectory();
        directory = new VenueDirectory();
    }

    /** Reads every event from where the tailer stands to the end. */
    public void scan(final JournalTailer events)
    {
        final RecordHandler onRecord = (buffer, offset, length, index) ->
        {
            header.wrap(buffer, offset);
            onEvent(buffer, offset, header);
        };
        while (events.read(onRecord))
        {
            // to the end
        }
    }

    /** Applies one event to every model; {@code header} is wrapped at {@code offset}. */
    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        directory.onEvent(buffer, offset, header);
        agents.onEvent(buffer, offset, header);
        nonces.onEvent(buffer, offset, header);
        orders.onEvent(buffer, offset, header);
        vaultOwners.onEvent(buffer, offset, header);
        fixOnboardings.onEvent(buffer, offset, header);
    }

    /** The FIX onboarding records (spec 5.5). */
    public FixOnboardings fixOnboardings()
    {
        return fixOnboardings;
    }

    public VenueDirectory directory()
    {
        return directory;
    }

    public AgentDirectory agents()
    {
        return agents;
    }

    public AccountNonces nonces()
    {
        return nonces;
    }

    public OrderStatuses orders()
    {
        return orders;
    }

    public VaultOwners vaultOwners()
    {
        return vaultOwners;
    }

    /**
     * For the verifier threads: whether the signer is the account's vault owner or signs for it with an active
     * secp256k1 agent credential, as the events told so far (a signature by one costs one recovery; the gate
     * still decides).
     */
    public DelegateSigners delegates()
    {
        return (account, signer) ->
        {
            final String accountAddress = Hex.to0x(account);
            final String signerAddress = Hex.to0x(signer);
            return signerAddress.equals(vaultOwners.ownerOf(accountAddress)) ||
                agents.signerFor(accountAddress, signerAddress, System.currentTimeMillis()) != null;
        };
    }
}
