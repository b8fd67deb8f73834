package io.venue.appliance;

import io.venue.action.Address;
import io.venue.engine.EngineAgent;
import io.venue.engine.EngineConfig;
import io.venue.engine.ShardRecovery;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateUnusableException;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalPretoucher;
import io.venue.journal.queue.JournalTailer;
import io.venue.replication.AcknowledgementGate;
import io.venue.replication.CommandShipper;
import io.venue.replication.ReplicationContext;
import io.venue.replication.ReplicationMedia;
import io.venue.replication.StandbyFollower;
import io.venue.responder.ExecutionHistory;
import io.venue.responder.ReadModels;
import io.venue.responder.RecentAnswers;
import io.venue.responder.Responder;
import io.venue.responder.VenueDirectory;
import io.venue.sequencer.Sequencer;
import io.venue.sequencer.SequencerListener;
import io.venue.auth.CredentialSecrets;
import io.venue.transport.http.EdgeThrottle;
import io.venue.transport.http.OwnerIntents;
import io.venue.transport.http.TokenSigners;
import io.venue.transport.http.WsTokens;
import io.venue.tuning.Doorbell;
import io.venue.tuning.PinnedThreads;
import io.venue.transport.http.HttpGateway;
import io.venue.transport.http.PreJournalRefusals;
import io.venue.transport.http.JsonWriter;
import io.venue.transport.http.PendingSubmits;
import io.venue.verifier.VerifierPool;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.DynamicCompositeAgent;
import org.agrona.concurrent.SystemEpochClock;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One appliance process: the HTTP lane, the verifier pool, the sequencer (single writer of the command
 * journal), one engine shard (command journal in, event journal out, Chronicle Map state, snapshots) and the
 * responder (answers from the journals). Start recovers the shard from its folder; close stops taking requests,
 * lets the engine apply everything journaled, and writes the state.
 * <pre>
 * HTTP ─► verifier pool ─► sequencer ─► journal/commands ─► engine ─► journal/events ─► responder ─► HTTP answer
 * </pre>
 */
public final class Appliance implements AutoCloseable
{
    private static final int BATCH = 64;
    private static final long WAIT_STEP_NS = 1_000_000;
    /** Spec 3.1: the nonce window is 256 wide. */
    private static final int NONCE_WINDOW = 256;

    private final ApplianceContext context;
    private final PrintStream log;
    private Journal commands;
    private Journal events;
    private EngineState state;
    private io.venue.engine.Engine engine;
    private volatile VerifierPool pool;
    private volatile Sequencer sequencer;
    private EngineAgent engineAgent;
    private AgentRunner engineRunner;
    private AgentRunner frontRunner;
    private Responder responder;
    private AgentRunner pretouchRunner;
    private JournalPretoucher pretoucher;
    private volatile HttpGateway gateway;
    private DynamicCompositeAgent front;
    /** Rung by the verifiers, the lanes' refusals and the engine: work for the front thread (sequencer, responder). */
    private final Doorbell frontBell = new Doorbell();
    /**
     * Rung by whoever appends to the command journal (the sequencer, a standby's follower); null with compact threads,
     * where those run on the engine's own thread and need not wake it.
     */
    private Doorbell engineBell;
    private ReplicationMedia media;
    private Path data;
    private final java.util.concurrent.CountDownLatch serving = new java.util.concurrent.CountDownLatch(1);
    private PendingSubmits pending;
    private ReadModels models;
    /** Answers kept for the status query: about 100,000 actions, a few tens of MB. */
    private static final int RECENT = 100_000;
    private final RecentAnswers recentAnswers = new RecentAnswers(RECENT);
    private DemoVenue demoVenue;
    private java.util.List<io.venue.action.Action> listing;
    private io.venue.crypto.Secp256k1KeyPair listingOperator;
    private CredentialSecrets credentialSecrets;
    private ExecutionHistory executionHistory;
    private SvcNonceFile svcNonceFile;

    private Appliance(final ApplianceContext context, final PrintStream log)
    {
        this.context = context;
        this.log = log;
    }

