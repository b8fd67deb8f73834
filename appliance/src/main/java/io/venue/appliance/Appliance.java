package io.venue.appliance;

import io.venue.action.Address;
import io.venue.engine.EngineConfig;
import io.venue.engine.state.StateUnusableException;
import io.venue.responder.VenueDirectory;
import io.venue.sequencer.SequencerListener;
import io.venue.transport.bsltcp.BslTcpLane;
import io.venue.transport.fix.FixLane;
import io.venue.transport.http.HttpLane;
import io.venue.verifier.DelegateSigners;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One appliance process: the lanes, the verifier pool, the sequencer (single writer of the command journal), one engine
 * shard (command journal in, event journal out, Chronicle Map state, snapshots) and the responder (answers from the
 * journals), in the role its configuration gives it. Start recovers the shard from its folder; close stops taking
 * requests, lets the engine apply everything journaled, and writes the state.
 * <pre>
 * lane ─► verifier pool ─► sequencer ─► journal/commands ─► engine ─► journal/events ─► responder ─► lane's answer
 * </pre>
 * The parts: {@link NodeThreads}, {@link VenueSetUp}, {@link NodeJournals}, {@link EngineShard}, {@link NodeOrderEntry}
 * (with the {@link Lanes}), {@link Roles} (with the standby's {@link Promotion}).
 */
public final class Appliance implements AutoCloseable
{
    private final ApplianceContext context;
    private final PrintStream log;
    private final NodeThreads threads;
    private VenueSetUp setUp;
    private NodeJournals journals;
    private EngineShard shard;
    private NodeOrderEntry entry;
    private Roles roles;

    private Appliance(final ApplianceContext context, final PrintStream log)
    {
        this.context = context;
        this.log = log;
        threads = new NodeThreads(context, this::onError);
    }

    /** Recovers the shard from the data folder and starts serving; on the demo's first start, sets the venue up. */
    public static Appliance start(final ApplianceContext context, final PrintStream log)
        throws IOException, StateUnusableException
    {
        context.conclude();
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
        final Path data = context.dataDir().toAbsolutePath();
        Files.createDirectories(data);
        final EngineConfig config = context.engineConfig().shardThreads(threads.shardThreads(), threads.idleStrategy());
        setUp = VenueSetUp.open(context, data, config);
        journals = NodeJournals.open(data, log);
        final long journaled = journals.commands().lastSequence();
        EngineConfigRecord.check(data, config, journaled, log);
        // a node promoted and restarted before journaling a command has its epoch only in the promotion's file
        final long epoch = Math.max(Math.max(1, journals.commands().lastEpoch()), PromotionWatch.promotedEpoch(data));
        shard = EngineShard.recover(context, config, data, journals, log);
        threads.startPretoucher(journals.commands(), journals.events());
        entry = new NodeOrderEntry(context, config, setUp, threads, this::onError, log);
        entry.open(data, journals, shard, journaled);
        threads.start(shard.agent(), entry.responder());
        log.println(threads.layout());
        roles = new Roles(context, log, data, threads, entry, shard, this::serve, this::baseUrl, this::onError);
        roles.start(journals.commands(), epoch, journaled);
    }

    /** Starts taking requests; under the node's lock, so a promotion and a close do not interleave. */
    private synchronized void serve(final long epoch, final long lastSequence, final SequencerListener answers,
        final BooleanSupplier pause, final boolean setUp)
    {
        entry.serve(epoch, lastSequence, answers, pause, setUp);
    }

    private void onError(final Throwable error)
    {
        log.println("error on an appliance thread: " + error);
        error.printStackTrace(log);
    }

    /** Waits until the node takes requests (at once on a primary; after promotion on a standby). */
    public boolean awaitServing(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return entry.awaitServing(timeout, unit);
    }

    /** True once the node takes requests. */
    public boolean isServing()
    {
        return entry != null && entry.isServing();
    }

    /** The bound HTTP port, or -1 while the node does not serve (a standby before promotion) or has no HTTP lane. */
    public int httpPort()
    {
        final HttpLane http = entry == null ? null : entry.lanes().find(HttpLane.class);
        return http == null ? -1 : http.port();
    }

    /** The bound BSL TCP port, or -1 while the node does not serve or has no {@code bsl-tcp} lane. */
    public int bslTcpPort()
    {
        final BslTcpLane tcp = entry == null ? null : entry.lanes().find(BslTcpLane.class);
        return tcp == null ? -1 : tcp.port();
    }

    /** The bound FIX port, or -1 while the node does not serve or has no {@code fix} lane. */
    public int fixPort()
    {
        final FixLane fix = entry == null ? null : entry.lanes().find(FixLane.class);
        return fix == null ? -1 : fix.port();
    }

    public String baseUrl()
    {
        return (context.httpTls() == null ? "http://" : "https://") + context.httpHost() + ":" + httpPort();
    }

    public VenueDirectory directory()
    {
        return entry.models().directory();
    }

    /** The delegate signers the verifiers know of (a raw-mode signature by one costs one recovery). */
    public DelegateSigners delegates()
    {
        return entry.models().delegates();
    }

    /** The demo account's key file and address, or null outside the demo. */
    public Path demoAccountKeyFile()
    {
        return setUp.demoAccountKeyFile();
    }

    public Address demoAccount()
    {
        return setUp.demoAccount();
    }

    public Path operatorKeyFile()
    {
        return setUp.operatorKeyFile();
    }

    /**
     * What stopped the engine shard (a defect, an event journal it could not write), or null while it runs or
     * never ran.
     */
    public Throwable engineFailure()
    {
        return shard == null ? null : shard.failure();
    }

    /** The body of GET /api/v1/bsl/connectivity: where to connect (each lane) and what to bind signatures to. */
    public String connectivityJson()
    {
        return entry.connectivityJson();
    }

    /** The sequence of the last command the engine applied. */
    public long appliedSequence()
    {
        return shard.agent().appliedSequence();
    }

    @Override
    public synchronized void close()
    {
        // no new submits, but the ones taken are journaled, applied and answered on their connections; then the
        // threads stop and the state is written
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        if (entry != null)
        {
            entry.drainLanes();
            entry.awaitJournaled(deadline);
        }
        if (shard != null && threads.started())
        {
            shard.awaitApplied(journals.commands().lastSequence(), deadline);
        }
        if (entry != null && threads.started())
        {
            entry.awaitAnswered(Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)));
        }
        if (entry != null)
        {
            entry.closeLanes();
        }
        threads.closeAgents();
        if (shard != null)
        {
            shard.close();
        }
        CloseHelper.quietClose(roles);
        if (entry != null)
        {
            entry.close();
        }
        threads.closePretoucher();
        CloseHelper.quietClose(journals);
    }
}
