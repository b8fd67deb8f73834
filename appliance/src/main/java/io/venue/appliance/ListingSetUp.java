package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.entry.Answer;
import io.venue.responder.VenueDirectory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Brings the venue's listing to the configured one ({@link ListingFile}) at start: every asset and market the
 * journal does not hold yet is created by operator actions; one it holds is left alone if it is the same, and the
 * start stops if it differs (a listing is never changed silently: halting, delisting and new parameters are the
 * operator's actions to sign).
 */
final class ListingSetUp
{
    private ListingSetUp()
    {
    }

    /**
     * @param nextNonce the operator's next usable nonce, read before each action.
     * @return how many actions were journaled.
     * @throws IllegalStateException when the journal holds an asset or market that differs from the file, or the
     *                               engine refuses an action.
     */
    static int apply(final List<Action> listing, final VenueDirectory directory, final OperatorActions actions,
        final LongSupplier nextNonce)
    {
        final List<Action> missing = new ArrayList<>();
        final Set<Long> assets = new HashSet<>();
        for (final Action action : listing)
        {
            if (action instanceof CreateAsset asset)
            {
                assets.add(asset.asset());
            }
        }
        for (final Action action : listing)
        {
            // every entry is checked before any is submitted: a contradicting file changes nothing
            requireAssets(action, assets, directory);
            if (!listed(action, directory))
            {
                missing.add(action);
            }
        }
        int submitted = 0;
        for (final Action action : missing)
        {
            final Answer response = actions.submit(nextNonce.getAsLong(), action);
            if (!OperatorActions.isOk(response))
            {
                throw new IllegalStateException("listing action " + action + " refused: " + response);
            }
            submitted++;
        }
        return submitted;
    }

    /** A market's assets must be in the file or already listed, or the engine would refuse it half way. */
    private static void requireAssets(final Action action, final Set<Long> inFile, final VenueDirectory directory)
    {
        final long[] needed = action instanceof CreateSpotMarket spot ?
            new long[]{spot.baseAsset(), spot.quoteAsset()} :
            action instanceof CreateOutcomeMarket outcome ? new long[]{outcome.collateralAsset()} : new long[0];
        for (final long asset : needed)
        {
            if (!inFile.contains(asset) && directory.assetSymbol(asset) == null)
            {
                throw new IllegalStateException("the listing file's " + action + " names asset " + asset +
                    ", which neither the file nor the journal lists");
            }
        }
    }

    /** Whether the journal already holds this asset or market; throws when it holds it with other parameters. */
    private static boolean listed(final Action action, final VenueDirectory directory)
    {
        if (action instanceof CreateAsset asset)
        {
            final String symbol = directory.assetSymbol(asset.asset());
            return symbol != null && same(action, symbol.equals(asset.symbol()), "symbol " + symbol);
        }
        final long id = action instanceof CreateSpotMarket spot ? spot.market() :
            ((CreateOutcomeMarket)action).market();
        final VenueDirectory.Market market = directory.market(id);
        if (market == null)
        {
            return false;
        }
        final boolean same = action instanceof CreateSpotMarket spot ?
            "SPOT".equals(market.kind()) && market.baseAsset() == spot.baseAsset() &&
            market.quoteAsset() == spot.quoteAsset() &&
                market.tickSize() == spot.tickSize() && market.lotSize() == spot.lotSize() &&
                market.minQty() == spot.minQty() :
            sameOutcome(market, (CreateOutcomeMarket)action);
        return same(action, same, market.toString());
    }

    private static boolean sameOutcome(final VenueDirectory.Market market, final CreateOutcomeMarket outcome)
    {
        return "OUTCOME".equals(market.kind()) && market.collateralAsset() == outcome.collateralAsset() &&
            market.tickSize() == outcome.tickSize() && market.lotSize() == outcome.lotSize() &&
            market.minQty() == outcome.minQty();
    }

    private static boolean same(final Action action, final boolean same, final String journaled)
    {
        if (!same)
        {
            throw new IllegalStateException("the listing file says " + action + " but the journal holds " + journaled +
                ": change a listed asset or market with operator actions, not the file");
        }
        return true;
    }
}
