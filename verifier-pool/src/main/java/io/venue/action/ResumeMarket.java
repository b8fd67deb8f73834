package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Operator: lets a halted market trade again. */
public record ResumeMarket(long market) implements AdminAction
{
    public static final String TAG = "ResumeMarket";

    public ResumeMarket
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
