package io.venue.engine;

import io.venue.journal.sbe.RejectCode;

/**
 * The cross-shard credit admission of spec 8.6: with several matching shards and the policy enabled, every new
 * reservation (a place, a batch's place leg, the order of a cancel-replace, what an amend adds) must also pass,
 * per account and asset, in this order: the fail-closed kill switch, the haircut, the account's cap and the
 * market's cap. Each refusal has its own reject code, so the engine's decisions count them by reason. With one
 * shard, or the policy not enabled, it admits everything.
 * <p>
 * The amounts are those the engine decides with: the live ones at a barrier, a pipeline group's view otherwise.
 */
public final class CrossShardCredit
{
    private static final long PPM = 1_000_000;

    private final boolean active;
    private final long haircutPpm;
    private final long maxAccountLocked;
    private final long maxMarketLocked;
    private final boolean killSwitch;

    CrossShardCredit(final EngineConfig config)
    {
        this.active = config.crossShardCreditActive();
        this.haircutPpm = config.crossShardHaircutPpm();
        this.maxAccountLocked = config.crossShardMaxAccountLocked();
        this.maxMarketLocked = config.crossShardMaxMarketLocked();
        this.killSwitch = config.crossShardKillSwitch();
    }

    boolean active()
    {
        return active;
    }

    /**
     * @param available     the account's available amount of the asset.
     * @param accountLocked what the account has locked of the asset.
     * @param marketLocked  what the market's open orders hold of the asset.
     * @param amount        the new reservation.
     * @return null when admitted, else the reason's code.
     */
    RejectCode admit(final long available, final long accountLocked, final long marketLocked, final long amount)
    {
        if (!active)
        {
            return null;
        }
        if (killSwitch)
        {
            return RejectCode.CROSS_SHARD_CREDIT_KILL_SWITCH;
        }
        if (amount > available)
        {
            // the plain credit check refuses it: RISK_CREDIT_LIMIT
            return null;
        }
        if (amount > available - haircut(available))
        {
            return RejectCode.CROSS_SHARD_CREDIT_HAIRCUT;
        }
        if (amount > maxAccountLocked - accountLocked)
        {
            return RejectCode.CROSS_SHARD_CREDIT_ACCOUNT_CAP;
        }
        if (amount > maxMarketLocked - marketLocked)
        {
            return RejectCode.CROSS_SHARD_CREDIT_MARKET_CAP;
        }
        return null;
    }

    /** The haircut of an available amount, rounded up (against the account); exact for any amount below 2^63. */
    static long haircut(final long available, final long ppm)
    {
        final long whole = available / PPM;
        final long rest = available % PPM;
        final long restPart = rest * ppm;
        return whole * ppm + restPart / PPM + (restPart % PPM == 0 ? 0 : 1);
    }

    private long haircut(final long available)
    {
        return haircut(available, haircutPpm);
    }
}
