package io.venue.engine;

import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;

import java.util.concurrent.atomic.AtomicLong;

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
    private final AtomicLong appliedSequence = new AtomicLong(-1);
    private final AtomicLong appliedIndex = new AtomicLong(-1);
    private final RecordHandler onRecord = this::onRecord;

    public EngineAgent(final Engine engine, final JournalTailer commands, final int batchLimit)
    {
        this.engine = engine;
        this.commands = commands;
        this.batchLimit = batchLimit;
    }

    @Override
    public int doWork()
    {
        final int read = commands.read(onRecord, batchLimit);
        if (0 == read)
        {
            // nothing waiting: bring the Chronicle Map state up to the last command while idle
            engine.flushState();
        }
        return read;
    }

    private void onRecord(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        engine.onCommand(buffer, offset, length);
        appliedIndex.lazySet(index);
        appliedSequence.lazySet(engine.lastSequence());
    }

    /** The sequence of the last command applied, readable from any thread; -1 before the first. */
    public long appliedSequence()
    {
        return appliedSequence.get();
    }

    /** The command journal index of the last record read, readable from any thread; -1 before the first. */
    public long appliedIndex()
    {
        return appliedIndex.get();
    }

    @Override
    public String roleName()
    {
        return "engine-shard-0";
    }
}
