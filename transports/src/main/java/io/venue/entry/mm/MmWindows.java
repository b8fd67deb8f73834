package io.venue.entry.mm;

import io.venue.entry.admission.SlidingCount;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.LongToIntFunction;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Function;

/**
 * The MM lane's rate limits (spec 8.2): sliding windows of {@code windowMs} per account, per account for cancels, per
 * API key, per source address, per market and per matching shard. Cancels cost nothing against the action budgets, and
 * a cancel-replace charges one action (its net-new leg) and one cancel. A request's actions count in the windows of
 * the markets they act on (a {@link Cost}), and each market's in its shard's. A request is admitted only if every
 * window has room; then every window is charged, so a refused request costs nothing.
 * <p>
 * Each key's window is a {@link SlidingCount}: ten buckets a window, an action counted for up to a tenth of a window
 * longer than the window, so no span of the window's width ever holds more than the limit. Keys idle for a window
 * are dropped. Thread safe (one lock: the lane's I/O threads share it).
 */
public final class MmWindows
{
    /** The limits, all per {@code windowMs}. */
    public record Limits(long windowMs, long accountActions, long accountCancels, long keyActions, long ipActions,
        long marketActions, long shardActions)
    {
        /** Spec 8.2's defaults. */
        public static final Limits DEFAULTS = new Limits(1_000, 4_000, 64_000, 16_000, 16_000, 64_000, 128_000);
    }

    /**
     * Builder plans (spec 8.2): an account on a plan also gets a per-minute action window, 600 on the basic plan and
     * 3,000 on the pro plan by default. Which account is on which plan is the operator's configuration.
     */
    public record Plans(long basicPerMinute, long proPerMinute, Set<String> basic, Set<String> pro)
    {
        public static final long MINUTE_MS = 60_000;
        public static final Plans NONE = new Plans(600, 3_000, Set.of(), Set.of());

        public Plans
        {
            for (final String account : basic)
            {
                if (pro.contains(account))
                {
                    throw new IllegalArgumentException(account + " is on both the basic and the pro builder plan");
                }
            }
        }

        /** The account's per-minute limit, or -1 when it is on no plan. */
        long perMinute(final String account)
        {
            return pro.contains(account) ? proPerMinute : basic.contains(account) ? basicPerMinute : -1;
        }
    }

    /**
     * An account's action budget after a request: spec 8.2's budget view, of the window with the fewest actions left
     * (the account's one-second window, or its builder plan's minute), named by its width.
     */
    public record Budget(long windowMs, long usedActions, long remainingActions, long resetInMs)
    {
    }

    /**
     * Which window refused (the first full one), with its state, for the 429 body of spec 2.5; {@code resetInMs} is how
     * long until every full window has room for the same request, as the oldest actions counted leave them (others'
     * requests may fill them again meanwhile).
     */
    public record Refusal(String scope, long windowMs, long maxActionsPerWindow, long usedActions, long resetInMs)
    {
        /** The request asks for more than the window ever holds: waiting does not help, only a smaller request. */
        public boolean neverFits()
        {
            return resetInMs == NEVER;
        }
    }

    /** {@link Refusal#resetInMs} of a request larger than a window's whole limit. */
    public static final long NEVER = -1;

    /** What one request costs: its actions, each on a market, and its cancels (which no market window counts). */
    public static final class Cost
    {
        private long[] markets = new long[1];
        private long[] actions = new long[1];
        private int marketCount;
        private long cancels;

        /** One action on {@code market}. */
        public Cost action(final long market)
        {
            return actions(market, 1);
        }

        /** {@code count} actions on {@code market}. */
        public Cost actions(final long market, final long count)
        {
            for (int i = 0; i < marketCount; i++)
            {
                if (markets[i] == market)
                {
                    actions[i] += count;
                    return this;
                }
            }
            if (marketCount == markets.length)
            {
                markets = Arrays.copyOf(markets, marketCount * 2);
                actions = Arrays.copyOf(actions, marketCount * 2);
            }
            markets[marketCount] = market;
            actions[marketCount++] = count;
            return this;
        }

        /** {@code count} cancels. */
        public Cost cancels(final long count)
        {
            cancels += count;
            return this;
        }

        public long actions()
        {
            long sum = 0;
            for (int i = 0; i < marketCount; i++)
            {
                sum += actions[i];
            }
            return sum;
        }

        public long cancels()
        {
            return cancels;
        }
    }

    /**
     * The scopes a refusal names: the one-second windows in the order {@link #keys} gives them (the second counts the
     * account's cancels, the others actions), then the builder plan's minute.
     */
    public static final String[] SCOPES = {"account", "account_cancels", "api_key", "ip", "market", "shard",
        "builder_plan"};
    private static final String BUILDER_PLAN = SCOPES[SCOPES.length - 1];
    private static final String PLAN = "plan:";

