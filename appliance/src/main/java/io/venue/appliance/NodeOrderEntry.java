package io.venue.appliance;

import io.venue.crypto.RecoveryCpu;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.auth.CredentialSecrets;
import io.venue.engine.EngineConfig;
import io.venue.entry.Answer;
import io.venue.entry.ConnectionAddresses;
import io.venue.entry.EntryCore;
import io.venue.entry.PendingRequests;
import io.venue.entry.PreJournalRefusals;
import io.venue.entry.RefusalDetails;
import io.venue.entry.admission.EdgeThrottle;
import io.venue.entry.credential.TokenSigners;
import io.venue.entry.credential.WsTokens;
import io.venue.entry.lane.Lane;
import io.venue.entry.mm.MmWindows;
import io.venue.entry.protect.ProtectionRequests;
import io.venue.entry.protect.SessionProtection;
import io.venue.feed.MarketFeed;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.responder.ExecutionHistory;
import io.venue.responder.ReadModels;
import io.venue.responder.RecentAnswers;
import io.venue.responder.Responder;
import io.venue.responder.VenueDirectory;
import io.venue.sequencer.ActionCommandEncoder;
import io.venue.sequencer.RefusalAggregator;
import io.venue.sequencer.Sequencer;
import io.venue.sequencer.SequencerListener;
import io.venue.transport.bsltcp.BslTcpLane;
import io.venue.transport.fix.FixJournalMarks;
import io.venue.transport.fix.FixLane;
import io.venue.entry.credential.FixOnboarding;
import io.venue.transport.http.CancelReplaceRequests;
import io.venue.transport.http.HttpGateway;
import io.venue.transport.http.HttpLane;
import io.venue.transport.http.OwnerIntents;
import io.venue.transport.http.ProtectionSignatures;
import io.venue.verifier.VerifierPool;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemEpochClock;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The node's order entry, from the lanes to the journal and back: the requests waiting for their answer, the responder
 * and its read models, the verifier pool, the sequencer, and the lanes ({@code lanes}), the HTTP lane's context among
 * them. Each of these is constructed here and nowhere else.
 * <pre>
 * lane ─► verifier pool ─► sequencer ─► journal/commands ─► engine ─► journal/events ─► responder ─► lane's answer
 * </pre>
 */
final class NodeOrderEntry
{
    private static final int BATCH = 64;
    /** Spec 3.1: the nonce window is 256 wide. */
    private static final int NONCE_WINDOW = 256;
    /** Answers kept for the status query: at most 100,000 actions, and at most {@code answers.kept.bytes} of heap. */
    private static final int RECENT = 100_000;
    /** The longest the feed parks when the event journal has nothing new: the most a frame waits for it. */
    /** Verifications a duty cycle of the front thread when it hosts the verifier ({@code threads=single}). */
    private static final int HOSTED_VERIFIER_BATCH = 16;

    private final ApplianceContext context;
    private final EngineConfig config;
    private final VenueSetUp venueSetUp;
    private final NodeThreads threads;
    private final ErrorHandler onError;
    private final PrintStream log;
    private final ReadModels models;
    private final RecentAnswers recentAnswers;
    private final CountDownLatch serving = new CountDownLatch(1);
    private NodeJournals journals;
    private EngineShard shard;
    private ExecutionHistory executionHistory;
    private SvcNonceFile svcNonceFile;
    private PendingRequests pending;
    private CredentialSecrets credentialSecrets;
    private Responder responder;
    private SequencerListener answers;
    private NodeMetrics metrics;
    private PreJournalRefusals refusals;
    private ProtectionRequests protectionRequests;
    /** The market data and private streams, and the reads they answer; on a thread of its own once serving. */
    private MarketFeed feed;
    private AgentRunner feedRunner;
    /** The order-entry core every lane enters by; made when serving starts. */
    private volatile EntryCore entry;
    private volatile VerifierPool pool;
    /** The verifiers' recoveries, one in {@link NodeMetrics#RECOVERY_SAMPLING} timed: the metrics' figure. */
    private final RecoveryCpu recoveryCpu = new RecoveryCpu(NodeMetrics.RECOVERY_SAMPLING);
    private volatile Sequencer sequencer;
    private volatile Lanes lanes = Lanes.NONE;

