package io.venue.transport.http;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The MM lane's rate limits (spec 8.2): sliding windows of {@code windowMs} per account, per account for cancels, per
 * API key, per source address, per market and per shard. Cancels cost nothing against the action budgets, and a
 * cancel-replace charges one action (its net-new leg) and one cancel. A request is admitted only if every window has
 * room; then every window is charged, so a refused request costs nothing.
 * <p>
 * Each window is estimated from two fixed windows (the previous one weighted by how much of it still overlaps, plus
 * the current one, the earlier share rounded up), which needs two counts per key instead of a timestamp per action;
 * it never lets through more than the limit over any window aligned to the fixed ones. Keys idle for two windows are dropped. Thread safe (one
 * lock: the lane's I/O threads share it).
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
    public record Plans(long basicPerMinute, long proPerMinute, java.util.Set<String> basic, java.util.Set<String> pro)
    {
        public static final long MINUTE_MS = 60_000;
        public static final Plans NONE = new Plans(600, 3_000, java.util.Set.of(), java.util.Set.of());

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
     * Which window refused, with its state, for the 429 body of spec 2.5; {@code resetInMs} is how long until the
     * same request fits (the earlier window's count fades out of the estimate as the sliding window moves on).
     */
    public record Refusal(String scope, long windowMs, long maxActionsPerWindow, long usedActions, long resetInMs)
    {
    }

    private static final class Window
    {
        final long widthMs;
        long start;
        long previous;
        long current;

        Window(final long widthMs)
        {
            this.widthMs = widthMs;
        }
    }

    private final Limits limits;
    private final Plans plans;
    private final LongSupplier clockMs;
    private final Map<String, Window> windows = new HashMap<>();
    private long lastPruneMs;

    /** @param clockMs a clock in milliseconds that never goes back (not the wall clock, which can). */
    public MmWindows(final Limits limits, final Plans plans, final LongSupplier clockMs)
    {
        this.limits = limits;
        this.plans = plans;
        this.clockMs = clockMs;
    }

    public Limits limits()
    {
        return limits;
    }

    public Plans plans()
    {
        return plans;
    }

    /**
     * Admits and charges {@code actions} and {@code cancels} for the account, key, address and market, or refuses
     * naming the first full window.
     *
     * @return null when admitted.
     */
    public synchronized Refusal charge(final String account, final String apiKeyId, final String address, final long market,
        final long actions, final long cancels)
    {
        final long now = clockMs.getAsLong();
        prune(now);
        final String[] keys = keys(account, apiKeyId, address, market);
        final long[] maxima = {limits.accountActions(), limits.accountCancels(), limits.keyActions(), limits.ipActions(),
            limits.marketActions(), limits.shardActions()};
        final String[] scopes = {"account", "account_cancels", "api_key", "ip", "market", "shard"};
        for (int i = 0; i < keys.length; i++)
        {
            final long cost = i == 1 ? cancels : actions;
            final Window window = window(keys[i], now, limits.windowMs());
            final long used = used(window, now);
            if (cost > 0 && used + cost > maxima[i])
            {
                return new Refusal(scopes[i], limits.windowMs(), maxima[i], used, fitsInMs(window, now, maxima[i], cost));
            }
        }
        final long perMinute = plans.perMinute(account);
        if (perMinute >= 0)
        {
            final Window window = window("plan:" + account, now, Plans.MINUTE_MS);
            final long used = used(window, now);
            if (actions > 0 && used + actions > perMinute)
            {
                return new Refusal("builder_plan", Plans.MINUTE_MS, perMinute, used, fitsInMs(window, now, perMinute, actions));
            }
            windows.get("plan:" + account).current += actions;
        }
        for (int i = 0; i < keys.length; i++)
        {
            windows.get(keys[i]).current += i == 1 ? cancels : actions;
        }
        return null;
    }

    /** Gives back a charge whose request was not taken after all (the verifier queue was full). */
    public synchronized void refund(final String account, final String apiKeyId, final String address, final long market,
        final long actions, final long cancels)
    {
        final String[] keys = keys(account, apiKeyId, address, market);
        for (int i = 0; i < keys.length; i++)
        {
            final Window window = windows.get(keys[i]);
            if (window != null)
            {
                window.current = Math.max(0, window.current - (i == 1 ? cancels : actions));
            }
        }
        final Window plan = windows.get("plan:" + account);
        if (plan != null)
        {
            plan.current = Math.max(0, plan.current - actions);
        }
    }

    /** The account's action budget now: of its one-second window, or of its plan's minute when that has less left. */
    public synchronized Budget budget(final String account)
    {
        final long now = clockMs.getAsLong();
        final long used = used(window("account:" + account, now, limits.windowMs()), now);
        final Budget second = new Budget(limits.windowMs(), used, Math.max(0, limits.accountActions() - used),
            resetInMs(now, limits.windowMs()));
        final long perMinute = plans.perMinute(account);
        if (perMinute < 0)
        {
            return second;
        }
        final long planUsed = used(window("plan:" + account, now, Plans.MINUTE_MS), now);
        final long planLeft = Math.max(0, perMinute - planUsed);
        return planLeft < second.remainingActions() ?
            new Budget(Plans.MINUTE_MS, planUsed, planLeft, resetInMs(now, Plans.MINUTE_MS)) : second;
    }

    /** The windows a request counts in; the second is the account's cancels, the others count actions. */
    private static String[] keys(final String account, final String apiKeyId, final String address, final long market)
    {
        return new String[]{"account:" + account, "account-cancels:" + account, "key:" + apiKeyId, "ip:" + address,
            "market:" + market, "shard:0"};
    }

    private Window window(final String key, final long now, final long windowMs)
    {
        final Window window = windows.computeIfAbsent(key, k -> new Window(windowMs));
        final long start = now - Math.floorMod(now, windowMs);
        if (window.start != start)
        {
            window.previous = window.start == start - windowMs ? window.current : 0;
            window.current = 0;
            window.start = start;
        }
        return window;
    }

    private static long used(final Window window, final long now)
    {
        final long elapsed = now - window.start;
        // the part of the previous fixed window that still lies inside the sliding one, rounded up: a limit of one
        // must not let a second action through just after an edge
        return window.current + ceilDiv(window.previous * (window.widthMs - elapsed), window.widthMs);
    }

    /**
     * How long until {@code cost} more fits under {@code max}: the earlier fixed window's share shrinks as time goes
     * on, and at the next edge the current one becomes the earlier one. {@code cost} is at most {@code max}.
     */
    static long fitsInMs(final Window window, final long now, final long max, final long cost)
    {
        final long width = window.widthMs;
        final long elapsed = now - window.start;
        if (window.current + cost <= max)
        {
            // this window: the first elapsed time e with previous * (width - e) / width, rounded up, <= max - cost - current
            return Math.max(1, firstElapsedWithin(window.previous, max - cost - window.current, width) - elapsed);
        }
        // the next window: the current count becomes the earlier one
        return width - elapsed + firstElapsedWithin(window.current, max - cost, width);
    }

    /** The least e in [0, width] with ceil(count * (width - e) / width) <= room. */
    private static long firstElapsedWithin(final long count, final long room, final long width)
    {
        if (count <= room)
        {
            return 0;
        }
        // count * (width - e) <= room * width  <=>  width - e <= floor(room * width / count)
        return width - room * width / count;
    }

    private static long ceilDiv(final long dividend, final long divisor)
    {
        return -Math.floorDiv(-dividend, divisor);
    }

    private static long resetInMs(final long now, final long windowMs)
    {
        return windowMs - Math.floorMod(now, windowMs);
    }

    private void prune(final long now)
    {
        if (now - lastPruneMs < limits.windowMs())
        {
            return;
        }
        lastPruneMs = now;
        // a key idle for two of its windows counts nothing any more
        windows.values().removeIf(window -> window.start < now - 2 * window.widthMs);
    }
}