    /** Recovers the shard from the data folder and starts serving; on the demo's first start, sets the venue up. */
    public static Appliance start(final ApplianceContext context, final PrintStream log) throws IOException, StateUnusableException
    {
        context.validate();
        final Appliance appliance = new Appliance(context, log);
        try
        {
            appliance.open();
            return appliance;
        }
        catch (final IOException | StateUnusableException | RuntimeException ex)
        {
            appliance.close();
            throw ex;
        }
    }

    private void open() throws IOException, StateUnusableException
    {
        data = context.dataDir.toAbsolutePath();
        Files.createDirectories(data);
        final EngineConfig config = context.engineConfig();
        if (context.demo)
        {
            demoVenue = DemoVenue.open(data);
            config.operator(demoVenue.operator.address());
        }
        models = new ReadModels(config.stateLimits().openOrders());
        if (context.listingFile != null)
        {
            listing = ListingFile.read(context.listingFile);
            listingOperator = io.venue.crypto.Secp256k1KeyPair.fromPrivateKey(KeyFiles.load(context.listingOperatorKeyFile));
            if (!config.operators().contains(listingOperator.address()))
            {
                throw new IllegalArgumentException("listing.operator.key.file holds the key of " + listingOperator.address() +
                    ", which is not among 'operators'");
            }
        }
        if (config.operators().isEmpty())
        {
            throw new IllegalArgumentException("no operator key: set 'operators' (or demo=true)");
        }

        commands = Journal.open(data.resolve("journal").resolve("commands"));
        events = Journal.open(data.resolve("journal").resolve("events"));
        for (final Journal journal : List.of(commands, events))
        {
            journal.setAside().forEach(file -> log.println("journal: set aside " + file + ", a cycle file a stopped writer " +
                "made and never gave its header (it holds no record)"));
        }
        executionHistory = new ExecutionHistory(events, () -> pending.lastSequenced());
        final long journaled = commands.lastSequence();
        EngineConfigRecord.check(data, config, journaled, log);
        // a node promoted and restarted before journaling a command has its epoch only in the promotion's file
        final long epoch = Math.max(Math.max(1, commands.lastEpoch()), PromotionWatch.promotedEpoch(data));
        final EngineState.Context stateContext = new EngineState.Context().directory(data.resolve("state"))
            .sizeFor(config.stateLimits());
        final Path snapshots = data.resolve("snapshots");
        final ShardRecovery recovery = ShardRecovery.recover(config, stateContext, snapshots, commands, events,
            new ShardRecovery.Report()
            {
                public void onStateRebuilt(final String reason)
                {
                    log.println("state rebuilt by replay: " + reason);
                }

                public void onReplayed(final long replayed, final long matched, final long appended, final long last)
                {
                    log.printf("recovered: %,d commands replayed (%,d events matched, %,d appended), last sequence %d%n",
                        replayed, matched, appended, last);
                }

                public void onUnreadable(final long index, final long sequence)
                {
                    log.printf("recovery: the command at journal index %d (sequence %d) is not a record the engine reads: " +
                        "skipped, as the live engine skips it; check the journal (venue journal dump)%n", index, sequence);
                }
            });
        state = recovery.state();
        engine = recovery.engine();
        if (context.journalPretouch)
        {
            // its own thread, sleeping 1 ms between looks: it keeps 32 MiB ahead of each writer, tens of milliseconds of
            // writing, and a backing-off wait would wake it thousands of times a second for nothing
            pretoucher = new JournalPretoucher(new JournalPretoucher.Context().errorHandler(this::onError)).follow(commands)
                .follow(events);
            pretouchRunner = new AgentRunner(new SleepingIdleStrategy(TimeUnit.MILLISECONDS.toNanos(1)),
                this::onError, null, pretoucher);
            AgentRunner.startOnThread(pretouchRunner, PinnedThreads.factory("journal-pretouch", context.corePretouch));
        }
        // after the state's lock: a second process on this folder has stopped at it before touching the lane's file
        svcNonceFile = new SvcNonceFile(data, config.stateLimits().credentials(), log);
        recovery.commands().handOver();
        engineAgent = new EngineAgent(engine, recovery.commands(), BATCH)
            .snapshots(state, snapshots, context.snapshotEvery, context.snapshotsKept);
        pending = new PendingSubmits(journaled);
        // the listing from the whole event journal; the answers (for the status route) from the last RECENT commands
        try (JournalTailer scan = events.tailer())
        {
            models.scan(scan);
        }
        svcNonceFile.credentialsExist(models.agents().credentials() > 0);
        credentialSecrets = new CredentialSecrets(credentialKey());
        final long answersFrom = Math.max(0, journaled - RECENT);
        final JournalTailer commandTail = commands.tailer();
        final JournalTailer eventTail = events.tailer();
        commandTail.moveAfterSequence(answersFrom);
        eventTail.moveAfterSequence(answersFrom);
        commandTail.handOver();
        eventTail.handOver();
        responder = new Responder(commandTail, eventTail, pending, models, BATCH, config.actionsPerWindow(),
            config.actionWindowMs(), recentAnswers, journaled, this::onError);
        if (context.compactThreads)
        {
            // one thread for the engine, the sequencer and the responder: fewer hand-offs, for hosts with few cores, and
            // no bell between them (a thread never needs waking by its own agents)
            front = new DynamicCompositeAgent("front", engineAgent, responder);
        }
        else
        {
            front = new DynamicCompositeAgent("front", responder);
            engineAgent.wakes(frontBell);
            engineBell = new Doorbell();
            engineRunner = new AgentRunner(context.idleStrategy().apply(engineBell), this::onError, null, engineAgent);
            AgentRunner.startOnThread(engineRunner, PinnedThreads.factory("engine-shard-0", context.coreEngine));
        }
        frontRunner = new AgentRunner(context.frontIdleStrategy().apply(frontBell), this::onError, null, front);
        AgentRunner.startOnThread(frontRunner, PinnedThreads.factory("front", context.coreFront));

        final SequencerListener answers = new SequencerListener()
        {
            public void onSequenced(final long connectionId, final long correlationId, final long sequence, final long index)
            {
                pending.onSequenced(correlationId, sequence);
            }

            public void onRejected(final long connectionId, final long correlationId, final long sequence, final long index)
            {
                pending.onSequenced(correlationId, sequence);
            }
        };
        if (!context.replicated())
        {
            serve(epoch, journaled, answers, () -> false, true);
            return;
        }
        final ReplicationContext replication = context.replication();
        media = ReplicationMedia.launch(data.resolve("aeron"));
        if (context.role == ApplianceContext.Role.PRIMARY)
        {
            final CommandShipper shipper = new CommandShipper(commands,
                media.aeron().addExclusivePublication(replication.commandChannel(), replication.commandStreamId()),
                media.aeron().addSubscription(replication.replyChannel(), replication.replyStreamId()), replication, epoch);
            final AcknowledgementGate gate = new AcknowledgementGate(answers, shipper::ackedSequence, replication.mode(), 10_000);
            add(shipper);
            add(gate);
            // listen before writing: a newer primary's heartbeat fences this node before it journals anything
            if (await(shipper::isFenced, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(context.primaryTimeoutMs)))
            {
                throw new IllegalStateException("fenced: a primary of epoch " + shipper.fencedBy() + " is running (this node's " +
                    "journal is at epoch " + epoch + "); start this node as a standby on an empty folder (docs/OPERATIONS.md)");
            }
            serve(epoch, journaled, gate, () -> gate.isFull() || shipper.isFenced(), true);
            add(ReplicationReport.primary(log, context.replicationReportMs, shipper, gate, sequencer));
            log.printf("primary of epoch %d, replicating %s to %s%n", epoch, replication.mode(), context.standbyEndpoint);
        }
        else
        {
            final StandbyFollower follower = new StandbyFollower(commands, journaled, epoch,
                media.aeron().addSubscription(replication.commandChannel(), replication.commandStreamId()),
                media.aeron().addExclusivePublication(replication.replyChannel(), replication.replyStreamId()), replication)
                .wakes(engineBell);
            add(follower);
            add(ReplicationReport.standby(log, context.replicationReportMs, follower));
            add(new PromotionWatch(follower, pending, data, promoted ->
            {
                log.printf("promoted: epoch %d after sequence %d%n", promoted.epoch(), promoted.lastSequence());
                final Thread starter = new Thread(() ->
                {
                    try
                    {
                        // the lane checks credentials, agents and nonce windows in the read models: they hold every command
                        // followed before the node serves, so a credential the old primary revoked stays revoked here
                        final long followed = promoted.lastSequence();
                        while (!await(() -> responder.counters().answeredSequence() >= followed,
                            System.nanoTime() + TimeUnit.SECONDS.toNanos(5)))
                        {
                            if (frontRunner.isClosed())
                            {
                                return;
                            }
                            if (responder.failed() || engineAgent.failure() != null)
                            {
                                // serving now would check requests against read models older than the journal
                                log.println("promotion: the " + (responder.failed() ? "responder" : "engine") + " has stopped " +
                                    "(its error is above), so the read models will not catch up: this node does not serve. " +
                                    "Restart it; it keeps its new epoch (the promoted file)");
                                return;
                            }
                            log.printf("promotion: the read models hold sequence %d of %d; serving once they hold it%n",
                                responder.counters().answeredSequence(), followed);
                        }
                        // the old primary's machine requests are not in this node's SVC-Nonce file: refuse any dated before now
                        svcNonceFile.promoted(System.currentTimeMillis());
                        serve(promoted.epoch(), followed, answers, () -> false, false);
                        log.println("serving as the primary on " + baseUrl());
                    }
                    catch (final RuntimeException ex)
                    {
                        onError(ex);
                    }
                }, "promotion");
                starter.start();
            }));
            log.printf("standby at sequence %d following %s; promote with: venue-appliance promote --data %s%n",
                journaled, context.primaryEndpoint, data);
        }
    }