    private final Limits limits;
    /** Each window's limit, in the order of {@link #SCOPES}. */
    private final long[] maxima;
    private final Plans plans;
    /** Make a key's window when it is first charged (made once: a capturing lambda per call would allocate). */
    private final Function<String, SlidingCount> newWindow;
    private final Function<String, SlidingCount> newPlan = key -> new SlidingCount(Plans.MINUTE_MS);
    private final LongSupplier clockMs;
    private final LongToIntFunction shardOf;
    private final Map<String, SlidingCount> windows = new HashMap<>();
    private long lastPruneMs;

    /** One matching shard: every market's actions count in the same shard window. */
    public MmWindows(final Limits limits, final Plans plans, final LongSupplier clockMs)
    {
        this(limits, plans, clockMs, market -> 0);
    }

    /**
     * @param clockMs a clock in milliseconds that never goes back (not the wall clock, which can).
     * @param shardOf the matching shard of a listed market.
     */
    public MmWindows(final Limits limits, final Plans plans, final LongSupplier clockMs,
        final LongToIntFunction shardOf)
    {
        this.limits = limits;
        this.maxima = new long[]{limits.accountActions(), limits.accountCancels(), limits.keyActions(),
            limits.ipActions(), limits.marketActions(), limits.shardActions()};
        this.plans = plans;
        this.newWindow = key -> new SlidingCount(limits.windowMs());
        this.clockMs = clockMs;
        this.shardOf = shardOf;
    }

    public Limits limits()
    {
        return limits;
    }

    public Plans plans()
    {
        return plans;
    }

    /** This lane's clock: pass its reading to {@link #charge} and, for the same request, to {@link #refund}. */
    public long nowMs()
    {
        return clockMs.getAsLong();
    }

    /** {@link #charge(long, String, String, String, Cost)} of {@code actions} on one market and {@code cancels}. */
    public Refusal charge(final long now, final String account, final String apiKeyId, final String address,
        final long market, final long actions, final long cancels)
    {
        return charge(now, account, apiKeyId, address, cost(market, actions, cancels));
    }

    /**
     * Admits and charges the request's cost for the account, key, address, markets and shards at {@code now}, or
     * refuses naming the first full window, with the time after which every full window has room for the request; a
     * request larger than a window's whole limit is refused naming that window, with {@link #NEVER}.
     *
     * @return null when admitted.
     */
    public Refusal charge(final long now, final String account, final String apiKeyId, final String address,
        final Cost cost)
    {
        // the keys are made before the lock every lane thread shares
        final Charges charges = charges(account, apiKeyId, address, cost);
        final long actions = cost.actions();
        final SlidingCount[] counts = new SlidingCount[charges.keys.length];
        synchronized (this)
        {
            prune(now);
            Refusal refusal = null;
            Refusal never = null;
            long fitsInMs = 0;
            for (int i = 0; i < counts.length; i++)
            {
                final int scope = charges.scopes[i];
                final long charge = charges.costs[i];
                counts[i] = windows.computeIfAbsent(charges.keys[i], newWindow);
                final long used = counts[i].used(now);
                if (charge > maxima[scope])
                {
                    never = never != null ? never :
                        new Refusal(SCOPES[scope], limits.windowMs(), maxima[scope], used, NEVER);
                }
                else if (charge > 0 && used + charge > maxima[scope])
                {
                    refusal = refusal != null ? refusal :
                        new Refusal(SCOPES[scope], limits.windowMs(), maxima[scope], used, 0);
                    fitsInMs = Math.max(fitsInMs, counts[i].fitsInMs(now, maxima[scope], charge));
                }
            }
            final long perMinute = plans.perMinute(account);
            final SlidingCount plan = perMinute < 0 ? null : windows.computeIfAbsent(PLAN + account, newPlan);
            final long planUsed = plan == null ? 0 : plan.used(now);
            if (plan != null && actions > perMinute)
            {
                never = never != null ? never : new Refusal(BUILDER_PLAN, Plans.MINUTE_MS, perMinute, planUsed, NEVER);
            }
            else if (plan != null && actions > 0 && planUsed + actions > perMinute)
            {
                refusal = refusal != null ? refusal :
                    new Refusal(BUILDER_PLAN, Plans.MINUTE_MS, perMinute, planUsed, 0);
                fitsInMs = Math.max(fitsInMs, plan.fitsInMs(now, perMinute, actions));
            }
            if (never != null)
            {
                return never;
            }
            if (refusal != null)
            {
                return new Refusal(refusal.scope(), refusal.windowMs(), refusal.maxActionsPerWindow(),
                    refusal.usedActions(), fitsInMs);
            }
            if (plan != null)
            {
                plan.add(now, actions);
            }
            for (int i = 0; i < counts.length; i++)
            {
                counts[i].add(now, charges.costs[i]);
            }
            return null;
        }
    }

