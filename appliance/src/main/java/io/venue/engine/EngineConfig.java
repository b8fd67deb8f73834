package io.venue.engine;

import io.venue.engine.state.EngineState;
import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.engine.protect.ProtectionTable;

import io.venue.action.Address;
import io.venue.engine.limit.TokenBucket;
import io.venue.engine.state.StateLimits;
import io.venue.tuning.Doorbell;
import io.venue.tuning.DoorbellIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The engine's rules and sizes. Part of what makes replay deterministic: the same commands under the
 * same configuration give the same events, so a replay must use the configuration of the run it checks.
 */
public final class EngineConfig
{
    private final List<Address> operators = new ArrayList<>();
    private int maxLevelsPerSide = 1_000;
    private int orderCapacityPerBook = 1 << 14;
    private int maxMarkets = 64;
    private long indexSeed;
    private int maxOpenOrdersPerAccount = 50_000;
    private int maxOpenOrdersPerAccountAndMarket = 10_000;
    private long actionsPerWindow = 50;
    private long actionWindowMs = 1_000;
    private int assetCapacity = 64;
    private int expectedAccounts = 1_024;
    private StateLimits stateLimits = StateLimits.DEMO;
    private int shards = 1;
    private int groupCommands = 64;
    private int protectionCapacity = ProtectionTable.DEFAULT_CAPACITY;
    private int fixOnboardingCapacity = FixOnboardingTable.DEFAULT_CAPACITY;
    private boolean crossShardCreditEnabled;
    private long crossShardHaircutPpm;
    private long crossShardMaxAccountLocked = Long.MAX_VALUE;
    private long crossShardMaxMarketLocked = Long.MAX_VALUE;
    private boolean crossShardKillSwitch;
    /** The default shard threads: unpinned daemon threads named {@code matching-shard-N}. */
    public static final IntFunction<ThreadFactory> UNPINNED_SHARD_THREADS =
        shard -> runnable ->
        {
            final Thread thread = new Thread(runnable, "matching-shard-" + shard);
            thread.setDaemon(true);
            return thread;
        };
    /** The default wait of an idle shard: a short spin, then parked until rung, 1 ms at most. */
    public static final Function<Doorbell, IdleStrategy> PARKED_SHARD_IDLE =
        bell -> new DoorbellIdleStrategy(bell, 1_000, 1_000_000);
    private IntFunction<ThreadFactory> shardThreads = UNPINNED_SHARD_THREADS;
    private Function<Doorbell, IdleStrategy> shardIdle = PARKED_SHARD_IDLE;

    /** An operator key: the only signer admin actions are accepted from. */
    public EngineConfig operator(final Address operator)
    {
        operators.add(operator);
        return this;
    }

    public List<Address> operators()
    {
        return List.copyOf(operators);
    }

    /** Price levels per side and book; one more prunes the worst (default 1,000, spec 8.2). */
    public EngineConfig maxLevelsPerSide(final int levels)
    {
        maxLevelsPerSide = levels;
        return this;
    }

    public int maxLevelsPerSide()
    {
        return maxLevelsPerSide;
    }

    /**
     * Resting orders one book can hold, at most 2^20 (default 16,384). Every book allocates its pool when its
     * market is listed: about 130 bytes per slot (134 with several shards), so 2.1 MB per book by default.
     */
    public EngineConfig orderCapacityPerBook(final int capacity)
    {
        if (capacity < 1 || capacity > Orders.MAX_SLOTS_PER_BOOK)
        {
            throw new IllegalArgumentException("orderCapacityPerBook must be 1 to " + Orders.MAX_SLOTS_PER_BOOK);
        }
        orderCapacityPerBook = capacity;
        return this;
    }

    public int orderCapacityPerBook()
    {
        return orderCapacityPerBook;
    }

    /**
     * Markets that may be listed (default 64, at most 1,024). With {@link #orderCapacityPerBook} this bounds
     * the memory the books take: size the heap for {@code maxMarkets × 2 books × capacity × 130 B} (134 B with
     * several shards, whose amend rule keeps a stamp per slot).
     */
    public EngineConfig maxMarkets(final int markets)
    {
        if (markets < 1 || markets > Operator.MAX_MARKETS)
        {
            throw new IllegalArgumentException("maxMarkets must be 1 to " + Operator.MAX_MARKETS);
        }
        maxMarkets = markets;
        return this;
    }

    public int maxMarkets()
    {
        return maxMarkets;
    }

    /** Open orders per account (default 50,000, spec 8.2). */
    public EngineConfig maxOpenOrdersPerAccount(final int max)
    {
        maxOpenOrdersPerAccount = max;
        return this;
    }

    public int maxOpenOrdersPerAccount()
    {
        return maxOpenOrdersPerAccount;
    }

    /** Open orders per account and market (default 10,000, spec 8.2). */
    public EngineConfig maxOpenOrdersPerAccountAndMarket(final int max)
    {
        maxOpenOrdersPerAccountAndMarket = max;
        return this;
    }

