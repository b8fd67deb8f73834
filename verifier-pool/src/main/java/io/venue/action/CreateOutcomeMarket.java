package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Operator: lists an outcome market (YES and NO books) collateralised by one asset. Sizes are micro-units. */
public record CreateOutcomeMarket(long market, long collateralAsset, long tickSize, long lotSize, long minQty)
    implements AdminAction
{
    public static final String TAG = "CreateOutcomeMarket";

    public CreateOutcomeMarket
    {
        Fields.requireU32("market", market);
        Fields.requireU32("collateral_asset", collateralAsset);
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
        w.key(Fields.COLLATERAL_ASSET).u64(collateralAsset);
        w.key(Fields.TICK_SIZE).u64(tickSize);
        w.key(Fields.LOT_SIZE).u64(lotSize);
        w.key(Fields.MIN_QTY).u64(minQty);
    }
}
