package io.venue.engine.state;

/**
 * How many records of each kind the engine may create: the same numbers size the Chronicle Map files
 * ({@link EngineState.Context#sizeFor(StateLimits)}) and bound the engine ({@code EngineConfig.stateLimits}),
 * so a full map is refused as an action ({@code CAPACITY_LIMIT}) before it could be overrun. A record once
 * made is never removed except an open order, so the counts only grow: accounts (one nonce-window record
 * each), balance records (one per account and listed asset the account ever touched), position records (one
 * per account and outcome market), resting orders (at one time), agents and agent credentials.
 */
public record StateLimits(long accounts, long balances, long positions, long openOrders, long agents, long credentials)
{
    public StateLimits
    {
        if (accounts < 1 || balances < 1 || positions < 1 || openOrders < 1 || agents < 1 || credentials < 1)
        {
            throw new IllegalArgumentException("every state limit must be positive: " + this);
        }
    }

    /**
     * The default shape from an account count and a resting-order count: 4 balances, 2 outcome positions,
     * 2 agents and 2 agent credentials per account on average.
     */
    public static StateLimits forAccounts(final long accounts, final long openOrders)
    {
        return new StateLimits(accounts, 4 * accounts, 2 * accounts, openOrders, 2 * accounts, 2 * accounts);
    }

    /** The demo venue's limits, and the engine's default: 10,000 accounts, 100,000 resting orders. */
    public static final StateLimits DEMO = forAccounts(10_000, 100_000);
    /** One million accounts, two million resting orders. */
    public static final StateLimits PRODUCTION = forAccounts(1_000_000, 2_000_000);

    /** The limit that bounds the entries of a store, or -1 for the fixed-size ones (assets, markets). */
    public long limitOf(final StoreFile store)
    {
        return switch (store)
        {
            case NONCE_WINDOWS -> accounts;
            case BALANCES -> balances;
            case POSITIONS -> positions;
            case OPEN_ORDERS -> openOrders;
            case AGENTS -> agents;
            case CREDENTIALS -> credentials;
            default -> -1;
        };
    }
}
