package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Operator: stops trading in a market; open orders stay. */
public record HaltMarket(long market) implements AdminAction
{
    public static final String TAG = "HaltMarket";

    public HaltMarket
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
    }
}
