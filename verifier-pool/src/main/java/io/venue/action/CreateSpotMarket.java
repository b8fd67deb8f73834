package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Operator: lists a spot market trading base against quote. Sizes are micro-units. */
public record CreateSpotMarket(long market, long baseAsset, long quoteAsset, long tickSize, long lotSize, long minQty)
    implements AdminAction
{
    public static final String TAG = "CreateSpotMarket";

    public CreateSpotMarket
    {
        Fields.requireU32("market", market);
        Fields.requireU32("base_asset", baseAsset);
        Fields.requireU32("quote_asset", quoteAsset);
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.MARKET).u64(market);
        w.key(Fields.BASE_ASSET).u64(baseAsset);
        w.key(Fields.QUOTE_ASSET).u64(quoteAsset);
        w.key(Fields.TICK_SIZE).u64(tickSize);
        w.key(Fields.LOT_SIZE).u64(lotSize);
        w.key(Fields.MIN_QTY).u64(minQty);
    }
}
