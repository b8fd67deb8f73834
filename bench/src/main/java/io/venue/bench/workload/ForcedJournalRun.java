package io.venue.bench.workload;

import io.venue.action.Address;
import io.venue.entry.PreJournalRefusals;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalForce;
import io.venue.sequencer.Sequencer;
import io.venue.sequencer.SequencerListener;
import io.venue.verifier.VerifierPool;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code journal.force=group} costs: the real {@link Sequencer} over a real command journal in a temporary folder,
 * fed records by a producer thread (refusals of the edge, journaled as {@code RequestRejected} records of about 170
 * bytes, so that no signature is verified and the sequencer and its journal are all that is measured), with
 * {@link JournalForce#NONE} and {@link JournalForce#GROUP} in turns (A B A B). Two runs a mode and round: the most it
 * takes (the producer keeps up to 8,192 records unanswered), and a fixed rate, open loop, where each record's time is
 * from its intended offer to the listener being told (the moment a client may be answered; a stall counts against
 * every record behind it).
 * <p>
 * Usage: {@code ForcedJournalRun [commands] [rate] [rounds] [folder]}.
 */
public final class ForcedJournalRun
{
    private static final int WINDOW = 8_192;
    private static final int BATCH = 64;

    private ForcedJournalRun()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int commands = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        final long rate = args.length > 1 ? Long.parseLong(args[1]) : 20_000;
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        final Path parent = args.length > 3 ? Path.of(args[3]) : Path.of(System.getProperty("java.io.tmpdir"));
        System.out.printf(Locale.ROOT, "%,d records a run, fixed rate %,d/s, %d rounds, journals under %s%n", commands,
            rate, rounds, parent);
        final List<List<double[]>> results = List.of(new ArrayList<>(), new ArrayList<>());
        final JournalForce[] modes = {JournalForce.NONE, JournalForce.GROUP};
        for (int round = 1; round <= rounds; round++)
        {
            for (int m = 0; m < modes.length; m++)
            {
                final double[] most = run(parent, modes[m], commands, 0);
                final double[] fixed = run(parent, modes[m], commands, rate);
                System.out.printf(Locale.ROOT, "round %d %-5s most %,9.0f/s (%,6.0f forces, %5.1f records a force)",
                    round, modes[m], most[0], most[1], most[2]);
                System.out.printf(Locale.ROOT,
                    " | at %,d/s: p50 %,8.1f µs, p99 %,9.1f µs, p99.9 %,9.1f µs, max %,9.1f µs%n",
                    rate, fixed[3], fixed[4], fixed[5], fixed[6]);
                results.get(m).add(new double[] {most[0], fixed[3], fixed[4], fixed[5]});
            }
        }
        final String[] names = {"most/s", "p50 µs", "p99 µs", "p99.9 µs"};
        for (int m = 0; m < modes.length; m++)
        {
            final StringBuilder line = new StringBuilder(
                String.format(Locale.ROOT, "median (min–max) %-5s", modes[m]));
            for (int k = 0; k < names.length; k++)
            {
                final int column = k;
                final double[] values = results.get(m).stream().mapToDouble(r -> r[column]).sorted().toArray();
                line.append(String.format(Locale.ROOT, " | %s %,.1f (%,.1f–%,.1f)", names[k], median(values),
                    values[0], values[values.length - 1]));
            }
            System.out.println(line);
        }
    }

    private static double median(final double[] sorted)
    {
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * One run on a fresh journal; {@code rate} 0 for the most it takes. Returns records a second, forces, records a
     * force, then the told latency's p50, p99, p99.9 and max in µs (open loop, at a fixed rate only).
     */
    private static double[] run(final Path parent, final JournalForce mode, final int commands, final long rate)
        throws Exception
    {
        final Path folder = Files.createTempDirectory(parent, "forced-journal-");
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final AtomicLong told = new AtomicLong();
        final SequencerListener listener = new SequencerListener()
        {
            @Override
            public void onSequenced(final long connection, final long correlation, final long sequence,
                final long index)
            {
                onTold(correlation);
            }

            @Override
            public void onRejected(final long connection, final long correlation, final long sequence, final long index)
            {
                onTold(correlation);
            }

            private void onTold(final long intendedNanos)
            {
                latency.recordValue(Math.max(0, System.nanoTime() - intendedNanos));
                told.lazySet(told.get() + 1);
            }
        };
        try (Journal journal = Journal.open(folder.resolve("commands"));
            VerifierPool pool = VerifierPool.start(new VerifierPool.Context().threads(1).chainId(8453)
                // the pool gets no request here: its thread sleeps, leaving the cores to the producer and the sequencer
                .idleStrategy(bell -> new SleepingMillisIdleStrategy(1))
                .verifyingContract(Address.of("0x" + "5e".repeat(20)))))
        {
            final PreJournalRefusals refusals = new PreJournalRefusals(64 << 20);
            final Sequencer sequencer = new Sequencer(pool, journal.appender(), SystemEpochClock.INSTANCE, listener, 1,
                0, BATCH).refusals(refusals).forces(mode);
            final String detail = "edge throttle: " + "x".repeat(40);
            final Thread producer = new Thread(() ->
            {
                final long interval = rate == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) / rate;
                final long start = System.nanoTime();
                for (int i = 0; i < commands; i++)
                {
                    final long intended = rate == 0 ? System.nanoTime() : start + i * interval;
                    while (System.nanoTime() < intended || i - told.get() >= WINDOW)
                    {
                        Thread.onSpinWait();
                    }
                    refusals.offer(1, rate == 0 ? System.nanoTime() : intended, 4, detail);
                }
            }, "producer");
            final long started = System.nanoTime();
            producer.start();
            while (told.get() < commands)
            {
                if (sequencer.doWork() == 0)
                {
                    Thread.yield();
                }
            }
            final long elapsed = System.nanoTime() - started;
            producer.join();
            if (refusals.notJournaled() != 0)
            {
                throw new IllegalStateException(refusals.notJournaled() + " records dropped by a full ring");
            }
            final double forces = sequencer.forces();
            return new double[] {commands * 1e9 / elapsed, forces, forces == 0 ? 0 : commands / forces,
                latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
                latency.getValueAtPercentile(99.9) / 1e3, latency.getMaxValue() / 1e3};
        }
        finally
        {
            deleteTree(folder);
        }
    }

    private static void deleteTree(final Path folder) throws Exception
    {
        try (var paths = Files.walk(folder))
        {
            final Path[] all = paths.sorted().toArray(Path[]::new);
            Arrays.sort(all, (a, b) -> b.getNameCount() - a.getNameCount());
            for (final Path path : all)
            {
                Files.deleteIfExists(path);
            }
        }
    }
}
