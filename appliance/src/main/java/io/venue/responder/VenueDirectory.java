package io.venue.responder;

import io.venue.transport.http.JsonWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The listed assets and markets as the event journal tells them (AssetCreated, MarketCreated,
 * MarketStatusChanged), for GET /api/v1/public/exchange-info. Written by the responder's thread, read by the HTTP
 * threads; ordered by id so the listing is stable.
 */
public final class VenueDirectory
{
    /** One listed market; prices and quantities in micro-units. */
    public record Market(long id, String kind, long baseAsset, long quoteAsset, long collateralAsset, long tickSize,
        long lotSize, long minQty, String status)
    {
        Market withStatus(final String newStatus)
        {
            return new Market(id, kind, baseAsset, quoteAsset, collateralAsset, tickSize, lotSize, minQty, newStatus);
        }
    }

    private final ConcurrentSkipListMap<Long, String> assets = new ConcurrentSkipListMap<>();
    private final ConcurrentSkipListMap<Long, Market> markets = new ConcurrentSkipListMap<>();

    void asset(final long id, final String symbol)
    {
        assets.put(id, symbol);
    }

    void market(final Market market)
    {
        markets.put(market.id(), market);
    }

    void status(final long market, final String status)
    {
        markets.computeIfPresent(market, (id, m) -> m.withStatus(status));
    }

    public String assetSymbol(final long id)
    {
        return assets.get(id);
    }

    public List<Market> markets()
    {
        return List.copyOf(markets.values());
    }

    /** The body of GET /api/v1/public/exchange-info. */
    public String exchangeInfoJson()
    {
        final List<String> assetJson = new ArrayList<>();
        assets.forEach((id, symbol) -> assetJson.add(new JsonWriter().field("asset", id).field("symbol", symbol).toJson()));
        final List<String> marketJson = new ArrayList<>();
        for (final Market m : markets.values())
        {
            final JsonWriter w = new JsonWriter().field("marketId", m.id()).field("kind", m.kind()).field("status", m.status());
            if ("SPOT".equals(m.kind()))
            {
                w.field("baseAsset", m.baseAsset()).field("quoteAsset", m.quoteAsset())
                    .field("symbol", assets.getOrDefault(m.baseAsset(), "?") + "-" + assets.getOrDefault(m.quoteAsset(), "?"));
            }
            else
            {
                w.field("collateralAsset", m.collateralAsset()).raw("books", "[\"YES\",\"NO\"]");
            }
            marketJson.add(w.field("tickSize", m.tickSize()).field("lotSize", m.lotSize()).field("minQty", m.minQty())
                .field("priceScale", 1_000_000).toJson());
        }
        return new JsonWriter().field("ok", true).raw("assets", JsonWriter.array(assetJson))
            .raw("markets", JsonWriter.array(marketJson)).toJson();
    }
}
