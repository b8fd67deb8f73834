package io.venue.engine;

import io.venue.codec.Hex;
import io.venue.engine.state.EngineState;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.testing.RecordFiles;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link ShardCrashTest}: recovers a shard from its folder, then plays sequencer and
 * engine for the commands of a source file that are not journaled yet (append 1 to 64 commands as one excerpt, then
 * apply them and write their events as one excerpt, as the appliance does) until the source ends or the parent kills
 * the process. Prints "RECOVERED ..." once recovery is done,
 * "ACK &lt;sequence&gt;" for every {@link #ACK_EVERY}th command once it is journaled, and
 * "DONE &lt;state hash&gt;" at the end.
 * <p>
 * Arguments: the shard folder, the source file (records as int length + bytes), and optionally the matching shards
 * (default 1; with several, groups of {@link #GROUP} commands).
 */
final class CrashingShard
{
    static final int ACK_EVERY = 500;
    static final int GROUP = 16;

    private CrashingShard()
    {
    }

    static EngineConfig config(final int shards)
    {
        return RandomStream.config().operator(EngineHarness.OPERATOR).shards(shards).groupCommands(GROUP);
    }

    static EngineState.Context stateContext(final Path folder)
    {
        return new EngineState.Context().directory(folder.resolve("state")).sizeFor(50_000, 10_000);
    }

    /** Appends the commands as one excerpt, acknowledges them, then applies them and has their events written. */
    private static void journalAndApply(final List<byte[]> batch, final JournalAppender commandOut, final Engine engine,
        final UnsafeBuffer view)
    {
        for (final byte[] record : batch)
        {
            view.wrap(record);
            commandOut.add(view, 0, record.length);
        }
        commandOut.commit();
        for (final byte[] record : batch)
        {
            view.wrap(record);
            final long sequence = JournalRecords.sequence(view, 0);
            if (sequence % ACK_EVERY == 0)
            {
                // the moment a client would be answered: the command is in the journal
                System.out.println("ACK " + sequence);
            }
        }
        for (final byte[] record : batch)
        {
            view.wrap(record);
            engine.onCommand(view, 0, record.length);
        }
        engine.flushEvents();
        batch.clear();
    }

    public static void main(final String[] args) throws Exception
    {
        final Path folder = Path.of(args[0]);
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final int shards = args.length > 2 ? Integer.parseInt(args[2]) : 1;
            commands.setAside().forEach(file -> System.out.println("SET ASIDE " + file));
            events.setAside().forEach(file -> System.out.println("SET ASIDE " + file));
            final ShardRecovery recovery = ShardRecovery.recover(config(shards), stateContext(folder), commands, events,
                new ShardRecovery.Report()
                {
                    public void onStateRebuilt(final String reason)
                    {
                        System.out.println("REBUILT " + reason.replace('\n', ' '));
                    }

                    public void onUnreadable(final long index, final long sequence)
                    {
                        System.out.println("UNREADABLE " + index + " " + sequence);
                    }

                    public void onReplayed(final long replayed, final long matched, final long appended,
                        final long last)
                    {
                        System.out.println("RECOVERED " + replayed + " " + matched + " " + appended + " " + last);
                    }
                });
            System.out.flush();
            final Engine engine = recovery.engine();
            final long journaled = engine.lastSequence();
            final JournalAppender commandOut = commands.appender();
            final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
            final List<byte[]> batch = new ArrayList<>();
            int batchSize = 0;
            for (final byte[] record : RecordFiles.read(Path.of(args[1])))
            {
                view.wrap(record);
                if (JournalRecords.sequence(view, 0) <= journaled)
                {
                    continue;
                }
                if (batch.isEmpty())
                {
                    // excerpts of 1 to 64 commands, as a sequencer stages what is ready in one duty cycle
                    batchSize = 1 + (int)(JournalRecords.sequence(view, 0) * 7919 % 64);
                }
                batch.add(record);
                if (batch.size() == batchSize)
                {
                    journalAndApply(batch, commandOut, engine, view);
                }
            }
            journalAndApply(batch, commandOut, engine, view);
            System.out.println("DONE " + Hex.to0x(engine.stateHash()));
            engine.close();
            recovery.state().close();
        }
    }
}
