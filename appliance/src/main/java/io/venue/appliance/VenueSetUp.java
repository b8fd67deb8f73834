package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.Address;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.engine.EngineConfig;
import io.venue.responder.ReadModels;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The node's own operator actions, signed with a key it holds: the demo venue (its keys, and its set-up on an empty
 * journal) and the configured listing ({@code listing.file}), submitted at a primary's start (not at a promotion: its
 * primary did that). Checks at open that there is an operator key at all, and that the listing's key is an operator's.
 */
final class VenueSetUp
{
    private final DemoVenue demo;
    private final Path listingFile;
    private final List<Action> listing;
    private final Secp256k1KeyPair listingOperator;

    private VenueSetUp(final DemoVenue demo, final Path listingFile, final List<Action> listing,
        final Secp256k1KeyPair listingOperator)
    {
        this.demo = demo;
        this.listingFile = listingFile;
        this.listing = listing;
        this.listingOperator = listingOperator;
    }

    /** Opens the demo's keys (making them on first use) and adds its operator to {@code config}; reads the listing. */
    static VenueSetUp open(final ApplianceContext context, final Path data, final EngineConfig config)
        throws IOException
    {
        DemoVenue demo = null;
        if (context.demo())
        {
            demo = DemoVenue.open(data);
            config.operator(demo.operator.address());
        }
        List<Action> listing = null;
        Secp256k1KeyPair listingOperator = null;
        if (context.listingFile() != null)
        {
            listing = ListingFile.read(context.listingFile());
            listingOperator = Secp256k1KeyPair.fromPrivateKey(KeyFiles.load(context.listingOperatorKeyFile()));
            if (!config.operators().contains(listingOperator.address()))
            {
                throw new IllegalArgumentException(
                    "listing.operator.key.file holds the key of " + listingOperator.address() +
                    ", which is not among 'operators'");
            }
        }
        if (config.operators().isEmpty())
        {
            throw new IllegalArgumentException("no operator key: set 'operators' (or demo=true)");
        }
        return new VenueSetUp(demo, context.listingFile(), listing, listingOperator);
    }

    /**
     * Submits what the journal does not hold yet: the demo's set-up (the operator's next nonce says how much of it is
     * journaled: all of it after the first start) and the listing's missing assets and markets.
     *
     * @param actions the operator actions of a key, through the node's verifier pool and journal.
     */
    void submit(final Function<Secp256k1KeyPair, OperatorActions> actions, final ReadModels models,
        final PrintStream log)
    {
        if (demo != null)
        {
            final int submitted = demo.submitSetUp(actions.apply(demo.operator),
                models.nonces().nextUsable(demo.operator.address().toString()));
            if (submitted > 0)
            {
                log.printf("demo venue set up: %d operator actions journaled%n", submitted);
            }
        }
        if (listing != null)
        {
            final String operator = listingOperator.address().toString();
            final int created = ListingSetUp.apply(listing, models.directory(), actions.apply(listingOperator),
                () -> models.nonces().nextUsable(operator));
            log.printf("listing from %s: %d of %d assets and markets created, the others already listed%n", listingFile,
                created, listing.size());
        }
    }

    /** The demo account's key file, or null outside the demo. */
    Path demoAccountKeyFile()
    {
        return demo == null ? null : demo.accountKeyFile;
    }

    Address demoAccount()
    {
        return demo == null ? null : demo.account.address();
    }

    Path operatorKeyFile()
    {
        return demo == null ? null : demo.operatorKeyFile;
    }
}