    NodeOrderEntry(final ApplianceContext context, final EngineConfig config, final VenueSetUp setUp,
        final NodeThreads threads, final ErrorHandler onError, final PrintStream log)
    {
        this.context = context;
        this.config = config;
        this.venueSetUp = setUp;
        this.threads = threads;
        this.onError = onError;
        this.log = log;
        models = new ReadModels(config.stateLimits().openOrders());
        recentAnswers = new RecentAnswers(RECENT, context.keptAnswersBytes());
    }

    /**
     * After the shard's recovery: the lane's SVC-Nonce file, the requests waiting, the read models from the whole event
     * journal, the credential key, and the responder from {@value #RECENT} commands before the journal's end (the
     * answers of the status route).
     */
    void open(final Path data, final NodeJournals journals, final EngineShard shard, final long journaled)
        throws IOException
    {
        this.journals = journals;
        this.shard = shard;
        executionHistory = new ExecutionHistory(journals.events(), () -> pending.lastSequenced());
        // after the state's lock: a second process on this folder has stopped at it before touching the lane's file
        svcNonceFile = new SvcNonceFile(data, config.stateLimits().credentials(), log);
        pending = new PendingRequests(journaled, context.answerTimeoutMs(), System::nanoTime);
        try (JournalTailer scan = journals.events().tailer())
        {
            models.scan(scan);
        }
        svcNonceFile.credentialsExist(models.agents().credentials() > 0);
        credentialSecrets = CredentialKey.load(context, models.agents().credentials() > 0,
            models.agents().keyVersionsInUse(System.currentTimeMillis()), log);
        final long answersFrom = Math.max(0, journaled - RECENT);
        final JournalTailer commandTail = journals.commands().tailer();
        final JournalTailer eventTail = journals.events().tailer();
        commandTail.moveAfterSequence(answersFrom);
        eventTail.moveAfterSequence(answersFrom);
        commandTail.handOver();
        eventTail.handOver();
        responder = new Responder(commandTail, eventTail, pending, models, BATCH, config.actionsPerWindow(),
            config.actionWindowMs(), recentAnswers, journaled, onError::onError);
        answers = new SequencerListener()
        {
            public void onSequenced(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
                pending.onSequenced(correlationId, sequence);
            }

            public void onRejected(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
                pending.onSequenced(correlationId, sequence);
            }

            @Override
            public void onRefusalCounted(final long connectionId, final long correlationId, final long timestampMs,
                final RequestRejectReason reason, final byte[] account, final byte[] digest, final String detail)
            {
                // what the responder would have answered from its RequestRejected, with no sequence of its own
                pending.answerUnjournaled(correlationId, new Answer.Builder()
                    .refused(0, timestampMs, reason, RefusalDetails.cap(detail))
                    .account(Arrays.copyOf(account, 20)).digest(Arrays.copyOf(digest, 32)).build());
            }
        };
        feed = new MarketFeed(new MarketFeed.Context().events(journals.events()).commands(journals.commands())
            .windowFrames(context.feedWindowFrames()).windowBytes(context.feedWindowBytes())
            .maxAccounts((int)Math.min(Integer.MAX_VALUE, config.stateLimits().accounts()))
            .maxOpenOrders(config.stateLimits().openOrders()).released(() -> pending.lastSequenced())
            .errorHandler(onError));
        metrics = new NodeMetrics(responder, () -> sequencer.sequence(), shard.agent(), () -> pending.waiting(),
            threads.pretoucher(), () -> sequencer.forces(), () -> sequencer.forcedSequence()).recoveryCpu(recoveryCpu);
    }