    public int maxOpenOrdersPerAccountAndMarket()
    {
        return maxOpenOrdersPerAccountAndMarket;
    }

    /** The per-account action limit: {@code actions} per {@code windowMs} of stamped time (default 50 per 1,000 ms). */
    public EngineConfig actionRate(final long actions, final long windowMs)
    {
        if (!TokenBucket.fits(actions, windowMs))
        {
            throw new IllegalArgumentException(
                "the action rate needs actions and windowMs of at least 1 with (actions + 1) × " +
                "windowMs below 2^63: " + actions + " per " + windowMs + " ms");
        }
        actionsPerWindow = actions;
        actionWindowMs = windowMs;
        return this;
    }

    public long actionsPerWindow()
    {
        return actionsPerWindow;
    }

    public long actionWindowMs()
    {
        return actionWindowMs;
    }

    /** Ledger assets, including two share assets per outcome market (default 64). */
    public EngineConfig assetCapacity(final int capacity)
    {
        assetCapacity = capacity;
        return this;
    }

    public int assetCapacity()
    {
        return assetCapacity;
    }

    /**
     * A secret mixed into the hash of the order-id and client-order-id indexes, so clients cannot choose
     * ids that all land in one probe run (default 0: set a per-deployment secret in production). It never
     * changes an event or the state hash, so replays need not know it.
     */
    public EngineConfig indexSeed(final long seed)
    {
        indexSeed = seed;
        return this;
    }

    public long indexSeed()
    {
        return indexSeed;
    }

    /** A sizing hint for account tables; they grow beyond it. */
    public EngineConfig expectedAccounts(final int accounts)
    {
        expectedAccounts = accounts;
        return this;
    }

    public int expectedAccounts()
    {
        return expectedAccounts;
    }

    /**
     * How many accounts, balance and position records, resting orders, agents and credentials the engine may
     * make (default {@link StateLimits#DEMO}). An action that would make one more is refused with
     * {@code CAPACITY_LIMIT} (a resting remainder is cancelled with {@code BOOK_FULL}, its fills kept). A
     * persisted engine refuses to start on maps sized below these limits.
     */
    public EngineConfig stateLimits(final StateLimits limits)
    {
        stateLimits = limits;
        return this;
    }

    public StateLimits stateLimits()
    {
        return stateLimits;
    }

    /**
     * Every value here that decides the engine's events, one {@code name=value} line each in a fixed order: what a
     * journal was written under, since a replay gives its events only under the same values. Threads, idle strategies
     * and sizing hints ({@link #expectedAccounts}, {@link #indexSeed}) are not among them.
     */
    public String describe()
    {
        final List<String> sortedOperators = new ArrayList<>();
        operators.forEach(operator -> sortedOperators.add(operator.toString()));
        sortedOperators.sort(null);
        return "operators=" + String.join(",", sortedOperators) + "\n" +
            "maxLevelsPerSide=" + maxLevelsPerSide + "\n" +
            "orderCapacityPerBook=" + orderCapacityPerBook + "\n" +
            "maxMarkets=" + maxMarkets + "\n" +
            "maxOpenOrdersPerAccount=" + maxOpenOrdersPerAccount + "\n" +
            "maxOpenOrdersPerAccountAndMarket=" + maxOpenOrdersPerAccountAndMarket + "\n" +
            "actionRate=" + actionsPerWindow + " per " + actionWindowMs + " ms\n" +
            "assetCapacity=" + assetCapacity + "\n" +
            "stateLimits=" + stateLimits + "\n" +
            "shards=" + shards + "\n" +
            // written only when set, so that a record of a build before the protections still compares equal
            (protectionCapacity == ProtectionTable.DEFAULT_CAPACITY ? "" :
            "protectionCapacity=" + protectionCapacity + "\n") +
            (fixOnboardingCapacity == FixOnboardingTable.DEFAULT_CAPACITY ? "" :
            "fixOnboardingCapacity=" + fixOnboardingCapacity + "\n") +
            // the admission group and the cross-shard credit act only between shards
            (shards == 1 ? "" : "groupCommands=" + groupCommands + "\n" +
            "crossShardCredit=" +
            (crossShardCreditEnabled ? "haircutPpm " + crossShardHaircutPpm + ", maxAccountLocked " +
            crossShardMaxAccountLocked + ", maxMarketLocked " + crossShardMaxMarketLocked + ", killSwitch " +
            crossShardKillSwitch : "off") + "\n");
    }

    /**
     * Matching shards (default 1, at most {@value #MAX_SHARDS}). With one, a single thread does everything. With
     * several, market number m is matched by shard m mod shards on a thread of its own, while the engine's thread
     * keeps the gate, credit and settlement (docs/ENGINE.md "Several shards").
     */
    public EngineConfig shards(final int shards)
    {
        if (shards < 1 || shards > MAX_SHARDS)
        {
            throw new IllegalArgumentException("shards must be 1 to " + MAX_SHARDS + ", got " + shards);
        }
        this.shards = shards;
        return this;
    }

