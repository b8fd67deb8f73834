package io.venue.bench.workload;

import io.venue.engine.Engine;
import io.venue.engine.JournalEventSink;
import io.venue.engine.PersistedEngine;
import io.venue.engine.ShardRecovery;
import io.venue.engine.state.EngineState;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.snapshot.SnapshotWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How long a shard takes to come back after a stop, on the exchange-core workload: the commands are journaled
 * and applied once (events journaled, the Chronicle Map state written, a snapshot every {@code snapshotEvery}
 * commands), then {@code ShardRecovery.recover} is timed three ways: with its state folder intact; with the
 * state folder lost and the snapshots there (the newest snapshot plus the journal's tail); and with both lost
 * (a replay of the whole command journal). Every recovery compares the events it replays with the journaled
 * ones. Files go to a temporary folder, deleted at the end.
 * <p>
 * Usage: {@code RecoveryTimeRun [commands] [snapshotEvery]}
 */
public final class RecoveryTimeRun
{
    private RecoveryTimeRun()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int commands = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
        final long snapshotEvery = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
        final Path folder = Files.createTempDirectory("recovery-time");
        final EngineState.Context context = new EngineState.Context().directory(folder.resolve("state"));
        try
        {
            final long writeStart = System.nanoTime();
            final long[] applied = {0};
            try (Journal commandJournal = Journal.open(folder.resolve("commands"));
                Journal eventJournal = Journal.open(folder.resolve("events"));
                PersistedEngine persisted = PersistedEngine.open(ExchangeCoreWorkload.config(),
                    new JournalEventSink(eventJournal.appender()), context))
            {
                final JournalAppender out = commandJournal.appender();
                final Engine engine = persisted.engine();
                ExchangeCoreWorkload.stream(2_000, commands, 42, (buffer, offset, length) ->
                {
                    out.append(buffer, offset, length);
                    engine.onCommand(buffer, offset, length);
                    if (++applied[0] % snapshotEvery == 0)
                    {
                        engine.flushState();
                        try
                        {
                            SnapshotWriter.write(persisted.state(), folder.resolve("snapshots"));
                        }
                        catch (final IOException ex)
                        {
                            throw new UncheckedIOException(ex);
                        }
                    }
                });
            }
            System.out.printf(Locale.ROOT, "journaled and applied %,d commands in %.1f s; %,d MiB of journals%n",
                applied[0], (System.nanoTime() - writeStart) / 1e9,
                (BenchFiles.size(folder.resolve("commands")) + BenchFiles.size(folder.resolve("events"))) >> 20);

            recover(folder, context, folder.resolve("snapshots"), "state intact");
            BenchFiles.delete(folder.resolve("state"));
            recover(folder, context, folder.resolve("snapshots"), "state lost, snapshots kept");
            BenchFiles.delete(folder.resolve("state"));
            recover(folder, context, null, "state lost, no snapshot");
        }
        finally
        {
            BenchFiles.delete(folder);
        }
    }

    private static void recover(final Path folder, final EngineState.Context context, final Path snapshots,
        final String title) throws Exception
    {
        final long start = System.nanoTime();
        final StringBuilder log = new StringBuilder();
        try (Journal commandJournal = Journal.open(folder.resolve("commands"));
            Journal eventJournal = Journal.open(folder.resolve("events")))
        {
            final ShardRecovery recovery = ShardRecovery.recover(ExchangeCoreWorkload.config(), context, snapshots,
                commandJournal, eventJournal, new ShardRecovery.Report()
                {
                    public void onStateRebuilt(final String reason)
                    {
                        log.append(reason).append("; ");
                    }

                    public void onUnreadable(final long index, final long sequence)
                    {
                        log.append("unreadable command at index ").append(index).append("; ");
                    }

                    public void onReplayed(final long replayed, final long matched, final long appended,
                        final long last)
                    {
                        log.append(String.format(Locale.ROOT,
                            "replayed %,d commands (%,d events matched, %,d appended) to %,d",
                            replayed, matched, appended, last));
                    }
                });
            final double seconds = (System.nanoTime() - start) / 1e9;
            recovery.engine().flushState();
            recovery.state().close();
            System.out.printf(Locale.ROOT, "%s: %.2f s. %s%n", title, seconds, log);
        }
    }

}
