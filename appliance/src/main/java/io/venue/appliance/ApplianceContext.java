package io.venue.appliance;

import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.engine.protect.ProtectionTable;
import io.venue.entry.protect.SessionProtection;

import io.venue.journal.queue.JournalForce;
import io.venue.action.Address;
import io.venue.engine.EngineConfig;
import io.venue.engine.state.StateLimits;
import io.venue.entry.EntryCore;
import io.venue.entry.credential.WsTokens;
import io.venue.entry.mm.MmWindows;
import io.venue.replication.ReplicationContext;
import io.venue.transport.bsl.CompactOrders;
import io.venue.responder.RecentAnswers;
import io.venue.feed.MarketFeed;
import io.venue.transport.bsltcp.BslFraming;
import io.venue.transport.bsltcp.BslTcpLane;
import io.venue.transport.fix.FixLane;
import io.venue.transport.http.HttpGateway;
import io.venue.transport.ws.WsGateway;
import io.venue.transport.tls.ServerTls;
import io.venue.tuning.Doorbell;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Everything one appliance process is configured with, Aeron style: each setting has its default here, a fluent setter
 * and an accessor; {@link #conclude()} checks the settings together, refusing with a message that names the key, and
 * fills the values derived from them. The embedded default is a demo venue on 127.0.0.1:8080 with its data under
 * {@code ./data}. A production file (Java properties, keys in docs/OPERATIONS.md) is read by
 * {@link ApplianceConfigFile}; what the settings build (threads, the engine shard, the lanes, replication) is made by
 * the classes that use it.
 * <p>
 * A setter undoes the conclusion: the derived values are read only after {@link #conclude()}, which may run again.
 */
public final class ApplianceContext
{
    /** The deployment binding of the reference vectors and the CLI's defaults: a demo signs with no extra flags. */
    public static final long DEMO_CHAIN_ID = 8453;
    public static final Address DEMO_CONTRACT = Address.of("0x" + "5e".repeat(20));
    /**
     * The longest configurable park: longer ones would hold up the periodic duties (replication heartbeats, a
     * clean stop).
     */
    public static final long MAX_PARK_US = 10_000;
    /** The names {@code idle.strategy} takes. */
    static final List<String> IDLE_STRATEGIES = List.of("park", "backoff", "busy-spin");

    /** Whether this node writes the command journal or follows another node's. */
    public enum Role
    {
        PRIMARY, STANDBY
    }

    private Path dataDir = Path.of("data");
    private String httpHost = "127.0.0.1";
    private int httpPort = 8080;
    private final FixLane.Context fix = new FixLane.Context();
    private String bslTcpHost = "127.0.0.1";
    private int bslTcpPort = BslTcpLane.Context.DEFAULT_PORT;
    private int bslTcpHeartbeatMs = BslTcpLane.Context.DEFAULT_HEARTBEAT_INTERVAL_MS;
    private long bslTcpLoginTimeoutMs = BslTcpLane.Context.DEFAULT_LOGIN_TIMEOUT_MS;
    private int bslTcpMaxFrameBytes = BslFraming.DEFAULT_MAX_MESSAGE_BYTES;
    private int bslTcpMaxSessions = BslTcpLane.Context.DEFAULT_MAX_SESSIONS;
    private int bslTcpMaxSessionsPerAddress = BslTcpLane.Context.DEFAULT_MAX_SESSIONS_PER_ADDRESS;
    private boolean bslTcpTls;
    private boolean fixTls;
    private long protectionGraceMs = SessionProtection.Settings.DEFAULTS.graceMs();
    private long protectionDeadManMinMs = SessionProtection.Settings.DEFAULTS.deadManMinMs();
    private long protectionDeadManMaxMs = SessionProtection.Settings.DEFAULTS.deadManMaxMs();
    private long protectionTickMs = DEFAULT_PROTECTION_TICK_MS;
    private int protectionCapacity = ProtectionTable.DEFAULT_CAPACITY;
    private int fixOnboardingCapacity = FixOnboardingTable.DEFAULT_CAPACITY;
    /** The default of {@code protection.tick.ms}. */
    public static final long DEFAULT_PROTECTION_TICK_MS = 20;
    private long chainId = DEMO_CHAIN_ID;
    private Address verifyingContract = DEMO_CONTRACT;
    /** Whether the binding was set rather than left at the demo's values, which a production node must not run on. */
    private boolean chainIdSet;
    private boolean verifyingContractSet;
    private int verifierThreads = 1;
    private final List<Address> operators = new ArrayList<>();
    private boolean demo = true;
    private long snapshotEvery = 1_000_000;
    private int snapshotsKept = 2;
    private long answerTimeoutMs = 10_000;
    private long keptAnswersBytes = RecentAnswers.DEFAULT_BUDGET_BYTES;
    private Role role = Role.PRIMARY;
    private ReplicationContext.Mode replicationMode = ReplicationContext.Mode.SYNC;
    private String standbyEndpoint;
    private String primaryEndpoint;
    private long primaryTimeoutMs = 1_000;
    private boolean autoPromote;
    private long replicationReportMs = 10_000;
    private long shardBusyBacklog = 20_000;
    private int refusalsAggregateAfter = 16;
    private long refusalsAggregateWindowMs = 1_000;
    private int refusalsAggregateSources = 4_096;
    private int engineShards = 1;
    private int groupCommands = 64;
    private int[] coreShards = new int[0];
    private boolean crossShardCredit;
    private long crossShardHaircutPpm;
    private long crossShardMaxAccountLocked = Long.MAX_VALUE;
    private long crossShardMaxMarketLocked = Long.MAX_VALUE;
    private boolean crossShardKillSwitch;
    private long accountActions = 50;
    private long accountWindowMs = 1_000;
    private int openOrdersPerAccount = 50_000;
    private int openOrdersPerAccountAndMarket = 10_000;
    private int levelsPerSide = 1_000;
    private int maxMarkets = 64;
    private int ordersPerBook = 1 << 14;
    private long stateAccounts = 10_000;
    private long stateRestingOrders = 100_000;
    private int coreEngine = -1;
    private int coreFront = -1;
    private int[] coreVerifiers = new int[0];
    private boolean journalPretouch = true;
    private long journalPretouchPeriodMs = DEFAULT_PRETOUCH_PERIOD_MS;
    private JournalForce journalForce = JournalForce.NONE;
    private int corePretouch = -1;
    private String idleStrategy = "park";
    /**
     * The edge throttle's clock in nanoseconds; tests set their own ({@link #edgeClock}) to decide when a
     * bucket refills.
     */
    private LongSupplier edgeNanoClock = System::nanoTime;
    /**
     * Tests only ({@link #idleStrategy(Function)}): how the engine, shard and verifier threads wait, in place
     * of idle.strategy.
     */
    private Function<Doorbell, IdleStrategy> idleStrategyOverride;
    /** Unset (0) until configured: {@link #conclude()} derives the longest parks from it. */
    private long idleMaxParkUs;
    static final long DEFAULT_PRETOUCH_PERIOD_MS = 10;
    static final long DEFAULT_FEED_REST_US = 1_000;
    private ThreadLayout threadLayout = ThreadLayout.AUTO;
    private int processors = Runtime.getRuntime().availableProcessors();
    private long edgeIpRate = 10;
    private long edgeIpBurst = 20;
    private Set<InetAddress> metricsAllowed = IpLiterals.list("127.0.0.1,::1");
    private final Set<InetAddress> edgeIpExempt = new HashSet<>();
    /** Where {@code VENUE_CREDENTIALS_KEY} is read: the process's environment unless an embedding caller says. */
    private Function<String, String> environment = System::getenv;
    /** Null: {@code keys/credentials.key} in the data folder. */
    private Path credentialKeyFile;
    private Path replicationKeyFile;
    private Path listingFile;
    private Path listingOperatorKeyFile;
    private long wsTokenTtlMs = 180_000;
    private long mmWindowMs = 1_000;
    private long mmAccountActions = 4_000;
    private long mmAccountCancels = 64_000;
    private long mmKeyActions = 16_000;
    private long mmIpActions = 16_000;
    private long mmMarketActions = 64_000;
    private long mmShardActions = 128_000;
    private long mmActionTsSkewMs = 15_000;
    private int mmLowLatencyMaxActions = EntryCore.Context.DEFAULT_LOW_LATENCY_MAX_ACTIONS;
    private int mmPrebatchedMaxBatches = EntryCore.Context.DEFAULT_PREBATCHED_MAX_BATCHES;
    private int httpMaxBodyBytes = 512 * 1024;
    private long httpHeaderTimeoutMs = HttpGateway.Context.DEFAULT_HEADER_TIMEOUT_MS;
    private long httpBodyTimeoutMs = HttpGateway.Context.DEFAULT_BODY_TIMEOUT_MS;
    private long httpIdleTimeoutMs = HttpGateway.Context.DEFAULT_IDLE_TIMEOUT_MS;
    private int httpMaxConnections = HttpGateway.Context.DEFAULT_MAX_CONNECTIONS;
    private int httpMaxConnectionsPerAddress = HttpGateway.Context.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
    private long readsAccountRate = HttpGateway.Context.DEFAULT_READS_ACCOUNT_RATE;
    private long readsAccountBurst = HttpGateway.Context.DEFAULT_READS_ACCOUNT_BURST;
    private long readsIpRate = HttpGateway.Context.DEFAULT_READS_ADDRESS_RATE;
    private long readsIpBurst = HttpGateway.Context.DEFAULT_READS_ADDRESS_BURST;
    private final WsGateway.Context webSocket = new WsGateway.Context();
    private boolean webSocketEnabled = true;
    private int feedWindowFrames = MarketFeed.Context.WINDOW_FRAMES_DEFAULT;
    private long feedRestUs = DEFAULT_FEED_REST_US;
    private long feedWindowBytes = MarketFeed.Context.WINDOW_BYTES_DEFAULT;
    private long builderBasicPerMinute = 600;
    private long builderProPerMinute = 3_000;
    private final Set<String> builderBasic = new HashSet<>();
    private final Set<String> builderPro = new HashSet<>();
    private List<String> lanes = List.of("http");

    /** What {@link #conclude()} derives: read only while concluded. */
    private boolean concluded;
    private long concludedIdleMaxParkUs;
    private long concludedFrontMaxParkUs;
    private boolean concludedCompactThreads;
    private boolean concludedVerifierOnFront;
    private Path concludedCredentialKeyFile;
    private MmWindows.Plans concludedBuilderPlans;
    private ServerTls concludedHttpTls;
    private Path httpTlsCertFile;
    private Path httpTlsKeyFile;
    private Path httpTlsSniDir;
    private Set<InetAddress> httpTrustedProxies = Set.of();

    /** {@code data.dir}: the node's folder. */
    public ApplianceContext dataDir(final Path dataDir)
    {
        this.dataDir = dataDir;
        return changed();
    }

    public Path dataDir()
    {
        return dataDir;
    }

    /** {@code http.host}: the HTTP lane's address. */
    public ApplianceContext httpHost(final String httpHost)
    {
        this.httpHost = httpHost;
        return changed();
    }

    public String httpHost()
    {
        return httpHost;
    }

    /** {@code http.port}: the HTTP lane's port; 0 lets the system choose a free one (tests). */
    public ApplianceContext httpPort(final int httpPort)
    {
        this.httpPort = httpPort;
        return changed();
    }

    public int httpPort()
    {
        return httpPort;
    }

    /** The FIX lane's settings ({@code fix.*}), set in place; the lane's own Context checks them when it starts. */
    public FixLane.Context fix()
    {
        return fix;
    }

    /** {@code bsl.tcp.host}: the BSL TCP lane's address. */
    public ApplianceContext bslTcpHost(final String host)
    {
        this.bslTcpHost = host;
        return changed();
    }

    public String bslTcpHost()
    {
        return bslTcpHost;
    }

    /** {@code bsl.tcp.port}: the BSL TCP lane's port; 0 lets the system choose a free one (tests). */
    public ApplianceContext bslTcpPort(final int port)
    {
        this.bslTcpPort = port;
        return changed();
    }

    public int bslTcpPort()
    {
        return bslTcpPort;
    }

    /**
     * {@code protection.cod.grace.ms} (default 5,000): after a session with cancel-on-disconnect closes, its account's
     * orders are swept this much later unless a session of the same credential logs in first.
     */
    public ApplianceContext protectionGraceMs(final long ms)
    {
        this.protectionGraceMs = ms;
        return this;
    }

    /** {@code protection.deadman.min.ms} and {@code protection.deadman.max.ms}: a dead-man countdown's bounds. */
    public ApplianceContext protectionDeadManBounds(final long minMs, final long maxMs)
    {
        this.protectionDeadManMinMs = minMs;
        this.protectionDeadManMaxMs = maxMs;
        return this;
    }

    /** The protection settings the lanes apply (checked when made). */
    public SessionProtection.Settings protectionSettings()
    {
        return new SessionProtection.Settings(protectionGraceMs, protectionDeadManMinMs, protectionDeadManMaxMs);
    }

    /**
     * {@code protection.tick.ms} (default {@value #DEFAULT_PROTECTION_TICK_MS}): how often at most the sequencer
     * journals a ProtectionTick while a protection deadline is due: the most a sweep waits past its deadline when no
     * other command comes.
     */
    public ApplianceContext protectionTickMs(final long ms)
    {
        if (ms < 1)
        {
            throw new IllegalArgumentException("protection.tick.ms must be at least 1: " + ms);
        }
        this.protectionTickMs = ms;
        return this;
    }

    public long protectionTickMs()
    {
        return protectionTickMs;
    }

    /**
     * {@code protection.capacity} (default {@value ProtectionTable#DEFAULT_CAPACITY}): the engine's protection table
     * (sessions, pending sweeps, timers, arms). Part of the engine's configuration: a replay must use the same.
     */
    public ApplianceContext protectionCapacity(final int slots)
    {
        this.protectionCapacity = slots;
        return this;
    }

    public int protectionCapacity()
    {
        return protectionCapacity;
    }

    /**
     * {@code fix.onboarding.capacity} (default {@value FixOnboardingTable#DEFAULT_CAPACITY}): the FIX onboarding
     * records the engine holds, one per credential. Part of the engine's configuration: a replay must use the same.
     */
    public ApplianceContext fixOnboardingCapacity(final int records)
    {
        this.fixOnboardingCapacity = records;
        return this;
    }

    public int fixOnboardingCapacity()
    {
        return fixOnboardingCapacity;
    }

    /** {@code bsl.tcp.heartbeat.ms}: each side of a session sends something at least this often. */
    public ApplianceContext bslTcpHeartbeatMs(final int ms)
    {
        this.bslTcpHeartbeatMs = ms;
        return changed();
    }

    public int bslTcpHeartbeatMs()
    {
        return bslTcpHeartbeatMs;
    }

    /** {@code bsl.tcp.login.timeout.ms}: how long a connection may take to log in. */
    public ApplianceContext bslTcpLoginTimeoutMs(final long ms)
    {
        this.bslTcpLoginTimeoutMs = ms;
        return changed();
    }

    public long bslTcpLoginTimeoutMs()
    {
        return bslTcpLoginTimeoutMs;
    }

    /** {@code bsl.tcp.max.frame.bytes}: the largest message a client may send. */
    public ApplianceContext bslTcpMaxFrameBytes(final int bytes)
    {
        this.bslTcpMaxFrameBytes = bytes;
        return changed();
    }

    public int bslTcpMaxFrameBytes()
    {
        return bslTcpMaxFrameBytes;
    }

    /** {@code bsl.tcp.max.sessions}: the most BSL TCP connections open at once. */
    public ApplianceContext bslTcpMaxSessions(final int sessions)
    {
        this.bslTcpMaxSessions = sessions;
        return changed();
    }

    public int bslTcpMaxSessions()
    {
        return bslTcpMaxSessions;
    }

    /**
     * {@code bsl.tcp.max.sessions.per.address}: the most BSL TCP connections open at once from one address (an IPv6
     * address by its /64); edge.ip.exempt addresses are not capped.
     */
    public ApplianceContext bslTcpMaxSessionsPerAddress(final int sessions)
    {
        this.bslTcpMaxSessionsPerAddress = sessions;
        return changed();
    }

    public int bslTcpMaxSessionsPerAddress()
    {
        return bslTcpMaxSessionsPerAddress;
    }

    /**
     * {@code bsl.tcp.tls}: the BSL TCP lane speaks TLS with the node's certificates ({@code http.tls.*}, which must be
     * set); false (the default): plain TCP, for a private interface.
     */
    public ApplianceContext bslTcpTls(final boolean tls)
    {
        this.bslTcpTls = tls;
        return changed();
    }

    public boolean bslTcpTls()
    {
        return bslTcpTls;
    }

    /** {@code fix.tls}: the FIX lane speaks TLS with the node's certificates ({@code http.tls.*}, required). */
    public ApplianceContext fixTls(final boolean tls)
    {
        this.fixTls = tls;
        return changed();
    }

    public boolean fixTls()
    {
        return fixTls;
    }

    /** {@code chain.id}: the deployment binding of the v2 digest: its chain id. */
    public ApplianceContext chainId(final long chainId)
    {
        this.chainId = chainId;
        this.chainIdSet = true;
        return changed();
    }

    public long chainId()
    {
        return chainId;
    }

    /** {@code verifying.contract}: the deployment binding of the v2 digest: its verifying contract. */
    public ApplianceContext verifyingContract(final Address verifyingContract)
    {
        this.verifyingContract = verifyingContract;
        this.verifyingContractSet = true;
        return changed();
    }

    public Address verifyingContract()
    {
        return verifyingContract;
    }

    /** {@code verifier.threads}: verifier pool threads. */
    public ApplianceContext verifierThreads(final int verifierThreads)
    {
        this.verifierThreads = verifierThreads;
        return changed();
    }

    public int verifierThreads()
    {
        return verifierThreads;
    }

    /** {@code operators}: the only signers of admin actions, part of the engine configuration; replaces the list. */
    public ApplianceContext operators(final List<Address> operators)
    {
        this.operators.clear();
        this.operators.addAll(operators);
        return changed();
    }

    /** Adds an operator key. */
    public ApplianceContext operator(final Address operator)
    {
        operators.add(operator);
        return changed();
    }

    public List<Address> operators()
    {
        return List.copyOf(operators);
    }

    /** {@code demo}: the demo keys and set-up (true without a file; a file turns it off unless it says true). */
    public ApplianceContext demo(final boolean demo)
    {
        this.demo = demo;
        return changed();
    }

    public boolean demo()
    {
        return demo;
    }

    /** {@code snapshot.every}: a snapshot after every this many commands. */
    public ApplianceContext snapshotEvery(final long snapshotEvery)
    {
        this.snapshotEvery = snapshotEvery;
        return changed();
    }

    public long snapshotEvery()
    {
        return snapshotEvery;
    }

    /** {@code snapshot.keep}: the newest snapshots kept. */
    public ApplianceContext snapshotsKept(final int snapshotsKept)
    {
        this.snapshotsKept = snapshotsKept;
        return changed();
    }

    public int snapshotsKept()
    {
        return snapshotsKept;
    }

    /** {@code answer.timeout.ms}: how long a submit waits for its decision before a 504. */
    public ApplianceContext answerTimeoutMs(final long answerTimeoutMs)
    {
        this.answerTimeoutMs = answerTimeoutMs;
        return changed();
    }

    public long answerTimeoutMs()
    {
        return answerTimeoutMs;
    }

    /**
     * {@code answers.kept.bytes}: about how much heap the answers kept for the status route may hold (the last 100,000
     * at most; the oldest go first).
     */
    public ApplianceContext keptAnswersBytes(final long keptAnswersBytes)
    {
        this.keptAnswersBytes = keptAnswersBytes;
        return changed();
    }

    public long keptAnswersBytes()
    {
        return keptAnswersBytes;
    }

    /** {@code role}: whether this node writes the command journal or follows another node's. */
    public ApplianceContext role(final Role role)
    {
        this.role = role;
        return changed();
    }

    public Role role()
    {
        return role;
    }

    /** {@code replication.mode}: sync (answers wait for the standby) or async. */
    public ApplianceContext replicationMode(final ReplicationContext.Mode replicationMode)
    {
        this.replicationMode = replicationMode;
        return changed();
    }

    public ReplicationContext.Mode replicationMode()
    {
        return replicationMode;
    }

    /**
     * {@code replication.standby.endpoint}: host:port where the standby receives commands; with the primary's endpoint,
     * replication is on.
     */
    public ApplianceContext standbyEndpoint(final String standbyEndpoint)
    {
        this.standbyEndpoint = standbyEndpoint;
        return changed();
    }

    public String standbyEndpoint()
    {
        return standbyEndpoint;
    }

    /**
     * {@code replication.primary.endpoint}: host:port where the primary receives the standby's acknowledgements
     * and requests.
     */
    public ApplianceContext primaryEndpoint(final String primaryEndpoint)
    {
        this.primaryEndpoint = primaryEndpoint;
        return changed();
    }

    public String primaryEndpoint()
    {
        return primaryEndpoint;
    }

    /**
     * {@code replication.primary.timeout.ms}: how long a primary listens at start for a newer one; a standby's silence
     * before the primary counts as lost.
     */
    public ApplianceContext primaryTimeoutMs(final long primaryTimeoutMs)
    {
        this.primaryTimeoutMs = primaryTimeoutMs;
        return changed();
    }

    public long primaryTimeoutMs()
    {
        return primaryTimeoutMs;
    }

    /** {@code replication.auto.promote}: a standby promotes itself when the primary is lost. */
    public ApplianceContext autoPromote(final boolean autoPromote)
    {
        this.autoPromote = autoPromote;
        return changed();
    }

    public boolean autoPromote()
    {
        return autoPromote;
    }

    /**
     * {@code replication.key.file}: the key both nodes of a pair seal every replication message with (32 bytes, as
     * 0x-hex or raw, readable by the node's user only); required on a replicated node, unused by a single one.
     */
    public ApplianceContext replicationKeyFile(final Path replicationKeyFile)
    {
        this.replicationKeyFile = replicationKeyFile;
        return changed();
    }

    public Path replicationKeyFile()
    {
        return replicationKeyFile;
    }

    /** {@code replication.report.ms}: how often each node of a pair logs where replication stands. */
    public ApplianceContext replicationReportMs(final long replicationReportMs)
    {
        this.replicationReportMs = replicationReportMs;
        return changed();
    }

    public long replicationReportMs()
    {
        return replicationReportMs;
    }

    /**
     * {@code shard.busy.backlog}: commands journaled and not applied above which new submits are refused SHARD_BUSY.
     */
    public ApplianceContext shardBusyBacklog(final long shardBusyBacklog)
    {
        this.shardBusyBacklog = shardBusyBacklog;
        return changed();
    }

    public long shardBusyBacklog()
    {
        return shardBusyBacklog;
    }

    /**
     * {@code refusals.aggregate.after}: refusals of one connection and reason journaled one by one in a window; the
     * rest of the window's are counted into one {@code RequestsRejectedSummary}. 0 journals every refusal on its own.
     */
    public ApplianceContext refusalsAggregateAfter(final int refusalsAggregateAfter)
    {
        this.refusalsAggregateAfter = refusalsAggregateAfter;
        return changed();
    }

    public int refusalsAggregateAfter()
    {
        return refusalsAggregateAfter;
    }

    /** {@code refusals.aggregate.window.ms}: the window of those counts, in the sequencer's stamped time. */
    public ApplianceContext refusalsAggregateWindowMs(final long refusalsAggregateWindowMs)
    {
        this.refusalsAggregateWindowMs = refusalsAggregateWindowMs;
        return changed();
    }

    public long refusalsAggregateWindowMs()
    {
        return refusalsAggregateWindowMs;
    }

    /**
     * {@code refusals.aggregate.sources}: the (connection, reason) pairs counted at once; a new one evicts an old one,
     * whose count is journaled first.
     */
    public ApplianceContext refusalsAggregateSources(final int refusalsAggregateSources)
    {
        this.refusalsAggregateSources = refusalsAggregateSources;
        return changed();
    }

    public int refusalsAggregateSources()
    {
        return refusalsAggregateSources;
    }

    /** {@code engine.shards}: matching shards (ENGINE.md). */
    public ApplianceContext engineShards(final int engineShards)
    {
        this.engineShards = engineShards;
        return changed();
    }

    public int engineShards()
    {
        return engineShards;
    }

    /** {@code engine.group.commands}: the commands of one admission group (ENGINE.md). */
    public ApplianceContext groupCommands(final int groupCommands)
    {
        this.groupCommands = groupCommands;
        return changed();
    }

    public int groupCommands()
    {
        return groupCommands;
    }

    /** {@code core.shards}: the cores of the matching shards' threads, round robin; none: not pinned. */
    public ApplianceContext coreShards(final int[] coreShards)
    {
        this.coreShards = coreShards.clone();
        return changed();
    }

    public int[] coreShards()
    {
        return coreShards.clone();
    }

    /**
     * {@code mm.cross.shard.credit.enabled}: spec 8.6's cross-shard credit admission, active only with several shards.
     */
    public ApplianceContext crossShardCredit(final boolean crossShardCredit)
    {
        this.crossShardCredit = crossShardCredit;
        return changed();
    }

    public boolean crossShardCredit()
    {
        return crossShardCredit;
    }

    /** {@code mm.cross.shard.credit.haircut.ppm}: the cross-shard credit's haircut, millionths. */
    public ApplianceContext crossShardHaircutPpm(final long crossShardHaircutPpm)
    {
        this.crossShardHaircutPpm = crossShardHaircutPpm;
        return changed();
    }

    public long crossShardHaircutPpm()
    {
        return crossShardHaircutPpm;
    }

    /** {@code mm.cross.shard.credit.max.account.locked}: the cross-shard credit's cap on an account's locked amount. */
    public ApplianceContext crossShardMaxAccountLocked(final long crossShardMaxAccountLocked)
    {
        this.crossShardMaxAccountLocked = crossShardMaxAccountLocked;
        return changed();
    }

    public long crossShardMaxAccountLocked()
    {
        return crossShardMaxAccountLocked;
    }

    /** {@code mm.cross.shard.credit.max.market.locked}: the cross-shard credit's cap on a market's locked amount. */
    public ApplianceContext crossShardMaxMarketLocked(final long crossShardMaxMarketLocked)
    {
        this.crossShardMaxMarketLocked = crossShardMaxMarketLocked;
        return changed();
    }

    public long crossShardMaxMarketLocked()
    {
        return crossShardMaxMarketLocked;
    }

    /** {@code mm.cross.shard.credit.kill.switch}: refuses every new cross-shard reservation. */
    public ApplianceContext crossShardKillSwitch(final boolean crossShardKillSwitch)
    {
        this.crossShardKillSwitch = crossShardKillSwitch;
        return changed();
    }

    public boolean crossShardKillSwitch()
    {
        return crossShardKillSwitch;
    }

    /** {@code limits.account.actions}: the per-account action limit (spec 8.1): actions a window. */
    public ApplianceContext accountActions(final long accountActions)
    {
        this.accountActions = accountActions;
        return changed();
    }

    public long accountActions()
    {
        return accountActions;
    }

    /** {@code limits.account.window.ms}: the per-account action limit's window. */
    public ApplianceContext accountWindowMs(final long accountWindowMs)
    {
        this.accountWindowMs = accountWindowMs;
        return changed();
    }

    public long accountWindowMs()
    {
        return accountWindowMs;
    }

    /** {@code limits.open.orders.account}: open orders per account (spec 8.2). */
    public ApplianceContext openOrdersPerAccount(final int openOrdersPerAccount)
    {
        this.openOrdersPerAccount = openOrdersPerAccount;
        return changed();
    }

    public int openOrdersPerAccount()
    {
        return openOrdersPerAccount;
    }

    /** {@code limits.open.orders.account.market}: open orders per account and market (spec 8.2). */
    public ApplianceContext openOrdersPerAccountAndMarket(final int openOrdersPerAccountAndMarket)
    {
        this.openOrdersPerAccountAndMarket = openOrdersPerAccountAndMarket;
        return changed();
    }

    public int openOrdersPerAccountAndMarket()
    {
        return openOrdersPerAccountAndMarket;
    }

    /** {@code limits.levels.per.side}: price levels per book side. */
    public ApplianceContext levelsPerSide(final int levelsPerSide)
    {
        this.levelsPerSide = levelsPerSide;
        return changed();
    }

    public int levelsPerSide()
    {
        return levelsPerSide;
    }

    /** {@code limits.markets}: markets that may be listed. */
    public ApplianceContext maxMarkets(final int maxMarkets)
    {
        this.maxMarkets = maxMarkets;
        return changed();
    }

    public int maxMarkets()
    {
        return maxMarkets;
    }

    /** {@code limits.orders.per.book}: resting orders one book can hold. */
    public ApplianceContext ordersPerBook(final int ordersPerBook)
    {
        this.ordersPerBook = ordersPerBook;
        return changed();
    }

    public int ordersPerBook()
    {
        return ordersPerBook;
    }

    /** {@code limits.accounts}: the state's account capacity. */
    public ApplianceContext stateAccounts(final long stateAccounts)
    {
        this.stateAccounts = stateAccounts;
        return changed();
    }

    public long stateAccounts()
    {
        return stateAccounts;
    }

    /** {@code limits.resting.orders}: the state's resting order capacity. */
    public ApplianceContext stateRestingOrders(final long stateRestingOrders)
    {
        this.stateRestingOrders = stateRestingOrders;
        return changed();
    }

    public long stateRestingOrders()
    {
        return stateRestingOrders;
    }

    /** {@code core.engine}: the core the engine thread is pinned to; -1: not pinned (right on a shared machine). */
    public ApplianceContext coreEngine(final int coreEngine)
    {
        this.coreEngine = coreEngine;
        return changed();
    }

    public int coreEngine()
    {
        return coreEngine;
    }

    /** {@code core.front}: the core of the front thread (sequencer and responder); -1: not pinned. */
    public ApplianceContext coreFront(final int coreFront)
    {
        this.coreFront = coreFront;
        return changed();
    }

    public int coreFront()
    {
        return coreFront;
    }

    /** {@code core.verifiers}: the cores of the verifier threads, round robin; none: not pinned. */
    public ApplianceContext coreVerifiers(final int[] coreVerifiers)
    {
        this.coreVerifiers = coreVerifiers.clone();
        return changed();
    }

    public int[] coreVerifiers()
    {
        return coreVerifiers.clone();
    }

    /** {@code journal.pretouch}: a thread faulting in the journals' next pages ahead of their writers. */
    public ApplianceContext journalPretouch(final boolean journalPretouch)
    {
        this.journalPretouch = journalPretouch;
        return changed();
    }

    public boolean journalPretouch()
    {
        return journalPretouch;
    }

    /**
     * {@code journal.pretouch.period.ms} (default {@value #DEFAULT_PRETOUCH_PERIOD_MS}): the pretoucher's sleep between
     * looks. It keeps 32 MiB ahead of each writer, so it may sleep long; each wake costs CPU on a virtual host.
     */
    public ApplianceContext journalPretouchPeriodMs(final long ms)
    {
        if (ms < 1 || ms > 1_000)
        {
            throw new IllegalArgumentException("journal.pretouch.period.ms must be 1 to 1000: " + ms);
        }
        this.journalPretouchPeriodMs = ms;
        return changed();
    }

    public long journalPretouchPeriodMs()
    {
        return journalPretouchPeriodMs;
    }

    /**
     * {@code journal.force}: {@code group} forces each excerpt of the command journal to stable storage before its
     * requests may be answered (one {@code fdatasync} per duty cycle's group); {@code none} leaves the write-back to
     * the kernel (OPERATIONS.md, "What an answer survives").
     */
    public ApplianceContext journalForce(final JournalForce journalForce)
    {
        this.journalForce = journalForce;
        return changed();
    }

    public JournalForce journalForce()
    {
        return journalForce;
    }

    /** {@code core.pretouch}: the core of the pretouch thread; -1: not pinned. */
    public ApplianceContext corePretouch(final int corePretouch)
    {
        this.corePretouch = corePretouch;
        return changed();
    }

    public int corePretouch()
    {
        return corePretouch;
    }

    /**
     * {@code idle.strategy}: how idle threads wait: {@code park} (the default), {@code backoff} or {@code busy-spin}.
     */
    public ApplianceContext idleStrategy(final String idleStrategy)
    {
        this.idleStrategy = idleStrategy;
        return changed();
    }

    public String idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * Tests only: the engine, shard and verifier threads wait with {@code strategy} (given each thread's bell) instead
     * of what idle.strategy says, so a test can hold them between two duty cycles. Not a setting of the file.
     */
    ApplianceContext idleStrategy(final Function<Doorbell, IdleStrategy> strategy)
    {
        idleStrategyOverride = strategy;
        return this;
    }

    /** The test's override of how idle threads wait, or null. */
    Function<Doorbell, IdleStrategy> idleStrategyOverride()
    {
        return idleStrategyOverride;
    }

    /**
     * Tests only: the edge throttle's clock, in nanoseconds (System::nanoTime unless set), so a test decides when
     * it refills.
     */
    ApplianceContext edgeClock(final LongSupplier nanoClock)
    {
        edgeNanoClock = Objects.requireNonNull(nanoClock);
        return this;
    }

    LongSupplier edgeNanoClock()
    {
        return edgeNanoClock;
    }

    /** {@code idle.max.park.us}: the longest park of an idle thread, 1 to {@value #MAX_PARK_US} µs; 0: the default. */
    public ApplianceContext idleMaxParkUs(final long idleMaxParkUs)
    {
        this.idleMaxParkUs = idleMaxParkUs;
        return changed();
    }

    /**
     * Derived: the longest park of an idle thread, in microseconds: as configured, else 1,000 when idle threads park
     * until rung (every hand-off between the appliance's threads rings, so the park only bounds periodic duties; about
     * 6% of a core while idle) and 100 for Agrona's backoff, which hears no bell.
     */
    public long idleMaxParkUs()
    {
        requireConcluded();
        return concludedIdleMaxParkUs;
    }

    /**
     * Derived: the front thread's longest park: as {@link #idleMaxParkUs()}, but 100 µs by default on a node of a
     * replicated pair, where the shipped records and the acknowledgements it polls come through Aeron, which rings no
     * bell (the embedded media driver adds its own wait, up to 1 ms when idle).
     */
    public long frontMaxParkUs()
    {
        requireConcluded();
        return concludedFrontMaxParkUs;
    }

    /**
     * {@code threads}: where the engine, the sequencer and the responder run ({@link ThreadLayout}); auto by default.
     */
    public ApplianceContext threadLayout(final ThreadLayout layout)
    {
        this.threadLayout = Objects.requireNonNull(layout, "threads");
        return changed();
    }

    public ThreadLayout threadLayout()
    {
        return threadLayout;
    }

    /** The processors {@code threads=auto} lays the threads out for: the JVM's count unless set (tests). */
    public ApplianceContext processors(final int processors)
    {
        this.processors = processors;
        return changed();
    }

    public int processors()
    {
        return processors;
    }

    /**
     * Derived from {@code threads}: whether the engine, the sequencer and the responder share one thread (compact), as
     * {@link ThreadLayout#compact(int, int)} decides for auto.
     */
    public boolean compactThreads()
    {
        requireConcluded();
        return concludedCompactThreads;
    }

    /**
     * Derived from {@code threads}: whether the verifier runs on the front thread too (single), as
     * {@link ThreadLayout#verifierOnFront(int, int)} decides for auto.
     */
    public boolean verifierOnFront()
    {
        requireConcluded();
        return concludedVerifierOnFront;
    }

    /** {@code edge.ip.rate}: the edge IP throttle: requests a second per remote address. */
    public ApplianceContext edgeIpRate(final long edgeIpRate)
    {
        this.edgeIpRate = edgeIpRate;
        return changed();
    }

    public long edgeIpRate()
    {
        return edgeIpRate;
    }

    /** {@code edge.ip.burst}: the edge IP throttle's burst. */
    public ApplianceContext edgeIpBurst(final long edgeIpBurst)
    {
        this.edgeIpBurst = edgeIpBurst;
        return changed();
    }

    public long edgeIpBurst()
    {
        return edgeIpBurst;
    }

    /**
     * {@code metrics.allow}: the addresses GET /api/v1/admin/metrics answers (the operator's scraper); loopback
     * by default.
     */
    public ApplianceContext metricsAllowed(final Set<InetAddress> metricsAllowed)
    {
        this.metricsAllowed = Set.copyOf(metricsAllowed);
        return changed();
    }

    public Set<InetAddress> metricsAllowed()
    {
        return metricsAllowed;
    }

    /** {@code edge.ip.exempt}: the addresses the edge IP throttle never limits; replaces the set. */
    public ApplianceContext edgeIpExempt(final Set<InetAddress> edgeIpExempt)
    {
        this.edgeIpExempt.clear();
        this.edgeIpExempt.addAll(edgeIpExempt);
        return changed();
    }

    /** Adds an address (an IP literal) the edge IP throttle never limits (a colocated gateway, a load generator). */
    public ApplianceContext edgeExempt(final String address)
    {
        edgeIpExempt.add(IpLiterals.one(address));
        return changed();
    }

    public Set<InetAddress> edgeIpExempt()
    {
        return Set.copyOf(edgeIpExempt);
    }

    /**
     * {@code credentials.key.file}: the key the HMAC credentials' secrets and the WS tokens derive from; null:
     * {@code keys/credentials.key} in the data folder.
     */
    public ApplianceContext credentialKeyFile(final Path credentialKeyFile)
    {
        this.credentialKeyFile = credentialKeyFile;
        return changed();
    }

    /**
     * The environment the node reads {@code VENUE_CREDENTIALS_KEY} from (the credential key set, which then takes the
     * place of {@code credentials.key.file}); the process's own by default. A caller embedding the appliance (a test)
     * may give another.
     */
    public ApplianceContext environment(final Function<String, String> environment)
    {
        this.environment = environment;
        return changed();
    }

    public Function<String, String> environment()
    {
        return environment;
    }

    /** Derived: where the credential key is (made there at first start when missing). */
    public Path credentialKeyFile()
    {
        requireConcluded();
        return concludedCredentialKeyFile;
    }

    /**
     * {@code listing.file}: the configured listing (exchange-info's shape); with its operator key file or not at all.
     */
    public ApplianceContext listingFile(final Path listingFile)
    {
        this.listingFile = listingFile;
        return changed();
    }

    public Path listingFile()
    {
        return listingFile;
    }

    /** {@code listing.operator.key.file}: the file of the operator key that signs the listing's creation. */
    public ApplianceContext listingOperatorKeyFile(final Path listingOperatorKeyFile)
    {
        this.listingOperatorKeyFile = listingOperatorKeyFile;
        return changed();
    }

    public Path listingOperatorKeyFile()
    {
        return listingOperatorKeyFile;
    }

    /** {@code ws.token.ttl.ms}: the TTL of a bearer token whose request names none. */
    public ApplianceContext wsTokenTtlMs(final long wsTokenTtlMs)
    {
        this.wsTokenTtlMs = wsTokenTtlMs;
        return changed();
    }

    public long wsTokenTtlMs()
    {
        return wsTokenTtlMs;
    }

    /** {@code mm.window.ms}: the MM lane's windows (spec 8.2): their length. */
    public ApplianceContext mmWindowMs(final long mmWindowMs)
    {
        this.mmWindowMs = mmWindowMs;
        return changed();
    }

    public long mmWindowMs()
    {
        return mmWindowMs;
    }

    /** {@code mm.account.actions}: MM actions an account may take a window. */
    public ApplianceContext mmAccountActions(final long mmAccountActions)
    {
        this.mmAccountActions = mmAccountActions;
        return changed();
    }

    public long mmAccountActions()
    {
        return mmAccountActions;
    }

    /** {@code mm.account.cancels}: MM cancels an account may take a window. */
    public ApplianceContext mmAccountCancels(final long mmAccountCancels)
    {
        this.mmAccountCancels = mmAccountCancels;
        return changed();
    }

    public long mmAccountCancels()
    {
        return mmAccountCancels;
    }

    /** {@code mm.key.actions}: MM actions an API key may take a window. */
    public ApplianceContext mmKeyActions(final long mmKeyActions)
    {
        this.mmKeyActions = mmKeyActions;
        return changed();
    }

    public long mmKeyActions()
    {
        return mmKeyActions;
    }

    /** {@code mm.ip.actions}: MM actions an address may take a window. */
    public ApplianceContext mmIpActions(final long mmIpActions)
    {
        this.mmIpActions = mmIpActions;
        return changed();
    }

    public long mmIpActions()
    {
        return mmIpActions;
    }

    /** {@code mm.market.actions}: MM actions a market may take a window. */
    public ApplianceContext mmMarketActions(final long mmMarketActions)
    {
        this.mmMarketActions = mmMarketActions;
        return changed();
    }

    public long mmMarketActions()
    {
        return mmMarketActions;
    }

    /** {@code mm.shard.actions}: MM actions a matching shard may take a window. */
    public ApplianceContext mmShardActions(final long mmShardActions)
    {
        this.mmShardActions = mmShardActions;
        return changed();
    }

    public long mmShardActions()
    {
        return mmShardActions;
    }

    /**
     * {@code mm.action.ts.skew.ms}: how far a compact order's ts may be from the server's clock (spec
     * 8.2's maxActionTsSkewMs).
     */
    public ApplianceContext mmActionTsSkewMs(final long mmActionTsSkewMs)
    {
        this.mmActionTsSkewMs = mmActionTsSkewMs;
        return changed();
    }

    public long mmActionTsSkewMs()
    {
        return mmActionTsSkewMs;
    }

    /**
     * {@code mm.low.latency.max.actions}: a compact request of more orders is a batch (spec 8.2's
     * lowLatencyMaxActions).
     */
    public ApplianceContext mmLowLatencyMaxActions(final int mmLowLatencyMaxActions)
    {
        this.mmLowLatencyMaxActions = mmLowLatencyMaxActions;
        return changed();
    }

    public int mmLowLatencyMaxActions()
    {
        return mmLowLatencyMaxActions;
    }

    /**
     * {@code mm.prebatched.max.batches}: batches waiting at once across the gateway (spec 8.2's prebatchedMaxBatches).
     */
    public ApplianceContext mmPrebatchedMaxBatches(final int mmPrebatchedMaxBatches)
    {
        this.mmPrebatchedMaxBatches = mmPrebatchedMaxBatches;
        return changed();
    }

    public int mmPrebatchedMaxBatches()
    {
        return mmPrebatchedMaxBatches;
    }

    /** {@code http.max.body.bytes}: the HTTP lane's body limit (and the compact routes' ingress.binaryMaxBodyBytes). */
    public ApplianceContext httpMaxBodyBytes(final int httpMaxBodyBytes)
    {
        this.httpMaxBodyBytes = httpMaxBodyBytes;
        return changed();
    }

    public int httpMaxBodyBytes()
    {
        return httpMaxBodyBytes;
    }

    /**
     * {@code http.header.timeout.ms}: a request head must be whole this long after the connection opened or after its
     * first byte, or the connection is closed.
     */
    public ApplianceContext httpHeaderTimeoutMs(final long httpHeaderTimeoutMs)
    {
        this.httpHeaderTimeoutMs = httpHeaderTimeoutMs;
        return changed();
    }

    public long httpHeaderTimeoutMs()
    {
        return httpHeaderTimeoutMs;
    }

    /** {@code http.body.timeout.ms}: a body must be whole this long after its head, or the connection is closed. */
    public ApplianceContext httpBodyTimeoutMs(final long httpBodyTimeoutMs)
    {
        this.httpBodyTimeoutMs = httpBodyTimeoutMs;
        return changed();
    }

    public long httpBodyTimeoutMs()
    {
        return httpBodyTimeoutMs;
    }

    /** {@code http.idle.timeout.ms}: a kept-alive connection with nothing unanswered is closed after this silence. */
    public ApplianceContext httpIdleTimeoutMs(final long httpIdleTimeoutMs)
    {
        this.httpIdleTimeoutMs = httpIdleTimeoutMs;
        return changed();
    }

    public long httpIdleTimeoutMs()
    {
        return httpIdleTimeoutMs;
    }

    /** {@code http.max.connections}: the HTTP lane's open connections; one more (not exempt) is refused. */
    public ApplianceContext httpMaxConnections(final int httpMaxConnections)
    {
        this.httpMaxConnections = httpMaxConnections;
        return changed();
    }

    public int httpMaxConnections()
    {
        return httpMaxConnections;
    }

    /** {@code http.max.connections.per.address}: open connections from one address (IPv6: one /64) not exempt. */
    public ApplianceContext httpMaxConnectionsPerAddress(final int httpMaxConnectionsPerAddress)
    {
        this.httpMaxConnectionsPerAddress = httpMaxConnectionsPerAddress;
        return changed();
    }

    public int httpMaxConnectionsPerAddress()
    {
        return httpMaxConnectionsPerAddress;
    }

    /**
     * {@code http.tls.cert.file}: the HTTP lane's default TLS certificate (PEM); with the key, the lane serves HTTPS.
     */
    public ApplianceContext httpTlsCertFile(final Path file)
    {
        this.httpTlsCertFile = file;
        return changed();
    }

    public Path httpTlsCertFile()
    {
        return httpTlsCertFile;
    }

    /** {@code http.tls.key.file}: the default certificate's private key (unencrypted PKCS#8 PEM). */
    public ApplianceContext httpTlsKeyFile(final Path file)
    {
        this.httpTlsKeyFile = file;
        return changed();
    }

    public Path httpTlsKeyFile()
    {
        return httpTlsKeyFile;
    }

    /**
     * {@code http.tls.sni.dir}: a folder of SNI pairs, {@code <host name>.cert.pem} and {@code <host name>.key.pem}; a
     * client that asks for that name by SNI gets that certificate, any other the default one.
     */
    public ApplianceContext httpTlsSniDir(final Path folder)
    {
        this.httpTlsSniDir = folder;
        return changed();
    }

    public Path httpTlsSniDir()
    {
        return httpTlsSniDir;
    }

    /**
     * {@code http.trusted.proxies}: the local proxies whose connections start with a PROXY v2 header naming the client,
     * whose address then counts for the edge throttle, the connection caps, the private reads and metrics.allow.
     */
    public ApplianceContext httpTrustedProxies(final Set<InetAddress> proxies)
    {
        this.httpTrustedProxies = Set.copyOf(proxies);
        return changed();
    }

    public Set<InetAddress> httpTrustedProxies()
    {
        return httpTrustedProxies;
    }

    /** Derived: the HTTP lane's TLS, every file read and checked, or null for plain HTTP. */
    public ServerTls httpTls()
    {
        requireConcluded();
        return concludedHttpTls;
    }

    /** {@code reads.private.account.rate}, {@code .burst}: an account's private reads a second, and the burst. */
    public ApplianceContext readsAccount(final long rate, final long burst)
    {
        this.readsAccountRate = rate;
        this.readsAccountBurst = burst;
        return changed();
    }

    /** {@code reads.private.ip.rate}, {@code .burst}: an address's private reads a second, and the burst. */
    public ApplianceContext readsIp(final long rate, final long burst)
    {
        this.readsIpRate = rate;
        this.readsIpBurst = burst;
        return changed();
    }

    public long readsAccountRate()
    {
        return readsAccountRate;
    }

    public long readsAccountBurst()
    {
        return readsAccountBurst;
    }

    public long readsIpRate()
    {
        return readsIpRate;
    }

    public long readsIpBurst()
    {
        return readsIpBurst;
    }

    /**
     * {@code ws.*}: the WebSocket gateway's settings, set in place by the configuration file (defaults: the spec's);
     * the HTTP lane checks them when it starts, with the node's feed and token check.
     */
    public WsGateway.Context webSocket()
    {
        return webSocket;
    }

    /** {@code ws.enabled}: whether the HTTP lane serves the WebSocket endpoints (default true). */
    public ApplianceContext webSocketEnabled(final boolean enabled)
    {
        this.webSocketEnabled = enabled;
        return changed();
    }

    public boolean webSocketEnabled()
    {
        return webSocketEnabled;
    }

    /** {@code feed.window.frames}, {@code feed.window.bytes}: what each public channel keeps for resuming clients. */
    public ApplianceContext feedWindow(final int frames, final long bytes)
    {
        this.feedWindowFrames = frames;
        this.feedWindowBytes = bytes;
        return changed();
    }

    /**
     * {@code feed.rest.us} (default {@value #DEFAULT_FEED_REST_US}): how long the market feed rests, deaf to the
     * engine's bell, once it has caught up, before it parks until rung: while events keep coming it wakes at most once
     * a rest and takes them in larger pieces (a frame waits at most that much longer); after a quiet spell the first
     * batch wakes it at once. 0: no rest, woken by every batch.
     */
    public ApplianceContext feedRestUs(final long us)
    {
        if (us < 0 || us > 1_000_000)
        {
            throw new IllegalArgumentException("feed.rest.us must be 0 to 1000000: " + us);
        }
        this.feedRestUs = us;
        return changed();
    }

    public long feedRestUs()
    {
        return feedRestUs;
    }

    public int feedWindowFrames()
    {
        return feedWindowFrames;
    }

    public long feedWindowBytes()
    {
        return feedWindowBytes;
    }

    /** {@code mm.builder.basic.per.minute}: the basic builder plan's MM actions a minute. */
    public ApplianceContext builderBasicPerMinute(final long builderBasicPerMinute)
    {
        this.builderBasicPerMinute = builderBasicPerMinute;
        return changed();
    }

    public long builderBasicPerMinute()
    {
        return builderBasicPerMinute;
    }

    /** {@code mm.builder.pro.per.minute}: the pro builder plan's MM actions a minute. */
    public ApplianceContext builderProPerMinute(final long builderProPerMinute)
    {
        this.builderProPerMinute = builderProPerMinute;
        return changed();
    }

    public long builderProPerMinute()
    {
        return builderProPerMinute;
    }

    /** {@code mm.builder.basic}: the accounts (lowercase 0x addresses) on the basic builder plan; replaces the set. */
    public ApplianceContext builderBasic(final Set<String> accounts)
    {
        builderBasic.clear();
        builderBasic.addAll(accounts);
        return changed();
    }

    /** {@code mm.builder.pro}: the accounts (lowercase 0x addresses) on the pro builder plan; replaces the set. */
    public ApplianceContext builderPro(final Set<String> accounts)
    {
        builderPro.clear();
        builderPro.addAll(accounts);
        return changed();
    }

    /** Derived: the builder plans as configured (an account on both is refused by {@link #conclude()}). */
    public MmWindows.Plans builderPlans()
    {
        requireConcluded();
        return concludedBuilderPlans;
    }

    /**
     * {@code lanes}: the lanes the node serves, by name, in the order of the connectivity bundle; {@code http}
     * by default.
     */
    public ApplianceContext lanes(final List<String> lanes)
    {
        this.lanes = List.copyOf(lanes);
        return changed();
    }

    public List<String> lanes()
    {
        return lanes;
    }

    /**
     * Checks the settings together and fills the derived values; throws {@link IllegalArgumentException} naming the key
     * of the first setting it refuses. Returns this context, concluded until a setter is called.
     */
    public ApplianceContext conclude()
    {
        concluded = false;
        if (role == Role.STANDBY && !replicated())
        {
            throw new IllegalArgumentException(
                "role standby needs replication.standby.endpoint and replication.primary.endpoint");
        }
        if (replicated() && replicationKeyFile == null)
        {
            throw new IllegalArgumentException("a node of a replicated pair needs replication.key.file: the key both " +
                "nodes seal every replication message with (docs/OPERATIONS.md)");
        }
        if (accountActions < 1 || accountWindowMs < 1 || openOrdersPerAccount < 1 ||
            openOrdersPerAccountAndMarket < 1 || levelsPerSide < 1 || stateAccounts < 1 || stateRestingOrders < 1)
        {
            throw new IllegalArgumentException("every limits.* value must be positive");
        }
        // a rate its limiter cannot count, a shard count out of range, a group of no command: the engine's own checks
        engineCheck("limits.account.actions and limits.account.window.ms",
            () -> new EngineConfig().actionRate(accountActions,
            accountWindowMs));
        engineCheck("engine.shards", () -> new EngineConfig().shards(engineShards));
        engineCheck("engine.group.commands", () -> new EngineConfig().groupCommands(groupCommands));
        engineCheck("mm.cross.shard.credit.*",
            () -> new EngineConfig().crossShardCredit(crossShardHaircutPpm, crossShardMaxAccountLocked,
            crossShardMaxMarketLocked, crossShardKillSwitch));
        if (shardBusyBacklog < 0)
        {
            throw new IllegalArgumentException("shard.busy.backlog must not be negative");
        }
        if (refusalsAggregateAfter < 0 || refusalsAggregateWindowMs < 1 || refusalsAggregateSources < 1 ||
            refusalsAggregateSources > 1 << 20)
        {
            throw new IllegalArgumentException("refusals.aggregate.after must not be negative, " +
                "refusals.aggregate.window.ms must be positive and refusals.aggregate.sources from 1 to 1048576");
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
        if (mmLowLatencyMaxActions < 1 || mmLowLatencyMaxActions > CompactOrders.MAX_ORDERS)
        {
            throw new IllegalArgumentException(
                "mm.low.latency.max.actions must be from 1 to " + CompactOrders.MAX_ORDERS + ", got " +
                mmLowLatencyMaxActions);
        }
        // a compact request of 1,000 orders must fit, and a JSON submit goes whole to the verifier pool, which takes
        // bodies up to its own limit (512 KiB)
        if (httpMaxBodyBytes < CompactOrders.length(CompactOrders.MAX_ORDERS) || httpMaxBodyBytes > 512 * 1024)
        {
            throw new IllegalArgumentException(
                "http.max.body.bytes must be from " + CompactOrders.length(CompactOrders.MAX_ORDERS) +
                " (a compact request of 1,000 orders) to 524288 (the verifier pool's body limit)");
        }
        if (httpHeaderTimeoutMs < 1 || httpBodyTimeoutMs < 1 || httpIdleTimeoutMs < 1)
        {
            throw new IllegalArgumentException("http.header.timeout.ms, http.body.timeout.ms and " +
                "http.idle.timeout.ms must be positive");
        }
        if (httpMaxConnections < 1 || httpMaxConnectionsPerAddress < 1)
        {
            throw new IllegalArgumentException("http.max.connections and http.max.connections.per.address must be " +
                "positive");
        }
        if (feedWindowFrames < 1 || feedWindowBytes < 1)
        {
            throw new IllegalArgumentException("feed.window.frames and feed.window.bytes must be positive");
        }
        if (readsAccountRate < 1 || readsAccountBurst < 1 || readsIpRate < 1 || readsIpBurst < 1)
        {
            throw new IllegalArgumentException("every reads.private.* value must be positive");
        }
        final MmWindows.Plans plans;
        try
        {
            plans = new MmWindows.Plans(builderBasicPerMinute, builderProPerMinute, Set.copyOf(builderBasic),
                Set.copyOf(builderPro));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("mm.builder.basic and mm.builder.pro: " + ex.getMessage(), ex);
        }
        if ((listingFile == null) != (listingOperatorKeyFile == null))
        {
            throw new IllegalArgumentException("listing.file and listing.operator.key.file go together");
        }
        if (wsTokenTtlMs < WsTokens.MIN_TTL_MS || wsTokenTtlMs > WsTokens.MAX_TTL_MS)
        {
            throw new IllegalArgumentException("ws.token.ttl.ms is 60000 to 300000");
        }
        if (keptAnswersBytes < RecentAnswers.MIN_BUDGET_BYTES)
        {
            throw new IllegalArgumentException("answers.kept.bytes is at least " + RecentAnswers.MIN_BUDGET_BYTES);
        }
        if (idleMaxParkUs < 0 || idleMaxParkUs > MAX_PARK_US)
        {
            throw new IllegalArgumentException("idle.max.park.us is 1 to " + MAX_PARK_US);
        }
        if (httpPort < 0 || httpPort > 65_535 || verifierThreads < 1 || snapshotEvery < 1 || snapshotsKept < 1 ||
            answerTimeoutMs < 1)
        {
            throw new IllegalArgumentException(
                "http.port 0-65535; verifier.threads, snapshot.every, snapshot.keep and " +
                "answer.timeout.ms positive");
        }
        // what only a setter called from code can get wrong (the file's parser refuses it first)
        if (!IDLE_STRATEGIES.contains(idleStrategy))
        {
            throw new IllegalArgumentException(
                "idle.strategy is park, backoff or busy-spin, got '" + idleStrategy + "'");
        }
        checkEndpoint("replication.standby.endpoint", standbyEndpoint);
        checkEndpoint("replication.primary.endpoint", primaryEndpoint);
        checkLanes();
        if (bslTcpPort < 0 || bslTcpPort > 65_535 || bslTcpHeartbeatMs < 10 || bslTcpLoginTimeoutMs < 1 ||
            bslTcpMaxFrameBytes < BslFraming.MIN_MESSAGE_BYTES || bslTcpMaxSessions < 1 || bslTcpHost == null ||
            bslTcpMaxSessionsPerAddress < 1)
        {
            throw new IllegalArgumentException("bsl.tcp.port 0-65535, bsl.tcp.heartbeat.ms at least 10, " +
                "bsl.tcp.login.timeout.ms, bsl.tcp.max.sessions and bsl.tcp.max.sessions.per.address positive, " +
                "bsl.tcp.max.frame.bytes at least " +
                BslFraming.MIN_MESSAGE_BYTES + ", bsl.tcp.host set");
        }
        if (!demo && !(chainIdSet && verifyingContractSet))
        {
            // the demo's binding is the reference vectors' test values: a production node running on them would sign
            // and verify for a deployment it is not, and its clients' signatures would not verify
            throw new IllegalArgumentException("a production node (demo=false) must name its deployment: set " +
                (chainIdSet ? "" : verifyingContractSet ? "chain.id" : "chain.id and ") +
                (verifyingContractSet ? "" : "verifying.contract") + " (the chain id and verifying contract its v2 " +
                "digests are bound to; docs/OPERATIONS.md)");
        }
        if (dataDir == null || httpHost == null || verifyingContract == null || role == null || replicationMode == null)
        {
            throw new IllegalArgumentException(
                "data.dir, http.host, verifying.contract, role and replication.mode must be set");
        }

        final ServerTls tls = httpTls(httpTlsCertFile, httpTlsKeyFile, httpTlsSniDir);
        if ((bslTcpTls || fixTls) && tls == null)
        {
            throw new IllegalArgumentException((bslTcpTls ? "bsl.tcp.tls" : "fix.tls") +
                "=true needs the node's certificate: http.tls.cert.file and http.tls.key.file");
        }
        concludedHttpTls = tls;
        concludedIdleMaxParkUs = idleMaxParkUs > 0 ? idleMaxParkUs : "backoff".equals(idleStrategy) ? 100 : 1_000;
        concludedFrontMaxParkUs = idleMaxParkUs == 0 && replicated() ? 100 : concludedIdleMaxParkUs;
        concludedCredentialKeyFile = credentialKeyFile != null ? credentialKeyFile :
            dataDir.resolve("keys").resolve("credentials.key");
        concludedBuilderPlans = plans;
        if (threadLayout == ThreadLayout.SINGLE && verifierThreads != 1)
        {
            throw new IllegalArgumentException("threads=single runs one verifier: verifier.threads=" + verifierThreads);
        }
        concludedCompactThreads = threadLayout.compact(processors, verifierThreads);
        concludedVerifierOnFront = threadLayout.verifierOnFront(processors, verifierThreads);
        concluded = true;
        return this;
    }

    /** Reads the TLS files (a start with a file that does not read stops here, naming the setting and the file). */
    private static ServerTls httpTls(final Path cert, final Path key, final Path sniDir)
    {
        if ((cert == null) != (key == null))
        {
            throw new IllegalArgumentException("http.tls.cert.file and http.tls.key.file go together");
        }
        if (cert == null)
        {
            if (sniDir != null)
            {
                throw new IllegalArgumentException("http.tls.sni.dir needs http.tls.cert.file and http.tls.key.file " +
                    "(the certificate of a client that names no host)");
            }
            return null;
        }
        final Map<String, Path[]> sni = new TreeMap<>();
        if (sniDir != null)
        {
            if (!Files.isDirectory(sniDir))
            {
                throw new IllegalArgumentException("http.tls.sni.dir: " + sniDir + " is not a folder");
            }
            try (DirectoryStream<Path> certs = Files.newDirectoryStream(sniDir, "*.cert.pem"))
            {
                for (final Path file : certs)
                {
                    final String name = file.getFileName().toString();
                    final String host = name.substring(0, name.length() - ".cert.pem".length());
                    final Path hostKey = sniDir.resolve(host + ".key.pem");
                    if (!Files.exists(hostKey))
                    {
                        throw new IllegalArgumentException("http.tls.sni.dir: " + file + " has no " + hostKey);
                    }
                    sni.put(host, new Path[] {file, hostKey});
                }
            }
            catch (final IOException ex)
            {
                throw new IllegalArgumentException("http.tls.sni.dir: " + sniDir + " does not read: " + ex, ex);
            }
            if (sni.isEmpty())
            {
                throw new IllegalArgumentException("http.tls.sni.dir: " + sniDir + " holds no <host>.cert.pem");
            }
        }
        return ServerTls.load(cert, key, sni);
    }

    /** Replication is configured when both endpoints are. */
    public boolean replicated()
    {
        return standbyEndpoint != null && primaryEndpoint != null;
    }

    /**
     * The engine configuration these settings describe (operators, limits, shards, cross-shard credit): what a replay
     * must repeat. A new one each call; its shard threads are left at the engine's defaults for the caller to set (the
     * node pins them, a replay does not). The engine checks each value as it takes it.
     */
    public EngineConfig engineConfig()
    {
        final EngineConfig config = new EngineConfig()
            .actionRate(accountActions, accountWindowMs)
            .maxOpenOrdersPerAccount(openOrdersPerAccount)
            .maxOpenOrdersPerAccountAndMarket(openOrdersPerAccountAndMarket)
            .maxLevelsPerSide(levelsPerSide)
            .maxMarkets(maxMarkets)
            .orderCapacityPerBook(ordersPerBook)
            .stateLimits(StateLimits.forAccounts(stateAccounts, stateRestingOrders))
            .shards(engineShards)
            .groupCommands(groupCommands)
            .protectionCapacity(protectionCapacity).fixOnboardingCapacity(fixOnboardingCapacity);
        if (crossShardCredit)
        {
            config.crossShardCredit(crossShardHaircutPpm, crossShardMaxAccountLocked, crossShardMaxMarketLocked,
                crossShardKillSwitch);
        }
        operators.forEach(config::operator);
        return config;
    }

    /** A {@code host:port} endpoint, or refused naming the key; null (not set) passes. */
    static void checkEndpoint(final String key, final String endpoint)
    {
        if (endpoint != null && !isEndpoint(endpoint))
        {
            throw new IllegalArgumentException(key + ": expected host:port, got '" + endpoint + "'");
        }
    }

    static boolean isEndpoint(final String value)
    {
        final int colon = value.lastIndexOf(':');
        if (colon <= 0)
        {
            return false;
        }
        try
        {
            final int port = Integer.parseInt(value.substring(colon + 1));
            return port >= 1 && port <= 65_535;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    /** At least one lane, each one this build has ({@link LaneCatalog}), none twice. */
    private void checkLanes()
    {
        final String built = String.join(", ", LaneCatalog.names());
        if (lanes.isEmpty())
        {
            throw new IllegalArgumentException("lanes names no lane (this build has " + built + ")");
        }
        final Set<String> named = new HashSet<>();
        for (final String lane : lanes)
        {
            if (!LaneCatalog.names().contains(lane))
            {
                throw new IllegalArgumentException("lanes: unknown lane '" + lane + "' (this build has " + built + ")");
            }
            if (!named.add(lane))
            {
                throw new IllegalArgumentException("lanes names '" + lane + "' twice");
            }
        }
    }

    private static void engineCheck(final String key, final Runnable check)
    {
        try
        {
            check.run();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(key + ": " + ex.getMessage(), ex);
        }
    }

    private ApplianceContext changed()
    {
        concluded = false;
        return this;
    }

    private void requireConcluded()
    {
        if (!concluded)
        {
            throw new IllegalStateException("conclude() the appliance's context before reading what it derives");
        }
    }
}
