package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.transport.http.JsonReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The venue's listing as configured: a JSON file in the shape of GET /api/v1/public/exchange-info's assets and
 * markets (its other fields are ignored), read into the operator actions that create it, assets first.
 *
 * <pre>
 * {"assets":[{"asset":1,"symbol":"USDC"},{"asset":2,"symbol":"BTC"}],
 *  "markets":[{"marketId":1,"kind":"SPOT","baseAsset":2,"quoteAsset":1,"tickSize":10000,"lotSize":1000,"minQty":1000},
 *             {"marketId":2,"kind":"OUTCOME","collateralAsset":1,"tickSize":10000,"lotSize":1000000,"minQty":1000000}]}
 * </pre>
 */
final class ListingFile
{
    private ListingFile()
    {
    }

    /**
     * @throws IllegalArgumentException naming the file and the entry that is wrong.
     */
    static List<Action> read(final Path file) throws IOException
    {
        final Object json;
        try
        {
            json = JsonReader.read(Files.readAllBytes(file));
        }
        catch (final JsonReader.JsonException ex)
        {
            throw new IllegalArgumentException(file + " is not valid JSON: " + ex.getMessage());
        }
        if (!(json instanceof Map<?, ?> root))
        {
            throw new IllegalArgumentException(file + ": the listing is a JSON object with assets and markets");
        }
        final List<Action> actions = new ArrayList<>();
        final Set<Long> assetIds = new HashSet<>();
        final Set<Long> marketIds = new HashSet<>();
        try
        {
            for (final Map<?, ?> asset : objects(root, "assets"))
            {
                if (!assetIds.add(number(asset, "asset")))
                {
                    throw new IllegalArgumentException("asset " + number(asset, "asset") + " is listed twice");
                }
                actions.add(new CreateAsset(number(asset, "asset"), text(asset, "symbol")));
            }
            for (final Map<?, ?> market : objects(root, "markets"))
            {
                if (!marketIds.add(number(market, "marketId")))
                {
                    throw new IllegalArgumentException("market " + number(market, "marketId") + " is listed twice");
                }
                final String kind = text(market, "kind");
                actions.add(switch (kind)
                {
                    case "SPOT" -> new CreateSpotMarket(number(market, "marketId"), number(market, "baseAsset"),
                        number(market, "quoteAsset"), number(market, "tickSize"), number(market, "lotSize"),
                        number(market, "minQty"));
                    case "OUTCOME" -> new CreateOutcomeMarket(number(market, "marketId"),
                        number(market, "collateralAsset"),
                        number(market, "tickSize"), number(market, "lotSize"), number(market, "minQty"));
                    default -> throw new IllegalArgumentException("market kind is SPOT or OUTCOME, not " + kind);
                });
            }
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
        }
        return actions;
    }

    private static List<Map<?, ?>> objects(final Map<?, ?> root, final String name)
    {
        final Object value = root.get(name);
        if (value == null)
        {
            return List.of();
        }
        if (!(value instanceof List<?> list))
        {
            throw new IllegalArgumentException(name + " is an array");
        }
        final List<Map<?, ?>> objects = new ArrayList<>();
        for (final Object item : list)
        {
            if (!(item instanceof Map<?, ?> map))
            {
                throw new IllegalArgumentException("every entry of " + name + " is an object");
            }
            objects.add(map);
        }
        return objects;
    }

    private static long number(final Map<?, ?> entry, final String name)
    {
        if (!(entry.get(name) instanceof Long value) || value < 0)
        {
            throw new IllegalArgumentException("entry " + entry + ": " + name + " is a non-negative integer");
        }
        return value;
    }

    private static String text(final Map<?, ?> entry, final String name)
    {
        if (!(entry.get(name) instanceof String value))
        {
            throw new IllegalArgumentException("entry " + entry + ": " + name + " is a string");
        }
        return value;
    }
}
