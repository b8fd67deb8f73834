package io.venue.auth;

/**
 * The kind of a delegated agent and the longest authorization it may hold (spec 8.5).
 */
public enum AgentKind
{
    API("api", 180L * AgentKind.DAY_MS),
    INSTITUTIONAL("institutional", 90L * AgentKind.DAY_MS),
    BROWSER("browser", 30L * AgentKind.DAY_MS),
    MOBILE("mobile", 24L * AgentKind.HOUR_MS);

    public static final long HOUR_MS = 3_600_000L;
    public static final long DAY_MS = 24L * HOUR_MS;

    private static final AgentKind[] VALUES = values();

    private final String wire;
    private final long maxLifetimeMs;

    AgentKind(final String wire, final long maxLifetimeMs)
    {
        this.wire = wire;
        this.maxLifetimeMs = maxLifetimeMs;
    }

    /** The exact string in signed texts, e.g. "institutional". */
    public String wire()
    {
        return wire;
    }

    /** The longest allowed expires_at - issued_at, inclusive. */
    public long maxLifetimeMs()
    {
        return maxLifetimeMs;
    }

    /** The kind with this exact wire string, or null. */
    public static AgentKind fromWire(final CharSequence text)
    {
        for (final AgentKind kind : VALUES)
        {
            if (kind.wire.contentEquals(text))
            {
                return kind;
            }
        }
        return null;
    }
}