    /** {@link #refund(long, String, String, String, Cost)} of {@code actions} on one market and {@code cancels}. */
    public void refund(final long chargedAtMs, final String account, final String apiKeyId, final String address,
        final long market, final long actions, final long cancels)
    {
        refund(chargedAtMs, account, apiKeyId, address, cost(market, actions, cancels));
    }

    /**
     * Gives back a charge made at {@code chargedAtMs} whose request was not taken after all (the verifier queue
     * was full).
     */
    public void refund(final long chargedAtMs, final String account, final String apiKeyId, final String address,
        final Cost cost)
    {
        final Charges charges = charges(account, apiKeyId, address, cost);
        synchronized (this)
        {
            for (int i = 0; i < charges.keys.length; i++)
            {
                final SlidingCount window = windows.get(charges.keys[i]);
                if (window != null)
                {
                    window.takeBack(chargedAtMs, charges.costs[i]);
                }
            }
            final SlidingCount plan = windows.get(PLAN + account);
            if (plan != null)
            {
                plan.takeBack(chargedAtMs, cost.actions());
            }
        }
    }

    /**
     * The account's action budget now: of its window, or of its plan's minute when that has less left; the reset is
     * when the oldest action counted stops counting.
     */
    public synchronized Budget budget(final String account)
    {
        final long now = clockMs.getAsLong();
        final SlidingCount window = windows.computeIfAbsent("account:" + account, newWindow);
        final long used = window.used(now);
        final Budget second = new Budget(limits.windowMs(), used, Math.max(0, limits.accountActions() - used),
            window.oldestLeavesInMs(now));
        final long perMinute = plans.perMinute(account);
        if (perMinute < 0)
        {
            return second;
        }
        final SlidingCount plan = windows.computeIfAbsent(PLAN + account, newPlan);
        final long planUsed = plan.used(now);
        final long planLeft = Math.max(0, perMinute - planUsed);
        return planLeft < second.remainingActions() ?
            new Budget(Plans.MINUTE_MS, planUsed, planLeft, plan.oldestLeavesInMs(now)) : second;
    }

    private static Cost cost(final long market, final long actions, final long cancels)
    {
        return new Cost().actions(market, actions).cancels(cancels);
    }

    /**
     * Each window a request counts in ({@code keys}), the index of its scope in {@link #SCOPES} and what it
     * costs there.
     */
    private record Charges(String[] keys, int[] scopes, long[] costs)
    {
    }

    /**
     * The windows a request counts in: the account's, its cancels', the key's and the address's, then each market's it
     * acts on and each of their shards'.
     */
    private Charges charges(final String account, final String apiKeyId, final String address, final Cost cost)
    {
        final int markets = cost.marketCount;
        final int[] shards = new int[markets];
        final long[] shardCosts = new long[markets];
        int shardCount = 0;
        for (int m = 0; m < markets; m++)
        {
            final int shard = shardOf.applyAsInt(cost.markets[m]);
            int s = 0;
            while (s < shardCount && shards[s] != shard)
            {
                s++;
            }
            shards[s] = shard;
            shardCosts[s] += cost.actions[m];
            shardCount = Math.max(shardCount, s + 1);
        }
        final int length = 4 + markets + shardCount;
        final String[] keys = new String[length];
        final int[] scopes = new int[length];
        final long[] costs = new long[length];
        final long actions = cost.actions();
        keys[0] = "account:" + account;
        costs[0] = actions;
        keys[1] = "account-cancels:" + account;
        scopes[1] = 1;
        costs[1] = cost.cancels;
        keys[2] = "key:" + apiKeyId;
        scopes[2] = 2;
        costs[2] = actions;
        keys[3] = "ip:" + address;
        scopes[3] = 3;
        costs[3] = actions;
        for (int m = 0; m < markets; m++)
        {
            keys[4 + m] = "market:" + cost.markets[m];
            scopes[4 + m] = 4;
            costs[4 + m] = cost.actions[m];
        }
        for (int s = 0; s < shardCount; s++)
        {
            keys[4 + markets + s] = "shard:" + shards[s];
            scopes[4 + markets + s] = 5;
            costs[4 + markets + s] = shardCosts[s];
        }
        return new Charges(keys, scopes, costs);
    }

    private void prune(final long now)
    {
        if (now - lastPruneMs < limits.windowMs())
        {
            return;
        }
        lastPruneMs = now;
        windows.values().removeIf(window -> window.idle(now));
    }
}