    /**
     * Starts taking requests: the verifier pool, the sequencer at {@code lastSequence}, the demo set-up and the configured
     * listing (when {@code setUp}: a primary's start, not a promotion), the HTTP lane.
     */
    private synchronized void serve(final long epoch, final long lastSequence, final SequencerListener answers,
        final java.util.function.BooleanSupplier pause, final boolean setUp)
    {
        pool = VerifierPool.start(new VerifierPool.Context().threads(context.verifierThreads).idleStrategy(context.idleStrategy())
            .resultsDoorbell(frontBell)
            .threadFactory(context.verifierThreadFactory())
            .chainId(context.chainId).verifyingContract(context.verifyingContract).delegates(models.delegates()));
        final PreJournalRefusals refusals = new PreJournalRefusals(1 << 20).wakes(frontBell);
        sequencer = new Sequencer(pool, commands.appender(), SystemEpochClock.INSTANCE, answers, epoch, lastSequence, BATCH)
            .stampsFrom(commands.lastTimestampMs())
            .pauseWhen(pause).refusals(refusals).wakes(engineBell);
        add(sequencer);
        if (demoVenue != null && setUp)
        {
            // the operator's next nonce says how much of the set-up is journaled (all of it after the first start)
            final int submitted = demoVenue.submitSetUp(new OperatorActions(pool, pending, context.chainId,
                context.verifyingContract, demoVenue.operator), models.nonces().nextUsable(demoVenue.operator.address().toString()));
            if (submitted > 0)
            {
                log.printf("demo venue set up: %d operator actions journaled%n", submitted);
            }
        }
        if (listing != null && setUp)
        {
            final String operator = listingOperator.address().toString();
            final int created = ListingSetUp.apply(listing, models.directory(), new OperatorActions(pool, pending, context.chainId,
                context.verifyingContract, listingOperator), () -> models.nonces().nextUsable(operator));
            log.printf("listing from %s: %d of %d assets and markets created, the others already listed%n", context.listingFile,
                created, listing.size());
        }
        gateway = HttpGateway.start(new HttpGateway.Context()
            .host(context.httpHost).port(context.httpPort).answerTimeoutMs(context.answerTimeoutMs)
            .maxBodyBytes(context.httpMaxBodyBytes)
            .submitter(pool::offer).pending(pending)
            .exchangeInfo(models.directory()::exchangeInfoJson).connectivity(this::connectivityJson).tradingLimits(tradingLimitsJson())
            .metrics(context.metricsAllowed, this::metricsText).accountRateLimit(context.engineConfig().actionsPerWindow()).actionStatus(recentAnswers::find)
            .nonceStatus(account -> models.nonces().json(account, NONCE_WINDOW)).orderStatus(models.orders()::json)
            .orderMarket(models.orders()::marketOf)
            .marketListed(id -> models.directory().market(id) != null)
            .edgeThrottle(new EdgeThrottle(context.edgeIpRate, context.edgeIpBurst, context.edgeIpExempt, context.edgeNanoClock))
            .refusals(refusals)
            .ownerIntents(new OwnerIntents(context.chainId, context.verifyingContract, credentialSecrets, new SecureRandom(),
                System::currentTimeMillis, io.venue.crypto.Secp256k1Recoveries.select()::newRecovery), pool::offerIntent)
            .tokenSigners(this::tokenGrant)
            .machineAuth(id -> models.agents().find(id, System.currentTimeMillis(), credentialSecrets), new WsTokens(credentialSecrets.tokenKey()),
                context.wsTokenTtlMs)
            .executions(executionHistory::page)
            .mmOrderEntry(new io.venue.transport.http.CancelReplaceRequests(id ->
            {
                final io.venue.responder.VenueDirectory.Market market = models.directory().market(id);
                return market == null ? null : market.kind();
            }), pool::offerCancelReplace, new io.venue.transport.http.MmWindows(context.mmLimits(),
                context.builderPlans(), () -> System.nanoTime() / 1_000_000, this::shardOf))
            .compactOrderEntry(pool::offerMm, context.mmActionTsSkewMs)
            .prebatched(context.mmLowLatencyMaxActions, context.mmPrebatchedMaxBatches)
            .svcNonceStore(svcNonceFile)
            .shardBusyAbove(context.shardBusyBacklog, () -> sequencer.sequence() - engineAgent.appliedSequence()));
        serving.countDown();
    }

