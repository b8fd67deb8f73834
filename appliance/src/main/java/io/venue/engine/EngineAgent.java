package io.venue.engine;

import io.venue.engine.state.EngineState;
import io.venue.journal.queue.JournalTailer;
import io.venue.snapshot.SnapshotFiles;
import io.venue.snapshot.SnapshotWriter;
import io.venue.tuning.Doorbell;
import io.venue.journal.queue.RecordHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The duty cycle of one engine shard: tail the command journal and apply each record, in order; the
 * engine's sink (usually the event journal's appender) takes the events. Run it with an Agrona
 * {@code AgentRunner} on its own thread — pinned to a core in production (io.venue.tuning.PinnedThreads).
 * Other threads see its progress through {@link #appliedSequence()}.
 */
public final class EngineAgent implements Agent
{
    private final Engine engine;
    private final JournalTailer commands;
    private final int batchLimit;
    private final AtomicLong appliedSequence;
    private final AtomicLong protectionDeadline;
    private final int sessionsAtStart;
    private final RecordHandler onRecord = this::onRecord;
    private volatile Throwable failure;
    /** Commands read in the current duty cycle. */
    private int readInBatch;
    private EngineState snapshotState;
    private Path snapshotDirectory;
    private long snapshotEvery;
    private int snapshotsKept;
    private long commandsAtSnapshot;
    /** Rung after each batch; a plain array, written before the agent starts, read on its thread. */
    private Doorbell[] eventReaders = new Doorbell[0];
    private final AtomicLong snapshotsWritten = new AtomicLong();
    private final AtomicReference<String> lastSnapshotFailure = new AtomicReference<>();

    public EngineAgent(final Engine engine, final JournalTailer commands, final int batchLimit)
    {
        this.engine = engine;
        this.commands = commands;
        this.batchLimit = batchLimit;
        // a recovered engine has applied its journal up to here already
        this.appliedSequence = new AtomicLong(engine.lastSequence());
        this.protectionDeadline = new AtomicLong(engine.nextProtectionDeadline());
        this.sessionsAtStart = engine.openSessions();
    }

    /** Sessions the engine held open when this agent was made (after recovery): a start must close them. */
    public int sessionsAtStart()
    {
        return sessionsAtStart;
    }

    /**
     * The earliest protection deadline the engine holds, as of the last batch it applied (a lower bound;
     * {@code Long.MAX_VALUE} for none): the sequencer journals a {@code ProtectionTick} once its clock reaches it.
     * Readable from any thread.
     */
    public long protectionDeadline()
    {
        return protectionDeadline.get();
    }

    /**
     * Applies the commands waiting, whole excerpts until at least {@code batchLimit} commands, then has the sink write
     * their events (one excerpt for the batch when the sink holds them) before it tells other threads: a command counts
     * as applied once its events are in the journal.
     */
    @Override
    public int doWork()
    {
        if (null != failure)
        {
            return 0;
        }
        readInBatch = 0;
        try
        {
            while (readInBatch < batchLimit && commands.read(onRecord))
            {
                // whole excerpts: a batch ends between two of them
            }
            if (0 == readInBatch)
            {
                // nothing waiting: bring the Chronicle Map state up to the last command while idle
                engine.flushState();
                return 0;
            }
            engine.flushEvents();
        }
        catch (final Throwable ex)
        {
            // a defect in the engine (its state may hold half a command) or a journal it cannot write (the batch's
            // events are lost with the write): stop here, writing nothing more, neither events nor state, so that a
            // restart replays from what is written
            failure = ex;
            throw ex;
        }
        protectionDeadline.lazySet(engine.nextProtectionDeadline());
        appliedSequence.lazySet(engine.lastSequence());
        for (final Doorbell reader : eventReaders)
        {
            reader.ring();
        }
        return readInBatch;
    }

    /**
     * Rings {@code eventReader} (the bell of a thread that reads the event journal: the responder's, the market
     * feed's) after each batch applied; each call adds one. Before the agent starts.
     */
    public EngineAgent wakes(final Doorbell eventReader)
    {
        eventReaders = Arrays.copyOf(eventReaders, eventReaders.length + 1);
        eventReaders[eventReaders.length - 1] = eventReader;
        return this;
    }

    /**
     * Writes a snapshot of {@code state} (the engine's own, from {@code ShardRecovery} or {@code PersistedEngine})
     * into {@code directory} after every {@code everyCommands} commands, keeping the newest {@code keep}. Each is
     * a pause of this shard while every map entry is copied out: run it on a standby, or size the interval for
     * the pause. A failed write is counted and kept in {@link #lastSnapshotFailure()}; the shard goes on.
     */
    public EngineAgent snapshots(final EngineState state, final Path directory,
        final long everyCommands, final int keep)
    {
        if (everyCommands < 1 || keep < 1)
        {
            throw new IllegalArgumentException("everyCommands and keep must be positive");
        }
        snapshotState = state;
        snapshotDirectory = directory;
        snapshotEvery = everyCommands;
        snapshotsKept = keep;
        commandsAtSnapshot = engine.commandCount();
        return this;
    }

    private void onRecord(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        engine.onCommand(buffer, offset, length);
        readInBatch++;
        if (null != snapshotDirectory && engine.commandCount() - commandsAtSnapshot >= snapshotEvery)
        {
            snapshot();
        }
    }

    private void snapshot()
    {
        commandsAtSnapshot = engine.commandCount();
        engine.flushState();
        try
        {
            SnapshotWriter.write(snapshotState, snapshotDirectory);
            SnapshotFiles.prune(snapshotDirectory, snapshotsKept);
            snapshotsWritten.incrementAndGet();
        }
        catch (final IOException | RuntimeException ex)
        {
            lastSnapshotFailure.set(ex.toString());
        }
    }

    /**
     * What stopped this shard, or null while it runs: after an exception out of the engine, or an event journal it
     * could not write, it applies nothing more and its engine's state must not be written ({@code Engine.flushState});
     * a restart recovers from the journals.
     */
    public Throwable failure()
    {
        return failure;
    }

    /** Snapshots written by this agent. */
    public long snapshotsWritten()
    {
        return snapshotsWritten.get();
    }

    /** What the last failed snapshot write said, or null. */
    public String lastSnapshotFailure()
    {
        return lastSnapshotFailure.get();
    }

    /**
     * The sequence of the last command applied (by recovery or by this agent), readable from any thread; 0 before
     * the first.
     */
    public long appliedSequence()
    {
        return appliedSequence.get();
    }

    @Override
    public String roleName()
    {
        return "engine-shard-0";
    }
}
