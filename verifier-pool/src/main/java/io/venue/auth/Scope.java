package io.venue.auth;

import java.util.Set;

/**
 * What a delegated agent may do (spec 2.6). Declaration order is the fixed order in which scopes are
 * written in the authorization text, so the same set always yields the same signed bytes.
 */
public enum Scope
{
    TRADE("trade"),
    CANCEL("cancel"),
    QUOTE("quote"),
    MINT_REDEEM("mint_redeem"),
    READ("read"),
    DROP_COPY("drop_copy");

    private static final Scope[] VALUES = values();

    private final String wire;

    Scope(final String wire)
    {
        this.wire = wire;
    }

    /** This scope's bit in a set of scopes (bit i for ordinal i, as the journal's AgentScopes). */
    public int bit()
    {
        return 1 << ordinal();
    }

    /** The exact string in signed texts, e.g. "mint_redeem". */
    public String wire()
    {
        return wire;
    }

    /** The scope with this exact wire string, or null. */
    public static Scope fromWire(final CharSequence text)
    {
        for (final Scope scope : VALUES)
        {
            if (scope.wire.contentEquals(text))
            {
                return scope;
            }
        }
        return null;
    }

    /** Comma-separated wire strings in declaration order, whatever the iteration order of {@code scopes}. */
    public static String join(final Set<Scope> scopes)
    {
        final StringBuilder out = new StringBuilder(64);
        for (final Scope scope : VALUES)
        {
            if (scopes.contains(scope))
            {
                if (out.length() > 0)
                {
                    out.append(',');
                }
                out.append(scope.wire);
            }
        }
        return out.toString();
    }
}
