package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Operator: lists an asset under a u32 id and a symbol of 1 to 12 characters A-Z, 0-9. */
public record CreateAsset(long asset, String symbol) implements AdminAction
{
    public static final String TAG = "CreateAsset";

    public CreateAsset
    {
        Fields.requireU32("asset", asset);
        Fields.requireNonNull("symbol", symbol);
        if (!Fields.isValidSymbol(symbol))
        {
            throw new IllegalArgumentException("symbol must be 1 to 12 of A-Z and 0-9, got " + symbol);
        }
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.ASSET).u64(asset);
        w.key(Fields.SYMBOL).asciiString(symbol);
    }
}