    /**
     * Starts taking requests: the verifier pool, the sequencer at {@code lastSequence} on the front thread, the demo
     * set-up and the configured listing (when {@code setUp}: a primary's start, not a promotion), then the lanes.
     */
    void serve(final long epoch, final long lastSequence, final SequencerListener answers, final BooleanSupplier pause,
        final boolean setUp)
    {
        final VerifierPool.Context poolContext = new VerifierPool.Context().threads(context.verifierThreads())
            .idleStrategy(threads.idleStrategy()).resultsDoorbell(threads.frontBell())
            // each verifier writes the command it verified: the sequencer only stamps it
            .commandWriters(ActionCommandEncoder::new)
            .recovery(() -> recoveryCpu.timing(Secp256k1Recoveries.select().newRecovery()))
            .threadFactory(threads.verifierThreadFactory())
            .chainId(context.chainId()).verifyingContract(context.verifyingContract()).delegates(models.delegates());
        if (context.verifierOnFront())
        {
            // fewer verifications a duty cycle than on a thread of its own: the sequencer and the responder run
            // between them, so the first answers of a burst do not wait for the whole burst's recoveries
            poolContext.hostedBy(threads.frontBell()).batchLimit(HOSTED_VERIFIER_BATCH);
        }
        pool = VerifierPool.start(poolContext);
        if (context.verifierOnFront())
        {
            pool.agents().forEach(threads::add);
        }
        refusals = new PreJournalRefusals(1 << 20).wakes(threads.frontBell());
        protectionRequests = new ProtectionRequests(1 << 20).wakes(threads.frontBell());
        sequencer = new Sequencer(pool, journals.commands().appender(), SystemEpochClock.INSTANCE, answers, epoch,
            lastSequence, BATCH) .stampsFrom(journals.commands().lastTimestampMs())
            .pauseWhen(pause).refusals(refusals).wakes(threads.engineBell()).forces(context.journalForce())
            .protections(protectionRequests).ticks(shard.agent()::protectionDeadline, context.protectionTickMs());
        if (!setUp || shard.agent().sessionsAtStart() > 0)
        {
            // their sockets are gone (a restart, or a promotion: the old primary's): their grace windows start now
            sequencer.resetsSessions();
        }
        // the lanes record each connection's client address; the sequencer counts repeated refusals by it
        final ConnectionAddresses addresses = new ConnectionAddresses(ConnectionAddresses.DEFAULT_CAPACITY);
        if (context.refusalsAggregateAfter() > 0)
        {
            sequencer.aggregatesRefusals(new RefusalAggregator(context.refusalsAggregateAfter(),
                context.refusalsAggregateWindowMs(), context.refusalsAggregateSources()), addresses);
        }
        threads.add(sequencer);
        // one order-entry core for every lane: admission, the backlog, the MM windows and the credentials see
        // all traffic
        metrics.protectionDrops(protectionRequests::notJournaled);
        entry = new EntryCore(new EntryCore.Context()
            .submitter(pool::offer).mmSubmitter(pool::offerTypedMm).intentSubmitter(pool::offerIntent)
            .cancelReplaceSubmitter(pool::offerCancelReplace).pending(pending).refusals(refusals)
            .protection(new SessionProtection(protectionRequests, pending, context.protectionSettings()))
            .answerTimeoutMs(context.answerTimeoutMs()).addresses(addresses)
            .edgeThrottle(new EdgeThrottle(context.edgeIpRate(), context.edgeIpBurst(), context.edgeIpExempt(),
                context.edgeNanoClock()))
            .prebatched(context.mmLowLatencyMaxActions(), context.mmPrebatchedMaxBatches())
            .mmWindows(
                new MmWindows(mmLimits(), context.builderPlans(), () -> System.nanoTime() / 1_000_000, this::shardOf))
            .machineCredentials(
                id -> models.agents().find(id, System.currentTimeMillis(), credentialSecrets), svcNonceFile)
            .shardBusyAbove(context.shardBusyBacklog(), () -> sequencer.sequence() - shard.agent().appliedSequence()));
        if (setUp)
        {
            venueSetUp.submit(
                operator -> new OperatorActions(pool, pending, context.chainId(), context.verifyingContract(),
                    operator),
                models, log);
        }
        // before the lanes: it reads the event journal from its start, and answers what they ask once it has
        feedRunner = new AgentRunner(
            new FeedIdleStrategy(feed, threads.feedBell(), TimeUnit.MICROSECONDS.toNanos(context.feedRestUs())),
            onError, null, feed);
        AgentRunner.startOnThread(feedRunner, runnable -> new Thread(runnable, "market-feed"));
        final Lanes enabled = Lanes.make(context.lanes(), this);
        // before they start, so that a close after a failed start closes the ones that did
        lanes = enabled;
        enabled.start();
        serving.countDown();
    }

