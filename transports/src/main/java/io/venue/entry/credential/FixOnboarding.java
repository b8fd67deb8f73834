package io.venue.entry.credential;

import io.venue.codec.JsonWriter;

import java.util.List;

/**
 * A credential's FIX onboarding record as the engine's FixOnboardingChanged event tells it (spec 5.5; docs/FIX.md,
 * "Onboarding record"): what the operator granted. The lane reads it at each Logon: no record or no FIX permission is a
 * refused Logon, a drop-copy session needs the entitlement, the tier sets the order-entry message rate and the policy
 * the session's cancel-on-disconnect. The allowed markets are the engine's check (its gate refuses an order for
 * another market, MARKET_NOT_ALLOWED), so a replay decides them as the run did.
 *
 * @param markets  the allowed markets ascending, or null for every market.
 * @param tier     0 (none: the lane's default rate), 1 standard, 2 enhanced, 3 premium.
 * @param sequence the command sequence that set it.
 */
public record FixOnboarding(String credentialId, String account, boolean fixEnabled, boolean dropCopy,
    List<Long> markets, int tier, boolean cancelOnDisconnect, long codGraceMs, long sequence)
{
    /** The tiers' names by code; code 0 is no tier. */
    public static final List<String> TIERS = List.of("standard", "enhanced", "premium");

    public FixOnboarding
    {
        markets = markets == null ? null : List.copyOf(markets);
    }

    /** The tier's name, or null for none. */
    public String tierName()
    {
        return tier >= 1 && tier <= TIERS.size() ? TIERS.get(tier - 1) : null;
    }

    /** The record as the operator's read route serves it, with the rate its tier has on this node. */
    public String json(final long orderMessagesPerSecond)
    {
        final StringBuilder list = new StringBuilder();
        if (markets != null)
        {
            list.append('[');
            for (int i = 0; i < markets.size(); i++)
            {
                list.append(i == 0 ? "" : ",").append(markets.get(i));
            }
            list.append(']');
        }
        return new JsonWriter().field("ok", true).field("credentialId", credentialId).field("account", account)
            .field("fixEnabled", fixEnabled).field("dropCopy", dropCopy)
            .raw("markets", markets == null ? "null" : list.toString())
            .raw("rateTier", tierName() == null ? "null" : "\"" + tierName() + "\"")
            .field("orderMessagesPerSecond", orderMessagesPerSecond)
            .field("cancelOnDisconnect", cancelOnDisconnect).field("codGraceMs", codGraceMs)
            .field("sequence", sequence).toJson();
    }
}
