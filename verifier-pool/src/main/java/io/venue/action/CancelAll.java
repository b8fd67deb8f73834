package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * Cancels every open order of the account in one market, or in all markets ({@link #ALL_MARKETS}, null on the wire).
 */
public record CancelAll(long market) implements Action
{
    public static final String TAG = "CancelAll";
    public static final long ALL_MARKETS = -1;

    public CancelAll
    {
        Fields.requireU32OrAll("market", market);
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.MARKET);
        if (market == ALL_MARKETS)
        {
            w.nullValue();
        }
        else
        {
            w.u64(market);
        }
    }
}
