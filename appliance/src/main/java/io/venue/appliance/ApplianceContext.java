package io.venue.appliance;

import io.venue.action.Address;
import io.venue.replication.ReplicationContext;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Everything one appliance process is configured with. The embedded default (no file) is a demo venue on
 * 127.0.0.1:8080 with its data under {@code ./data}; a production file (Java properties, keys in
 * docs/OPERATIONS.md) names its own folder, address, deployment binding and operator keys.
 */
public final class ApplianceContext
{
    /** The deployment binding of the reference vectors and the CLI's defaults: a demo signs with no extra flags. */
    public static final long DEMO_CHAIN_ID = 8453;
    public static final Address DEMO_CONTRACT = Address.of("0x" + "5e".repeat(20));


    /** Whether this node writes the command journal or follows another node's. */
    public enum Role
    {
        PRIMARY, STANDBY
    }

    Path dataDir = Path.of("data");
    String httpHost = "127.0.0.1";
    int httpPort = 8080;
    long chainId = DEMO_CHAIN_ID;
    Address verifyingContract = DEMO_CONTRACT;
    int verifierThreads = 1;
    final List<Address> operators = new ArrayList<>();
    boolean demo = true;
    long snapshotEvery = 1_000_000;
    int snapshotsKept = 2;
    long answerTimeoutMs = 10_000;
    Role role = Role.PRIMARY;
    ReplicationContext.Mode replicationMode = ReplicationContext.Mode.SYNC;
    /** host:port where the standby receives commands; with {@link #primaryEndpoint}, replication is on. */
    String standbyEndpoint;
    /** host:port where the primary receives the standby's acknowledgements and requests. */
    String primaryEndpoint;
    long primaryTimeoutMs = 1_000;
    boolean autoPromote;
    long replicationReportMs = 10_000;
    long shardBusyBacklog = 20_000;
    /** Matching shards (engine.shards) and the commands of one admission group (engine.group.commands): ENGINE.md. */
    int engineShards = 1;
    int groupCommands = 64;
    /** The cores of the matching shards' threads, round robin; none listed: not pinned. */
    int[] coreShards = new int[0];
    /** The cross-shard credit admission of spec 8.6 (mm.cross.shard.credit.*): off unless enabled, and only with several shards. */
    boolean crossShardCredit;
    long crossShardHaircutPpm;
    long crossShardMaxAccountLocked = Long.MAX_VALUE;
    long crossShardMaxMarketLocked = Long.MAX_VALUE;
    boolean crossShardKillSwitch;
    /** The core the engine thread is pinned to; -1: not pinned (the default, right on a shared machine). */
    int coreEngine = -1;
    int coreFront = -1;
    int[] coreVerifiers = new int[0];
    /** A thread faulting in the journals' next pages ahead of their writers (io.venue.journal.queue.JournalPretoucher). */
    boolean journalPretouch = true;
    int corePretouch = -1;
    /** The engine's rules: part of what a replay must repeat, so every node of a pair needs the same. */
    long accountActions = 50;
    long accountWindowMs = 1_000;
    int openOrdersPerAccount = 50_000;
    int openOrdersPerAccountAndMarket = 10_000;
    int levelsPerSide = 1_000;
    int maxMarkets = 64;
    int ordersPerBook = 1 << 14;
    long stateAccounts = 10_000;
    long stateRestingOrders = 100_000;
    /** How idle threads wait: {@code park} (the default), {@code backoff} or {@code busy-spin}. */
    String idleWait = "park";
    boolean compactThreads;
    long edgeIpRate = 10;
    long edgeIpBurst = 20;
    /** The edge throttle's clock in nanoseconds; tests set their own (edgeClock) to decide when a bucket refills. */
    java.util.function.LongSupplier edgeNanoClock = System::nanoTime;
    /** Tests only (idleStrategy(Function)): how the engine, shard and verifier threads wait, in place of idle.strategy. */
    private java.util.function.Function<io.venue.tuning.Doorbell, org.agrona.concurrent.IdleStrategy> idleStrategyOverride;
    /** The addresses GET /api/v1/admin/metrics answers (the operator's scraper); loopback by default. */
    java.util.Set<java.net.InetAddress> metricsAllowed = loopback();
    final java.util.Set<java.net.InetAddress> edgeIpExempt = new java.util.HashSet<>();
    /** Unset (0) until configured: see {@link #idleMaxParkUs()}. */
    long idleMaxParkUs;
    private static final long MAX_PARK_US = 10_000;
    /** Polls with a spin-wait hint before an idle thread parks: a few microseconds, enough for a burst's next request. */
    private static final int IDLE_SPINS = 20;
    /** The key the HMAC credentials' secrets and the WS tokens derive from; null: {@code keys/credentials.key} of the data folder. */
    Path credentialKeyFile;
    /** The configured listing (exchange-info's shape) and the operator key that signs its creation; both or neither. */
    Path listingFile;
    Path listingOperatorKeyFile;
    long wsTokenTtlMs = 180_000;
    /** The MM lane's windows (spec 8.2). */
    long mmWindowMs = 1_000;
    long mmAccountActions = 4_000;
    long mmAccountCancels = 64_000;
    long mmKeyActions = 16_000;
    long mmIpActions = 16_000;
    long mmMarketActions = 64_000;
    long mmShardActions = 128_000;
    /** How far a compact order's ts may be from the server's clock (spec 8.2's maxActionTsSkewMs). */
    long mmActionTsSkewMs = 15_000;
    int mmLowLatencyMaxActions = io.venue.transport.http.HttpGateway.DEFAULT_LOW_LATENCY_MAX_ACTIONS;
    int mmPrebatchedMaxBatches = io.venue.transport.http.HttpGateway.DEFAULT_PREBATCHED_MAX_BATCHES;
    /** The HTTP lane's body limit (and the compact routes' ingress.binaryMaxBodyBytes). */
    int httpMaxBodyBytes = 512 * 1024;
    long builderBasicPerMinute = 600;
    long builderProPerMinute = 3_000;
    final java.util.Set<String> builderBasic = new java.util.HashSet<>();
    final java.util.Set<String> builderPro = new java.util.HashSet<>();