    /** The HTTP lane ({@code http}) over this node's order entry. */
    Lane httpLane()
    {
        return new HttpLane(new HttpGateway.Context().entry(entry)
            .host(context.httpHost()).port(context.httpPort()).tls(context.httpTls())
            .trustedProxies(context.httpTrustedProxies())
            .maxBodyBytes(context.httpMaxBodyBytes())
            .deadlines(context.httpHeaderTimeoutMs(), context.httpBodyTimeoutMs(), context.httpIdleTimeoutMs())
            .connections(context.httpMaxConnections(), context.httpMaxConnectionsPerAddress(), context.edgeIpExempt())
            .log(log::println)
            .privateReads(context.readsAccountRate(), context.readsAccountBurst(), context.readsIpRate(),
                context.readsIpBurst())
            .exchangeInfo(models.directory()::exchangeInfoJson).connectivity(this::connectivityJson)
            .tradingLimits(TradingLimits.json(config, context))
            .metrics(context.metricsAllowed(), () -> metrics.text(lanes)).accountRateLimit(config.actionsPerWindow())
            .actionStatus(recentAnswers::find)
            .nonceStatus(account -> models.nonces().json(account, NONCE_WINDOW)).orderStatus(models.orders()::json)
            .fixOnboarding(id ->
            {
                final FixOnboarding record = models.fixOnboardings().find(id);
                return record == null ? null : record.json(context.fix().orderMessagesPerSecond(record.tier()));
            })
            .orderMarket(models.orders()::marketOf)
            .marketListed(id -> models.directory().market(id) != null)
            .ownerIntents(
                new OwnerIntents(context.chainId(), context.verifyingContract(), credentialSecrets, new SecureRandom(),
                System::currentTimeMillis, Secp256k1Recoveries.select()::newRecovery)
                .issued(id -> models.agents().find(id, System.currentTimeMillis(), credentialSecrets) != null))
            .tokenSigners(this::tokenGrant)
            .protectionSignatures(new ProtectionSignatures(context.chainId(), context.verifyingContract(),
                System::currentTimeMillis, Secp256k1Recoveries.select()::newRecovery,
                ProtectionSignatures.DEFAULT_CAPACITY))
            .wsTokens(new WsTokens(credentialSecrets.tokenKey()), context.wsTokenTtlMs())
            .executions(executionHistory::page)
            .feed(feed).webSocket(context.webSocketEnabled() ? context.webSocket().feed(feed) : null)
            .mmOrderEntry(new CancelReplaceRequests(id ->
            {
                final VenueDirectory.Market market = models.directory().market(id);
                return market == null ? null : market.kind();
            }))
            .compactOrderEntry(context.mmActionTsSkewMs()));
    }

    /** The BSL TCP lane ({@code bsl-tcp}) over this node's order entry: the HTTP compact route's admission. */
    Lane bslTcpLane()
    {
        return new BslTcpLane(new BslTcpLane.Context().entry(entry).host(context.bslTcpHost())
            .port(context.bslTcpPort()).heartbeatIntervalMs(context.bslTcpHeartbeatMs())
            .loginTimeoutMs(context.bslTcpLoginTimeoutMs()).maxFrameBytes(context.bslTcpMaxFrameBytes())
            .maxSessions(context.bslTcpMaxSessions())
            .maxSessionsPerAddress(context.bslTcpMaxSessionsPerAddress(), context.edgeIpExempt())
            .tsSkewMs(context.mmActionTsSkewMs())
            .marketListed(id -> models.directory().market(id) != null).orderMarket(models.orders()::marketOf)
            .deployment(context.chainId(), context.verifyingContract())
            .tls(context.bslTcpTls() ? context.httpTls() : null));
    }

