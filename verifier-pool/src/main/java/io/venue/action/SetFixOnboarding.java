package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

import java.util.List;

/**
 * Operator: sets the FIX onboarding record of an institutional agent's HMAC credential (spec 5.5; docs/FIX.md,
 * "Onboarding record"), replacing any earlier one. The record holds what the venue grants: the FIX permission, the
 * drop-copy entitlement, the markets its FIX orders may name, a rate tier and the cancel-on-disconnect policy. The
 * account binding and the scopes stay the agent's own (its owner's signed intent), so they are not here.
 *
 * @param credentialId       the credential, {@code spk_} and 16 lowercase hex digits (not all zero).
 * @param markets            the allowed markets, 0 to {@link #MAX_MARKETS} ids strictly ascending (one spelling per
 *                           set, so one digest), or null for every market.
 * @param rateTier           the tier, or null for the node's default rate.
 * @param codGraceMs         the cancel-on-disconnect grace window, 0 to {@link #MAX_COD_GRACE_MS}.
 */
public record SetFixOnboarding(String credentialId, boolean fixEnabled, boolean dropCopy, List<Long> markets,
    FixRateTier rateTier, boolean cancelOnDisconnect, long codGraceMs) implements AdminAction
{
    public static final String TAG = "SetFixOnboarding";
    /** The most markets a record may list (the journal's fixed array). */
    public static final int MAX_MARKETS = 16;
    /** Spec 4.3's grace window bound. */
    public static final long MAX_COD_GRACE_MS = 60_000;

    public SetFixOnboarding
    {
        if (!isCredentialId(credentialId))
        {
            throw new IllegalArgumentException("credential_id is spk_ followed by 16 lowercase hex digits, not all " +
                "zero");
        }
        if (markets != null)
        {
            if (markets.size() > MAX_MARKETS)
            {
                throw new IllegalArgumentException("markets holds at most " + MAX_MARKETS + " ids, got " +
                    markets.size());
            }
            long previous = -1;
            for (final Long market : markets)
            {
                Fields.requireNonNull("market", market);
                Fields.requireU32("market", market);
                if (market <= previous)
                {
                    throw new IllegalArgumentException("markets are strictly ascending (each once)");
                }
                previous = market;
            }
            markets = List.copyOf(markets);
        }
        if (codGraceMs < 0 || codGraceMs > MAX_COD_GRACE_MS)
        {
            throw new IllegalArgumentException("cod_grace_ms is 0 to " + MAX_COD_GRACE_MS + ", got " + codGraceMs);
        }
    }

    /** Whether {@code id} is {@code spk_} and 16 lowercase hex digits, not all zero (zero means "every"). */
    public static boolean isCredentialId(final String id)
    {
        if (id == null || id.length() != 20 || !id.startsWith("spk_"))
        {
            return false;
        }
        boolean nonZero = false;
        for (int i = 4; i < 20; i++)
        {
            final char c = id.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f'))
            {
                return false;
            }
            nonZero |= c != '0';
        }
        return nonZero;
    }

    /** The credential id's 8 bytes as the journal's AgentId holds them, big-endian. */
    public long credentialBits()
    {
        return Long.parseUnsignedLong(credentialId.substring(4), 16);
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.CREDENTIAL_ID).asciiString(credentialId);
        w.key(Fields.FIX_ENABLED).bool(fixEnabled);
        w.key(Fields.DROP_COPY).bool(dropCopy);
        w.key(Fields.MARKETS);
        if (markets == null)
        {
            w.nullValue();
        }
        else
        {
            w.beginArray();
            for (final Long market : markets)
            {
                w.u64(market);
            }
            w.endArray();
        }
        w.key(Fields.RATE_TIER).enumOrNull(rateTier);
        w.key(Fields.CANCEL_ON_DISCONNECT).bool(cancelOnDisconnect);
        w.key(Fields.COD_GRACE_MS).u64(codGraceMs);
    }
}