    /**
     * The slots of the protection table (sessions, pending sweeps, dead-man timers, cancel-on-disconnect arms;
     * default {@value ProtectionTable#DEFAULT_CAPACITY}): a protection command that needs one more is refused
     * REFUSED_FULL. Part of what a replay must use, like every size here; at most
     * {@code EngineState.Context.PROTECTIONS}, the state store's size.
     */
    public EngineConfig protectionCapacity(final int slots)
    {
        if (slots < 1 || slots > EngineState.Context.PROTECTIONS)
        {
            throw new IllegalArgumentException("protectionCapacity is 1 to " +
                EngineState.Context.PROTECTIONS + ": " + slots);
        }
        protectionCapacity = slots;
        return this;
    }

    public int protectionCapacity()
    {
        return protectionCapacity;
    }

    /**
     * The FIX onboarding records the engine holds (default {@value FixOnboardingTable#DEFAULT_CAPACITY}, one per
     * credential): a SetFixOnboarding for one more credential is refused CAPACITY_LIMIT. Part of what a replay must
     * use; at most {@code EngineState.Context.FIX_ONBOARDING}, the state store's size.
     */
    public EngineConfig fixOnboardingCapacity(final int records)
    {
        if (records < 1 || records > EngineState.Context.FIX_ONBOARDING)
        {
            throw new IllegalArgumentException("fixOnboardingCapacity is 1 to " +
                EngineState.Context.FIX_ONBOARDING + ": " + records);
        }
        fixOnboardingCapacity = records;
        return this;
    }

    public int fixOnboardingCapacity()
    {
        return fixOnboardingCapacity;
    }

    public int shards()
    {
        return shards;
    }

    /** The most matching shards an engine takes. */
    public static final int MAX_SHARDS = 64;

    /**
     * With several shards: the commands of one group (sequences {@code g × n} to {@code g × n + n - 1}) are
     * admitted against the credit as it stood when the group began, less what the group's own orders hold
     * (default 64). The proceeds and releases of a group's fills count from the next group on. Part of what
     * the engine's output is a function of: a replay must use the same value.
     */
    public EngineConfig groupCommands(final int commands)
    {
        if (commands < 1)
        {
            throw new IllegalArgumentException("groupCommands must be positive, got " + commands);
        }
        this.groupCommands = commands;
        return this;
    }

    public int groupCommands()
    {
        return groupCommands;
    }

    /**
     * Where the matching shards' threads come from (by shard number; default: unpinned daemon threads) and how they
     * wait for work (given the bell the engine's thread rings after each hand-off; default: a short spin, then parked
     * until rung, 1 ms at most). Neither changes any output.
     */
    public EngineConfig shardThreads(
        final IntFunction<ThreadFactory> threads,
        final Function<Doorbell, IdleStrategy> idle)
    {
        this.shardThreads = Objects.requireNonNull(threads);
        this.shardIdle = Objects.requireNonNull(idle);
        return this;
    }

    IntFunction<ThreadFactory> shardThreads()
    {
        return shardThreads;
    }

    Function<Doorbell, IdleStrategy> shardIdle()
    {
        return shardIdle;
    }

    /**
     * Enables the cross-shard credit admission of spec 8.6 ({@link CrossShardCredit}); it is active only with
     * several shards. Off by default.
     *
     * @param haircutPpm       the part of the available credit a reservation may not use, in millionths (0
     * to 1,000,000).
     * @param maxAccountLocked the most an account may have locked of one asset.
     * @param maxMarketLocked  the most a market's open orders may hold of one asset.
     * @param killSwitch       true refuses every new reservation (fail closed).
     */
    public EngineConfig crossShardCredit(
        final long haircutPpm, final long maxAccountLocked, final long maxMarketLocked, final boolean killSwitch)
    {
        if (haircutPpm < 0 || haircutPpm > 1_000_000 || maxAccountLocked < 0 || maxMarketLocked < 0)
        {
            throw new IllegalArgumentException(
                "the cross-shard haircut is 0 to 1,000,000 ppm and the caps are not negative");
        }
        this.crossShardCreditEnabled = true;
        this.crossShardHaircutPpm = haircutPpm;
        this.crossShardMaxAccountLocked = maxAccountLocked;
        this.crossShardMaxMarketLocked = maxMarketLocked;
        this.crossShardKillSwitch = killSwitch;
        return this;
    }

    public boolean crossShardCreditEnabled()
    {
        return crossShardCreditEnabled;
    }

    /** Whether spec 8.6's admission applies: enabled, and several shards. */
    public boolean crossShardCreditActive()
    {
        return shards > 1 && crossShardCreditEnabled;
    }

    public long crossShardHaircutPpm()
    {
        return crossShardHaircutPpm;
    }

    public long crossShardMaxAccountLocked()
    {
        return crossShardMaxAccountLocked;
    }

    public long crossShardMaxMarketLocked()
    {
        return crossShardMaxMarketLocked;
    }

    public boolean crossShardKillSwitch()
    {
        return crossShardKillSwitch;
    }
}