    /** The matching shard of a listed market, for the MM lane's per-shard window (an unlisted one: the first). */
    private int shardOf(final long market)
    {
        final VenueDirectory.Market listed = models.directory().market(market);
        return listed == null ? 0 : listed.shard(context.engineShards);
    }

    /** The account itself and its vault owner may read; an agent of the account as its scopes say. */
    private TokenSigners.Grant tokenGrant(final String account, final String signer, final long nowMs)
    {
        if (signer.equals(account) || signer.equals(models.vaultOwners().ownerOf(account)))
        {
            return new TokenSigners.Grant("", true);
        }
        return models.agents().signerFor(account, signer, nowMs);
    }

    /**
     * The credential key from its file. It is made only where no credential can exist yet: on a primary (or single
     * node) whose journal holds no agent. Anywhere else a missing key would silently break every HMAC credential and
     * token, so the node refuses to start.
     */
    private byte[] credentialKey() throws IOException
    {
        final Path file = context.credentialKeyFile();
        if (!Files.exists(file) && (context.role != ApplianceContext.Role.PRIMARY || models.agents().credentials() > 0))
        {
            throw new IllegalStateException("no credential key at " + file + (context.role == ApplianceContext.Role.PRIMARY ?
                ", but the journal holds agent credentials derived from one: restore the file" :
                ": a standby needs its primary's file (every node of a pair derives the same secrets)"));
        }
        return KeyFiles.loadOrCreate(file, () ->
        {
            final byte[] key = new byte[CredentialSecrets.KEY_LENGTH];
            new SecureRandom().nextBytes(key);
            log.println("made a credential key in " + file + ": every node of a pair needs the same file");
            return key;
        });
    }