    /**
     * Reads a properties file. Unknown keys are refused (a misspelt key silently ignored is a wrong venue);
     * {@code demo} is false unless the file says true.
     */
    public static ApplianceContext fromFile(final Path file) throws IOException
    {
        final Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            p.load(reader);
        }
        final ApplianceContext c = new ApplianceContext();
        c.demo = false;
        final Path base = file.toAbsolutePath().getParent();
        for (final String key : p.stringPropertyNames())
        {
            try
            {
                c.set(key, p.getProperty(key).trim(), base);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
            }
        }
        c.validate();
        return c;
    }

    /** One setting by its file key; relative folders are taken from {@code base}. */
    public ApplianceContext set(final String key, final String value, final Path base)
    {
        boolean known = true;
        try
        {
            switch (key)
            {
                case "data.dir" -> dataDir = base.resolve(value);
                case "http.host" -> httpHost = value;
                case "http.port" -> httpPort = Integer.parseInt(value);
                case "chain.id" -> chainId = Long.parseLong(value);
                case "verifying.contract" -> verifyingContract = Address.of(value.toLowerCase(Locale.ROOT));
                case "verifier.threads" -> verifierThreads = Integer.parseInt(value);
                case "operators" ->
                {
                    operators.clear();
                    operators.addAll(addresses(value));
                }
                case "demo" -> demo = Boolean.parseBoolean(value);
                case "snapshot.every" -> snapshotEvery = Long.parseLong(value);
                case "snapshot.keep" -> snapshotsKept = Integer.parseInt(value);
                case "answer.timeout.ms" -> answerTimeoutMs = Long.parseLong(value);
                case "role" -> role = Role.valueOf(value.toUpperCase(Locale.ROOT));
                case "replication.mode" -> replicationMode = ReplicationContext.Mode.valueOf(value.toUpperCase(Locale.ROOT));
                case "replication.standby.endpoint" -> standbyEndpoint = endpoint(value);
                case "replication.primary.endpoint" -> primaryEndpoint = endpoint(value);
                case "replication.primary.timeout.ms" -> primaryTimeoutMs = Long.parseLong(value);
                case "replication.auto.promote" -> autoPromote = Boolean.parseBoolean(value);
                case "replication.report.ms" -> replicationReportMs = Long.parseLong(value);
                case "shard.busy.backlog" -> shardBusyBacklog = Long.parseLong(value);
                case "engine.shards" -> engineShards = Integer.parseInt(value);
                case "engine.group.commands" -> groupCommands = Integer.parseInt(value);
                case "core.shards" -> coreShards = cores(value);
                case "mm.cross.shard.credit.enabled" -> crossShardCredit = bool(value);
                case "mm.cross.shard.credit.haircut.ppm" -> crossShardHaircutPpm = Long.parseLong(value);
                case "mm.cross.shard.credit.max.account.locked" -> crossShardMaxAccountLocked = Long.parseLong(value);
                case "mm.cross.shard.credit.max.market.locked" -> crossShardMaxMarketLocked = Long.parseLong(value);
                case "mm.cross.shard.credit.kill.switch" -> crossShardKillSwitch = bool(value);
                case "limits.account.actions" -> accountActions = Long.parseLong(value);
                case "limits.account.window.ms" -> accountWindowMs = Long.parseLong(value);
                case "limits.open.orders.account" -> openOrdersPerAccount = Integer.parseInt(value);
                case "limits.open.orders.account.market" -> openOrdersPerAccountAndMarket = Integer.parseInt(value);
                case "limits.levels.per.side" -> levelsPerSide = Integer.parseInt(value);
                case "limits.markets" -> maxMarkets = Integer.parseInt(value);
                case "limits.orders.per.book" -> ordersPerBook = Integer.parseInt(value);
                case "limits.accounts" -> stateAccounts = Long.parseLong(value);
                case "limits.resting.orders" -> stateRestingOrders = Long.parseLong(value);
                case "core.engine" -> coreEngine = Integer.parseInt(value);
                case "core.front" -> coreFront = Integer.parseInt(value);
                case "core.pretouch" -> corePretouch = Integer.parseInt(value);
                case "journal.pretouch" -> journalPretouch = bool(value);
                case "core.verifiers" -> coreVerifiers = cores(value);
                case "idle.strategy" -> idleWait = switch (value)
                {
                    case "park", "backoff", "busy-spin" -> value;
                    default -> throw new IllegalArgumentException("park, backoff or busy-spin");
                };
                case "idle.max.park.us" ->
                {
                    idleMaxParkUs = Long.parseLong(value);
                    if (idleMaxParkUs < 1 || idleMaxParkUs > MAX_PARK_US)
                    {
                        // longer parks would hold up the periodic duties: replication heartbeats, a clean stop
                        throw new IllegalArgumentException("idle.max.park.us is 1 to " + MAX_PARK_US);
                    }
                }
                case "threads" -> compactThreads = switch (value)
                {
                    case "compact" -> true;
                    case "spread" -> false;
                    default -> throw new IllegalArgumentException("spread or compact");
                };
                case "credentials.key.file" -> credentialKeyFile = base.resolve(value);
                case "listing.file" -> listingFile = base.resolve(value);
                case "listing.operator.key.file" -> listingOperatorKeyFile = base.resolve(value);
                case "ws.token.ttl.ms" -> wsTokenTtlMs = Long.parseLong(value);
                case "mm.window.ms" -> mmWindowMs = Long.parseLong(value);
                case "mm.account.actions" -> mmAccountActions = Long.parseLong(value);
                case "mm.account.cancels" -> mmAccountCancels = Long.parseLong(value);
                case "mm.key.actions" -> mmKeyActions = Long.parseLong(value);
                case "mm.ip.actions" -> mmIpActions = Long.parseLong(value);
                case "mm.market.actions" -> mmMarketActions = Long.parseLong(value);
                case "mm.shard.actions" -> mmShardActions = Long.parseLong(value);
                case "mm.action.ts.skew.ms" -> mmActionTsSkewMs = Long.parseLong(value);
                case "mm.low.latency.max.actions" -> mmLowLatencyMaxActions = Integer.parseInt(value);
                case "mm.prebatched.max.batches" -> mmPrebatchedMaxBatches = Integer.parseInt(value);
                case "http.max.body.bytes" -> httpMaxBodyBytes = Integer.parseInt(value);
                case "mm.builder.basic.per.minute" -> builderBasicPerMinute = Long.parseLong(value);
                case "mm.builder.pro.per.minute" -> builderProPerMinute = Long.parseLong(value);
                case "mm.builder.basic" -> accounts(value, builderBasic);
                case "mm.builder.pro" -> accounts(value, builderPro);
                case "edge.ip.rate" -> edgeIpRate = Long.parseLong(value);
                case "edge.ip.burst" -> edgeIpBurst = Long.parseLong(value);
                case "metrics.allow" -> metricsAllowed = numericAddresses(value);
                case "edge.ip.exempt" ->
                {
                    edgeIpExempt.clear();
                    edgeIpExempt.addAll(numericAddresses(value));
                }
                default -> known = false;
            }
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException("bad value for " + key + " ('" + value + "'): " + ex.getMessage(), ex);
        }
        if (!known)
        {
            // a misspelt key silently ignored would be a wrong venue
            throw new IllegalArgumentException("unknown key '" + key + "' (docs/OPERATIONS.md lists the keys)");
        }
        return this;
    }

    /** A comma-separated list of account addresses, each checked; blanks between commas are skipped. */
    private static java.util.List<Address> addresses(final String value)
    {
        final java.util.List<Address> addresses = new java.util.ArrayList<>();
        for (final String address : value.split(","))
        {
            if (!address.isBlank())
            {
                addresses.add(Address.of(address.trim().toLowerCase(Locale.ROOT)));
            }
        }
        return addresses;
    }

    private static void accounts(final String value, final java.util.Set<String> into)
    {
        into.clear();
        addresses(value).forEach(address -> into.add(address.toString()));
    }

    /** The builder plans as configured. */
    io.venue.transport.http.MmWindows.Plans builderPlans()
    {
        return new io.venue.transport.http.MmWindows.Plans(builderBasicPerMinute, builderProPerMinute, java.util.Set.copyOf(builderBasic),
            java.util.Set.copyOf(builderPro));
    }

    /** The MM lane's windows as configured. */
    io.venue.transport.http.MmWindows.Limits mmLimits()
    {
        return new io.venue.transport.http.MmWindows.Limits(mmWindowMs, mmAccountActions, mmAccountCancels, mmKeyActions,
            mmIpActions, mmMarketActions, mmShardActions);
    }

    /** Where the credential key is (made there at first start when missing). */
    Path credentialKeyFile()
    {
        return credentialKeyFile != null ? credentialKeyFile : dataDir.resolve("keys").resolve("credentials.key");
    }

    /** A comma-separated list of IP literals. */
    private static java.util.Set<java.net.InetAddress> numericAddresses(final String value)
    {
        final java.util.Set<java.net.InetAddress> addresses = new java.util.HashSet<>();
        for (final String address : value.split(","))
        {
            if (!address.isBlank())
            {
                addresses.add(numericAddress(address.trim()));
            }
        }
        return addresses;
    }

    private static java.util.Set<java.net.InetAddress> loopback()
    {
        return numericAddresses("127.0.0.1,::1");
    }

    /** An IP literal only: a host name here would be resolved once, at start, and silently go stale. */
    private static java.net.InetAddress numericAddress(final String text)
    {
        if (!text.matches("[0-9.]+|[0-9a-fA-F:]+"))
        {
            throw new IllegalArgumentException("'" + text + "' is not an IP address");
        }
        try
        {
            return java.net.InetAddress.getByName(text);
        }
        catch (final java.net.UnknownHostException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not an IP address", ex);
        }
    }

    /** Addresses the edge IP throttle never limits (a colocated gateway, a load generator). */
    public ApplianceContext edgeExempt(final String address)
    {
        edgeIpExempt.add(numericAddress(address));
        return this;
    }

    private static String endpoint(final String value)
    {
        final int colon = value.lastIndexOf(':');
        if (colon <= 0 || Integer.parseInt(value.substring(colon + 1)) < 1 || Integer.parseInt(value.substring(colon + 1)) > 65_535)
        {
            throw new IllegalArgumentException("expected host:port");
        }
        return value;
    }

    /**
     * The longest park of an idle thread, in microseconds: as configured, else 1,000 when idle threads park until rung
     * (every hand-off between the appliance's threads rings, so the park only bounds periodic duties; about 6% of a
     * core while idle) and 100 for Agrona's backoff, which hears no bell.
     */
    long idleMaxParkUs()
    {
        return idleMaxParkUs > 0 ? idleMaxParkUs : "backoff".equals(idleWait) ? 100 : 1_000;
    }

    /**
     * The front thread's longest park: as {@link #idleMaxParkUs()}, but 100 µs by default on a node of a replicated
     * pair, where the shipped records and the acknowledgements it polls come through Aeron, which rings no bell (the
     * embedded media driver adds its own wait, up to 1 ms when idle).
     */
    long frontMaxParkUs()
    {
        return idleMaxParkUs == 0 && replicated() ? 100 : idleMaxParkUs();
    }

    private static boolean bool(final String value)
    {
        return switch (value)
        {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("true or false");
        };
    }

    private static int[] cores(final String value)
    {
        return value.isBlank() ? new int[0] :
            java.util.Arrays.stream(value.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
    }

    /** Replication is configured when both endpoints are. */
    public boolean replicated()
    {
        return standbyEndpoint != null && primaryEndpoint != null;
    }

    /** The replication settings: UDP between the two endpoints, heartbeats every 20 ms. */
    ReplicationContext replication()
    {
        return new ReplicationContext()
            .mode(replicationMode)
            .commandChannel("aeron:udp?endpoint=" + standbyEndpoint, 1001)
            .replyChannel("aeron:udp?endpoint=" + primaryEndpoint, 1002)
            .heartbeatInterval(20, java.util.concurrent.TimeUnit.MILLISECONDS)
            .primaryTimeout(primaryTimeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)
            .promoteOnPrimaryLoss(autoPromote);
    }

    /** The engine configuration these settings describe; the engine checks each value when it applies it. */
    public io.venue.engine.EngineConfig engineConfig()
    {
        final io.venue.engine.EngineConfig config = new io.venue.engine.EngineConfig()
            .actionRate(accountActions, accountWindowMs)
            .maxOpenOrdersPerAccount(openOrdersPerAccount)
            .maxOpenOrdersPerAccountAndMarket(openOrdersPerAccountAndMarket)
            .maxLevelsPerSide(levelsPerSide)
            .maxMarkets(maxMarkets)
            .orderCapacityPerBook(ordersPerBook)
            .stateLimits(io.venue.engine.state.StateLimits.forAccounts(stateAccounts, stateRestingOrders))
            .shards(engineShards)
            .groupCommands(groupCommands)
            .shardThreads(shard -> io.venue.tuning.PinnedThreads.factory("matching-shard-" + shard,
                coreShards.length == 0 ? -1 : coreShards[shard % coreShards.length]), idleStrategy());
        if (crossShardCredit)
        {
            config.crossShardCredit(crossShardHaircutPpm, crossShardMaxAccountLocked, crossShardMaxMarketLocked, crossShardKillSwitch);
        }
        operators.forEach(config::operator);
        return config;
    }

    /** A thread factory for verifier i: pinned to the i-th listed core (round robin), unpinned when none is listed. */
    java.util.concurrent.ThreadFactory verifierThreadFactory()
    {
        final java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        return runnable ->
        {
            final int i = next.getAndIncrement();
            return io.venue.tuning.PinnedThreads.factory("verifier-" + i,
                coreVerifiers.length == 0 ? -1 : coreVerifiers[i % coreVerifiers.length]).newThread(runnable);
        };
    }

    /**
     * How an idle appliance thread waits, given the bell its producers ring: park (the default: a short spin, then
     * parked until a producer rings or for at most {@code idle.max.park.us}; gentle on a shared machine and woken at
     * once), backoff (Agrona's: spin, yield, then park for a doubling time up to {@code idle.max.park.us}, deaf to the
     * bell) or busy-spin (a dedicated core each).
     */
    java.util.function.Function<io.venue.tuning.Doorbell, org.agrona.concurrent.IdleStrategy> idleStrategy()
    {
        return null != idleStrategyOverride ? idleStrategyOverride : idleStrategy(idleMaxParkUs());
    }

    /**
     * Tests only: the engine, shard and verifier threads wait with {@code strategy} (given each thread's bell) instead of
     * what idle.strategy says, so a test can hold them between two duty cycles. Not a setting of the file.
     */
    ApplianceContext idleStrategy(final java.util.function.Function<io.venue.tuning.Doorbell, org.agrona.concurrent.IdleStrategy> strategy)
    {
        idleStrategyOverride = strategy;
        return this;
    }

    /** Tests only: the edge throttle's clock, in nanoseconds (System::nanoTime unless set), so a test decides when it refills. */
    ApplianceContext edgeClock(final java.util.function.LongSupplier nanoClock)
    {
        edgeNanoClock = java.util.Objects.requireNonNull(nanoClock);
        return this;
    }

    /** As {@link #idleStrategy()} for the front thread (sequencer, responder, replication): {@link #frontMaxParkUs()}. */
    java.util.function.Function<io.venue.tuning.Doorbell, org.agrona.concurrent.IdleStrategy> frontIdleStrategy()
    {
        return idleStrategy(frontMaxParkUs());
    }

    private java.util.function.Function<io.venue.tuning.Doorbell, org.agrona.concurrent.IdleStrategy> idleStrategy(final long maxParkUs)
    {
        final long maxParkNs = maxParkUs * 1_000;
        return switch (idleWait)
        {
            case "busy-spin" -> doorbell -> new org.agrona.concurrent.BusySpinIdleStrategy();
            case "backoff" -> doorbell -> new org.agrona.concurrent.BackoffIdleStrategy(100, 10, 1_000, maxParkNs);
            default -> doorbell -> new io.venue.tuning.DoorbellIdleStrategy(doorbell, IDLE_SPINS, maxParkNs);
        };
    }

    public ApplianceContext role(final Role role)
    {
        this.role = role;
        return this;
    }

    public ApplianceContext dataDir(final Path dir)
    {
        dataDir = dir;
        return this;
    }

    /** 0 lets the system choose a free port (tests). */
    public ApplianceContext httpPort(final int port)
    {
        httpPort = port;
        return this;
    }

    public ApplianceContext operator(final Address operator)
    {
        operators.add(operator);
        return this;
    }

    public ApplianceContext demo(final boolean demo)
    {
        this.demo = demo;
        return this;
    }

    public ApplianceContext snapshotEvery(final long commands)
    {
        snapshotEvery = commands;
        return this;
    }

    public Path dataDir()
    {
        return dataDir;
    }

    public long chainId()
    {
        return chainId;
    }

    public Address verifyingContract()
    {
        return verifyingContract;
    }

    public boolean demo()
    {
        return demo;
    }

    void validate()
    {
        if (role == Role.STANDBY && !replicated())
        {
            throw new IllegalArgumentException("role standby needs replication.standby.endpoint and replication.primary.endpoint");
        }
        if (accountActions < 1 || accountWindowMs < 1 || openOrdersPerAccount < 1 || openOrdersPerAccountAndMarket < 1 ||
            levelsPerSide < 1 || stateAccounts < 1 || stateRestingOrders < 1)
        {
            throw new IllegalArgumentException("every limits.* value must be positive");
        }
        // refuses a rate its limiter cannot count, a shard count out of range, a group of no command
        new io.venue.engine.EngineConfig().actionRate(accountActions, accountWindowMs).shards(engineShards).groupCommands(groupCommands)
            .crossShardCredit(crossShardHaircutPpm, crossShardMaxAccountLocked, crossShardMaxMarketLocked, crossShardKillSwitch);
        if (shardBusyBacklog < 0)
        {
            throw new IllegalArgumentException("shard.busy.backlog must not be negative");
        }
        if (replicationReportMs < 1)
        {
            throw new IllegalArgumentException("replication.report.ms must be positive");
        }
        if (edgeIpRate < 1 || edgeIpBurst < 1)
        {
            throw new IllegalArgumentException("edge.ip.rate and edge.ip.burst must be positive");
        }
        if (mmWindowMs < 1 || mmAccountActions < 1 || mmAccountCancels < 1 || mmKeyActions < 1 || mmIpActions < 1 ||
            mmMarketActions < 1 || mmShardActions < 1 || builderBasicPerMinute < 1 || builderProPerMinute < 1 ||
            mmActionTsSkewMs < 1 || mmPrebatchedMaxBatches < 1)
        {
            throw new IllegalArgumentException("every mm.* value must be positive");
        }
        if (mmLowLatencyMaxActions < 1 || mmLowLatencyMaxActions > io.venue.transport.bsl.CompactOrders.MAX_ORDERS)
        {
            throw new IllegalArgumentException("mm.low.latency.max.actions must be from 1 to " +
                io.venue.transport.bsl.CompactOrders.MAX_ORDERS + ", got " + mmLowLatencyMaxActions);
        }
        // a compact request of 1,000 orders must fit, and a JSON submit goes whole to the verifier pool, which takes
        // bodies up to its own limit (512 KiB)
        if (httpMaxBodyBytes < io.venue.transport.bsl.CompactOrders.length(io.venue.transport.bsl.CompactOrders.MAX_ORDERS) ||
            httpMaxBodyBytes > 512 * 1024)
        {
            throw new IllegalArgumentException("http.max.body.bytes must be from " +
                io.venue.transport.bsl.CompactOrders.length(io.venue.transport.bsl.CompactOrders.MAX_ORDERS) +
                " (a compact request of 1,000 orders) to 524288 (the verifier pool's body limit)");
        }
        try
        {
            builderPlans();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("mm.builder.basic and mm.builder.pro: " + ex.getMessage(), ex);
        }
        if ((listingFile == null) != (listingOperatorKeyFile == null))
        {
            throw new IllegalArgumentException("listing.file and listing.operator.key.file go together");
        }
        if (wsTokenTtlMs < io.venue.transport.http.WsTokens.MIN_TTL_MS || wsTokenTtlMs > io.venue.transport.http.WsTokens.MAX_TTL_MS)
        {
            throw new IllegalArgumentException("ws.token.ttl.ms is 60000 to 300000");
        }
        if (idleMaxParkUs < 0 || idleMaxParkUs > MAX_PARK_US)
        {
            throw new IllegalArgumentException("idle.max.park.us is 1 to " + MAX_PARK_US);
        }
        if (httpPort < 0 || httpPort > 65_535 || verifierThreads < 1 || snapshotEvery < 1 || snapshotsKept < 1 || answerTimeoutMs < 1)
        {
            throw new IllegalArgumentException("http.port 0-65535; verifier.threads, snapshot.every, snapshot.keep and " +
                "answer.timeout.ms positive");
        }
    }
}