    /** The FIX 4.4 lane ({@code fix}) over this node's order entry: the core's machine credentials. */
    Lane fixLane()
    {
        // the numbers each FIX session last journaled: a start or a promotion numbers on from them
        final FixJournalMarks marks;
        try (JournalTailer scan = journals.commands().tailer())
        {
            marks = FixJournalMarks.scan(scan);
        }
        // its ExecutionReports: the journals read from their start by the lane's own thread (the open orders' views)
        return new FixLane(context.fix().entry(entry).journalMarks(marks).onboarding(models.fixOnboardings()::find)
            .orderEntry(journals.commands().tailer(), journals.events().tailer(), () -> pending.lastSequenced(),
                sequencer.sequence(), (int)Math.min(Integer.MAX_VALUE, config.stateLimits().openOrders()))
            .tls(context.fixTls() ? context.httpTls() : null));
    }

    /** The MM lane's windows as configured. */
    private MmWindows.Limits mmLimits()
    {
        return new MmWindows.Limits(context.mmWindowMs(), context.mmAccountActions(), context.mmAccountCancels(),
            context.mmKeyActions(), context.mmIpActions(), context.mmMarketActions(), context.mmShardActions());
    }

    /** The matching shard of a listed market, for the MM lane's per-shard window (an unlisted one: the first). */
    private int shardOf(final long market)
    {
        final VenueDirectory.Market listed = models.directory().market(market);
        return listed == null ? 0 : listed.shard(context.engineShards());
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

    /** The body of GET /api/v1/bsl/connectivity: every enabled lane's sections and the deployment binding. */
    String connectivityJson()
    {
        return ConnectivityBundle.json(lanes.connectivity(), context.chainId(), context.verifyingContract());
    }

    /** The lanes stop taking new writes; what they took is still answered. */
    void drainLanes()
    {
        lanes.drain();
    }

    /**
     * Waits until what the lanes handed over (verified requests, refusals to journal) is journaled: once the sequence
     * has not moved for 200 ms, or the deadline.
     */
    void awaitJournaled(final long deadlineNs)
    {
        if (sequencer == null)
        {
            return;
        }
        // the lanes are drained: what the aggregated refusals counted is journaled now, not at their windows' end
        sequencer.flushRefusalCounts();
        long last = -1;
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(200) && System.nanoTime() < deadlineNs)
        {
            final long now = sequencer.sequence();
            if (now != last)
            {
                last = now;
                quietSince = System.nanoTime();
            }
            LockSupport.parkNanos(Waits.STEP_NS);
        }
    }

    /** Waits until no request waits for its answer, or the deadline. */
    void awaitAnswered(final long deadlineNs)
    {
        if (pending != null)
        {
            Waits.until(() -> pending.waiting() == 0, deadlineNs);
        }
    }

    /** Closes the lanes, then the lane's SVC-Nonce file (its clean-close marker). */
    void closeLanes()
    {
        lanes.close();
        CloseHelper.quietClose(svcNonceFile);
    }

    /** Closes the verifier pool and the private reads' thread. */
    void close()
    {
        CloseHelper.quietClose(pool);
        CloseHelper.quietClose(executionHistory);
        // the runner closes the feed on its own thread (its tailers are that thread's); a feed never run, here
        if (feedRunner != null)
        {
            CloseHelper.quietClose(feedRunner);
        }
        else
        {
            CloseHelper.quietClose(feed);
        }
    }

    ReadModels models()
    {
        return models;
    }

    Responder responder()
    {
        return responder;
    }

    PendingRequests pending()
    {
        return pending;
    }

    /** What the sequencer tells of each journaled request: its sequence, for the request waiting on it. */
    SequencerListener answers()
    {
        return answers;
    }

    Sequencer sequencer()
    {
        return sequencer;
    }

    SvcNonceFile svcNonceFile()
    {
        return svcNonceFile;
    }

    Lanes lanes()
    {
        return lanes;
    }

    boolean awaitServing(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return serving.await(timeout, unit);
    }

    boolean isServing()
    {
        return serving.getCount() == 0;
    }
}