    /** Adds an agent to the front thread and waits until it runs there. */
    private void add(final org.agrona.concurrent.Agent agent)
    {
        // the front thread may not have started the composite yet (it refuses additions until then)
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        if (!await(() -> front.status() != DynamicCompositeAgent.Status.INIT, deadline) || !await(() -> front.tryAdd(agent), deadline) ||
            !await(front::hasAddAgentCompleted, deadline))
        {
            throw new IllegalStateException("the front thread did not take " + agent.roleName());
        }
    }

    /**
     * Waits, parking (a spin would take the core from the thread being waited for on a small host), until
     * {@code done} or the deadline.
     *
     * @return whether {@code done} holds.
     */
    private static boolean await(final java.util.function.BooleanSupplier done, final long deadlineNs)
    {
        while (!done.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return false;
            }
            LockSupport.parkNanos(WAIT_STEP_NS);
        }
        return true;
    }

    /** Waits until the node takes requests (at once on a primary; after promotion on a standby). */
    public boolean awaitServing(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return serving.await(timeout, unit);
    }

    /** True once the node takes requests. */
    public boolean isServing()
    {
        return serving.getCount() == 0;
    }

    private void onError(final Throwable error)
    {
        log.println("error on an appliance thread: " + error);
        error.printStackTrace(log);
    }

    /** The bound HTTP port, or -1 while the node does not serve (a standby before promotion). */
    public int httpPort()
    {
        final HttpGateway http = gateway;
        return http == null ? -1 : http.port();
    }

    public String baseUrl()
    {
        return "http://" + context.httpHost + ":" + httpPort();
    }

    public VenueDirectory directory()
    {
        return models.directory();
    }

    /** The delegate signers the verifiers know of (a raw-mode signature by one costs one recovery). */
    public io.venue.verifier.DelegateSigners delegates()
    {
        return models.delegates();
    }

    /** The demo account's key file and address, or null outside the demo. */
    public Path demoAccountKeyFile()
    {
        return demoVenue == null ? null : demoVenue.accountKeyFile;
    }

    public Address demoAccount()
    {
        return demoVenue == null ? null : demoVenue.account.address();
    }

    public Path operatorKeyFile()
    {
        return demoVenue == null ? null : demoVenue.operatorKeyFile;
    }

    /** What stopped the engine shard (a defect, an event journal it could not write), or null while it runs or never ran. */
    public Throwable engineFailure()
    {
        return engineAgent == null ? null : engineAgent.failure();
    }

    /** The operator's metrics: the lane's and the responder's counters, and how far each stage of the pipeline is. */
    private String metricsText(final io.venue.transport.http.LaneCounters lane)
    {
        final io.venue.transport.http.MetricsText text = new io.venue.transport.http.MetricsText();
        lane.appendTo(text);
        responder.counters().appendTo(text);
        text.family("venue_sequence", "gauge", "the last command sequence each stage reached: journaled by the sequencer, " +
            "applied by the engine, answered by the responder")
            .sample("venue_sequence", "stage", "journaled", sequencer.sequence())
            .sample("venue_sequence", "stage", "applied", engineAgent.appliedSequence())
            .sample("venue_sequence", "stage", "answered", responder.counters().answeredSequence());
        text.family("venue_pending_requests", "gauge", "requests the lane waits on the engine's decision for")
            .sample("venue_pending_requests", pending.waiting());
        text.family("venue_engine_stopped", "gauge", "1 once the engine shard stopped on a defect or an event journal it " +
            "could not write (the log says why): it applies nothing more until a restart")
            .sample("venue_engine_stopped", engineAgent.failure() == null ? 0 : 1);
        if (pretoucher != null)
        {
            text.family("venue_journal_pretouched_pages_total", "counter", "journal pages faulted in ahead of their writers")
                .sample("venue_journal_pretouched_pages_total", pretoucher.pagesTouched());
            text.family("venue_journal_pretouch_failures_total", "counter", "journal files the pretoucher gave up on (the log " +
                "says why); their writers take their own page faults")
                .sample("venue_journal_pretouch_failures_total", pretoucher.failures());
        }
        return text.toString();
    }

    /** The limits of the trading route and of the books and orders (spec 8.1, 8.2), as configured. */
    private String tradingLimitsJson()
    {
        final EngineConfig config = context.engineConfig();
        return new JsonWriter().object("accountLimiter").field("maxActionsPerWindow", config.actionsPerWindow())
            .field("windowMs", config.actionWindowMs()).field("burst", config.actionsPerWindow()).end()
            .object("edgeThrottle").field("requestsPerSecond", context.edgeIpRate).field("burst", context.edgeIpBurst).end()
            .field("maxOpenOrdersPerAccount", config.maxOpenOrdersPerAccount())
            .field("maxOpenOrdersPerAccountAndMarket", config.maxOpenOrdersPerAccountAndMarket())
            .field("maxPriceLevelsPerSide", config.maxLevelsPerSide())
            .field("maxLegsPerBatch", io.venue.action.Fields.MAX_BATCH_LEGS)
            .field("matchingShards", config.shards()).field("groupCommands", config.groupCommands())
            .object("crossShardCredit").field("active", config.crossShardCreditActive())
            .field("haircutPpm", config.crossShardHaircutPpm()).field("maxAccountLocked", config.crossShardMaxAccountLocked())
            .field("maxMarketLocked", config.crossShardMaxMarketLocked()).field("killSwitch", config.crossShardKillSwitch()).end()
            .toJson();
    }

    /** The body of GET /api/v1/bsl/connectivity: where to connect and what to bind signatures to. */
    public String connectivityJson()
    {
        return new JsonWriter().field("ok", true)
            .object("http").field("baseUrl", "http://" + context.httpHost + ":" + (gateway == null ? context.httpPort : gateway.port()))
            .field("submitRoute", "/api/v1/trading/actions").field("mmReplaceRoute", "/api/v1/mm/orders/replace")
            .field("adminRoute", "/api/v1/admin/actions").field("tls", false).end()
            // spec 4: the BSL order-entry route, the result mode to expect and the response verbosity (4.1's defaults)
            .object("bsl").field("orderEntryRoute", "/api/v1/bsl/orders/compact").field("resultMode", "ack")
            .field("responseMode", "detailed").field("schema", "venue-bsl.xml, schema 4, version 1").end()
            .object("actionSigning").field("chainId", context.chainId).field("verifyingContract", context.verifyingContract.toString())
            .field("digest", "blake3-v2").field("scheme", "EcdsaSecp256k1").end()
            .toJson();
    }

    /** The sequence of the last command the engine applied. */
    public long appliedSequence()
    {
        return engineAgent.appliedSequence();
    }

    @Override
    public synchronized void close()
    {
        // no new submits, but the ones taken are journaled, applied and answered on their connections; then the
        // threads stop and the state is written
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        if (gateway != null)
        {
            gateway.drain();
        }
        if (sequencer != null)
        {
            // what the lanes handed over (verified requests, refusals to journal) is journaled: it is drained once the
            // sequence has not moved for a while
            long last = -1;
            long quietSince = System.nanoTime();
            while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(200) && System.nanoTime() < deadline)
            {
                final long now = sequencer.sequence();
                if (now != last)
                {
                    last = now;
                    quietSince = System.nanoTime();
                }
                LockSupport.parkNanos(WAIT_STEP_NS);
            }
        }
        if (engineAgent != null && frontRunner != null)
        {
            final long journaled = commands.lastSequence();
            await(() -> engineAgent.appliedSequence() >= journaled || engineAgent.failure() != null, deadline);
        }
        if (pending != null && frontRunner != null)
        {
            await(() -> pending.waiting() == 0, Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)));
        }
        CloseHelper.quietClose(gateway);
        CloseHelper.quietClose(svcNonceFile);
        CloseHelper.quietClose(frontRunner);
        CloseHelper.quietClose(engineRunner);
        if (engine != null && state != null)
        {
            try
            {
                if (engineAgent == null || engineAgent.failure() == null)
                {
                    // a shard stopped by a defect keeps its state as it last wrote it: the restart replays from there
                    engine.flushState();
                }
            }
            finally
            {
                state.close();
                // the matching shards' threads, if any
                engine.close();
            }
        }
        CloseHelper.quietClose(media);
        CloseHelper.quietClose(pool);
        CloseHelper.quietClose(executionHistory);
        CloseHelper.quietClose(pretouchRunner);
        CloseHelper.quietClose(commands);
        CloseHelper.quietClose(events);
    }
}
