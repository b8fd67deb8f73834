package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * Operator: turns a kill switch on or off. Scope account names an account and no market; scope market
 * names a market and no account; scope venue names neither. Absent targets are null on the wire.
 *
 * @param market the market id, or {@link #NO_MARKET}.
 */
public record SetKillSwitch(KillScope scope, Address account, long market, boolean active) implements AdminAction
{
    public static final String TAG = "SetKillSwitch";
    public static final long NO_MARKET = -1;

    public SetKillSwitch
    {
        Fields.requireNonNull("scope", scope);
        Fields.requireU32OrAll("market", market);
        final boolean hasAccount = account != null;
        final boolean hasMarket = market != NO_MARKET;
        final boolean valid = switch (scope)
        {
            case ACCOUNT -> hasAccount && !hasMarket;
            case MARKET -> hasMarket && !hasAccount;
            case VENUE -> !hasAccount && !hasMarket;
        };
        if (!valid)
        {
            throw new IllegalArgumentException(
                "scope " + scope.wire() + " needs " + switch (scope)
                {
                    case ACCOUNT -> "an account and a null market";
                    case MARKET -> "a market and a null account";
                    case VENUE -> "a null account and a null market";
                });
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
        w.key(Fields.SCOPE).enumValue(scope);
        w.key(Fields.ACCOUNT);
        if (account == null)
        {
            w.nullValue();
        }
        else
        {
            w.fixedBytes(account);
        }
        w.key(Fields.MARKET);
        if (market == NO_MARKET)
        {
            w.nullValue();
        }
        else
        {
            w.u64(market);
        }
        w.key(Fields.ACTIVE).bool(active);
    }
}
