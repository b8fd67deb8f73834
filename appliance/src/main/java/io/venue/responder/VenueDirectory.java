package io.venue.responder;

import io.venue.journal.sbe.AssetCreatedDecoder;
import io.venue.journal.sbe.MarketCreatedDecoder;
import io.venue.journal.sbe.MarketStatusChangedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.codec.JsonWriter;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The listed assets and markets as the event journal tells them (AssetCreated, MarketCreated,
 * MarketStatusChanged), for GET /api/v1/public/exchange-info. Written by one thread at a time (the start-up scan,
 * then the responder), read by the HTTP threads; ordered by id so the listing is stable.
 */
public final class VenueDirectory
{
    /**
     * One listed market; prices and quantities in micro-units. {@code number} is its place in the order markets were
     * created in, the engine's market number, which picks its matching shard.
     */
    public record Market(long id, int number, String kind, long baseAsset, long quoteAsset, long collateralAsset,
        long tickSize, long lotSize, long minQty, String status)
    {
        Market withStatus(final String newStatus)
        {
            return new Market(id, number, kind, baseAsset, quoteAsset, collateralAsset, tickSize, lotSize,
                minQty, newStatus);
        }

        /** The matching shard of this market among {@code shards} (ENGINE.md, "Several shards"). */
        public int shard(final int shards)
        {
            return number % shards;
        }
    }

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final MarketCreatedDecoder marketCreated = new MarketCreatedDecoder();
    private final MarketStatusChangedDecoder marketStatus = new MarketStatusChangedDecoder();
    private final AssetCreatedDecoder assetCreated = new AssetCreatedDecoder();
    private final ConcurrentSkipListMap<Long, String> assets = new ConcurrentSkipListMap<>();
    private final ConcurrentSkipListMap<Long, Market> markets = new ConcurrentSkipListMap<>();

    /** Applies a listing event; other events are ignored. {@code header} is wrapped at {@code offset}. */
    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        switch (header.templateId())
        {
            case MarketCreatedDecoder.TEMPLATE_ID ->
            {
                marketCreated.wrapAndApplyHeader(buffer, offset, header);
                market(new Market(marketCreated.market(), markets.size(), marketCreated.kind().name(),
                    marketCreated.baseAsset(), marketCreated.quoteAsset(), marketCreated.collateralAsset(),
                    marketCreated.tickSize(), marketCreated.lotSize(),
                    marketCreated.minQty(), "ACTIVE"));
            }
            case MarketStatusChangedDecoder.TEMPLATE_ID ->
            {
                marketStatus.wrapAndApplyHeader(buffer, offset, header);
                status(marketStatus.market(), marketStatus.status().name());
            }
            case AssetCreatedDecoder.TEMPLATE_ID ->
            {
                assetCreated.wrapAndApplyHeader(buffer, offset, header);
                asset(assetCreated.asset(), assetCreated.symbol().trim());
            }
            default ->
            {
                // balances, orders, book deltas: not the listing
            }
        }
    }

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

    /** The listed market with this id, or null. */
    public Market market(final long id)
    {
        return markets.get(id);
    }

    public List<Market> markets()
    {
        return List.copyOf(markets.values());
    }

    /** The body of GET /api/v1/public/exchange-info. */
    public String exchangeInfoJson()
    {
        final List<String> assetJson = new ArrayList<>();
        assets.forEach(
            (id, symbol) -> assetJson.add(new JsonWriter().field("asset", id).field("symbol", symbol).toJson()));
        final List<String> marketJson = new ArrayList<>();
        for (final Market m : markets.values())
        {
            final JsonWriter w = new JsonWriter().field("marketId", m.id()).field("kind", m.kind())
                .field("status", m.status());
            if ("SPOT".equals(m.kind()))
            {
                w.field("baseAsset", m.baseAsset()).field("quoteAsset", m.quoteAsset())
                    .field("symbol",
                        assets.getOrDefault(m.baseAsset(), "?") + "-" + assets.getOrDefault(m.quoteAsset(), "?"));
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
