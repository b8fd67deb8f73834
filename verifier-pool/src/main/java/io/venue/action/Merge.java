package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * Turns qty YES plus qty NO shares of an outcome market back into qty units of collateral. Quantities are micro-units.
 */
public record Merge(long market, long qty) implements Action
{
    public static final String TAG = "Merge";

    public Merge
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
