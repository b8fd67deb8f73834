package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Operator: debits amount micro-units of an asset from an account's available balance. */
public record Withdraw(Address account, long asset, long amount) implements AdminAction
{
    public static final String TAG = "Withdraw";

    public Withdraw
    {
        Fields.requireNonNull("account", account);
        Fields.requireU32("asset", asset);
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.ACCOUNT).fixedBytes(account);
        w.key(Fields.ASSET).u64(asset);
        w.key(Fields.AMOUNT).u64(amount);
    }
}
