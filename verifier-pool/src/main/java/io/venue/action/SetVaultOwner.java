package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * Operator: names the owner wallet of an account (a vault). The owner may then sign any trading action
 * for the account (spec 5.2, "the account's vault owner"); a null owner removes it.
 */
public record SetVaultOwner(Address account, Address owner) implements AdminAction
{
    public static final String TAG = "SetVaultOwner";

    public SetVaultOwner
    {
        Fields.requireNonNull("account", account);
        if (account.equals(owner))
        {
            throw new IllegalArgumentException("an account cannot be its own vault owner");
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
        w.key(Fields.ACCOUNT).fixedBytes(account);
        w.key(Fields.OWNER);
        if (owner == null)
        {
            w.nullValue();
        }
        else
        {
            w.fixedBytes(owner);
        }
    }
}
