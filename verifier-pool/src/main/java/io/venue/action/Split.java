package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Turns qty units of an outcome market's collateral into qty YES and qty NO shares. Quantities are micro-units. */
public record Split(long market, long qty) implements Action
{
    public static final String TAG = "Split";

    public Split
    {
        Fields.requireU32("market", market);
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
        w.key(Fields.QTY).u64(qty);
    }
}
