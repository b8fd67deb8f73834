package io.venue.bench.machine;

import java.util.Arrays;
import java.util.Locale;

/**
 * How long this machine takes a spinning thread off its core, with none of the appliance running: the floor under
 * every latency tail measured here. Each of {@code threads} threads reads {@link System#nanoTime} in a tight loop
 * that allocates nothing and calls nothing else, and keeps every gap between two reads longer than
 * {@link #KEPT_GAP_NS}. A gap is time the thread was not running: the scheduler gave the core to something else
 * (a kernel worker, another process, the hypervisor), since the loop itself does no I/O and takes no lock.
 * <p>
 * What it prints for each thread: the count of gaps over 20 µs, 100 µs and 1 ms, the longest, and the share of
 * instants at which work arriving would have waited more than 20 µs, 50 µs or 2 ms for the thread
 * (the sum over gaps g of {@code max(0, g - threshold)}, divided by the run's length). Work that arrives at random
 * instants on a path through this thread has a p99 above the threshold whenever that share is over 1%, whatever
 * the path's code does; a path through two such threads (a primary and its standby, a verifier and a sequencer)
 * waits on either.
 * <p>
 * Usage: {@code MachineJitterRun [seconds] [threads,threads,...]}, e.g. {@code MachineJitterRun 20 1,2}: a run of
 * 20 s with one spinning thread, then one with two (on 2 cores: each core busy, as in the appliance's
 * production profile).
 */
public final class MachineJitterRun
{
    /** Gaps shorter than this are the loop's own turns and the clock's resolution, not time off the core. */
    static final long KEPT_GAP_NS = 10_000;
    private static final int MOST_GAPS = 4_000_000;
    private static final long[] THRESHOLDS_NS = {20_000, 50_000, 2_000_000};

    private MachineJitterRun()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final long seconds = args.length > 0 ? Long.parseLong(args[0]) : 20;
        final int[] threadCounts = Arrays.stream((args.length > 1 ? args[1] : "1,2").split(","))
            .mapToInt(Integer::parseInt).toArray();
        System.out.printf(Locale.ROOT, "%d cores, %d s per run%n", Runtime.getRuntime().availableProcessors(), seconds);
        // a short first run lets the JIT compile the loop, so that its compilation is not counted as the machine's
        run(1, 2, false);
        for (final int threads : threadCounts)
        {
            run(threads, seconds, true);
        }
    }

    private static void run(final int threads, final long seconds, final boolean report) throws InterruptedException
    {
        final Spinner[] spinners = new Spinner[threads];
        final long start = System.nanoTime() + 100_000_000L;
        final long end = start + seconds * 1_000_000_000L;
        final Thread[] running = new Thread[threads];
        for (int i = 0; i < threads; i++)
        {
            spinners[i] = new Spinner(start, end);
            running[i] = new Thread(spinners[i], "spinner-" + i);
            running[i].start();
        }
        for (final Thread thread : running)
        {
            thread.join();
        }
        if (!report)
        {
            return;
        }
        for (int i = 0; i < threads; i++)
        {
            final GapSummary summary = GapSummary.of(spinners[i].gaps, spinners[i].count, end - start, THRESHOLDS_NS);
            System.out.printf(Locale.ROOT, "%d spinning thread(s), thread %d: %s%n", threads, i, summary.describe());
        }
    }

    /** One spinning thread; touched only by its own thread until joined. */
    private static final class Spinner implements Runnable
    {
        final long[] gaps = new long[MOST_GAPS];
        int count;
        private final long start;
        private final long end;

        Spinner(final long start, final long end)
        {
            this.start = start;
            this.end = end;
        }

        @Override
        public void run()
        {
            // every thread starts measuring at the same instant, 100 ms after they were made
            long previous = System.nanoTime();
            while (previous < start)
            {
                previous = System.nanoTime();
            }
            final long[] kept = gaps;
            int n = 0;
            while (previous < end)
            {
                final long now = System.nanoTime();
                final long gap = now - previous;
                if (gap > KEPT_GAP_NS && n < kept.length)
                {
                    kept[n++] = gap;
                }
                previous = now;
            }
            count = n;
        }
    }
}
