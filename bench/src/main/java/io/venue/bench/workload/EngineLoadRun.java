package io.venue.bench.workload;

import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.EventSink;
import io.venue.engine.PersistedEngine;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateUnusableException;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Runs the exchange-core-shaped workload through one engine thread: the throughput ceiling (as fast as
 * it goes) and latency at fixed rates, open loop, measured from each command's intended start time so
 * that a stall shows in every command queued behind it (no coordinated omission). Events go to a sink
 * that only counts them: this is the engine alone, without journal or network.
 * <p>
 * Usage: {@code EngineLoadRun [commands] [accounts] [rate,rate,...|none] [out.json] [state|state:N]}; with
 * {@code state} the engine writes through to its Chronicle Map state (a temporary folder, the state's default write
 * rule), with {@code state:N} a write every 1,000 commands or N changed records; {@code none}: no fixed-rate runs.
 */
public final class EngineLoadRun
{
    /** Runs counted after two warm-up runs that let the JIT settle. */
    private static final int THROUGHPUT_RUNS = 5;
    private static final int WARMUP_RUNS = 2;
    /** With the Chronicle Map state (a fresh temporary folder per run, the default write interval). */
    private static boolean withState;
    private static PersistedEngine persisted;
    private static int recordsPerFlush;

    private EngineLoadRun()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final int commands = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        final int accounts = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        // "none": the throughput runs only (the A/B against exchange-core, bench/results/peer-ab.sh)
        final String rateList = args.length > 2 ? args[2] : "100000,500000,1000000";
        final long[] rates = "none".equals(rateList) ? new long[0] :
            Arrays.stream(rateList.split(",")).mapToLong(Long::parseLong).toArray();
        final Path out = Path.of(args.length > 3 ? args[3] : "bench/results/engine-load.json");
        withState = args.length > 4 && args[4].startsWith("state");
        // "state:N": a write every 1,000 commands or N changed records (default: the state's own default)
        recordsPerFlush = args.length > 4 && args[4].startsWith("state:") ? Integer.parseInt(args[4].substring(6)) : 0;

        final long generateStart = System.nanoTime();
        final ExchangeCoreWorkload workload = ExchangeCoreWorkload.generate(accounts, commands, 42,
            ExchangeCoreWorkload.amendKeepsSizeAsked());
        System.out.printf(Locale.ROOT, "generated %,d commands (%,d setup) in %.1f s%n", workload.commands(),
            workload.setupCommands(), (System.nanoTime() - generateStart) / 1e9);
        System.out.println("measured mix: " + workload.mix());
        if (ExchangeCoreWorkload.amendKeepsSizeAsked())
        {
            System.out.println("the variant whose price amends keep the order's size (" +
                ExchangeCoreWorkload.AMEND_KEEPS_SIZE_PROPERTY + ")");
        }

        final List<String> json = new ArrayList<>();
        final double[] throughput = new double[THROUGHPUT_RUNS];
        long events = 0;
        for (int run = -WARMUP_RUNS; run < THROUGHPUT_RUNS; run++)
        {
            final CountingSink sink = new CountingSink();
            final Engine engine = engine(sink);
            final int start = applySetup(engine, workload);
            final long begin = System.nanoTime();
            int position = start;
            final DirectBuffer records = workload.records();
            while (position < workload.length())
            {
                final int length = records.getInt(position);
                engine.onCommand(records, position + 4, length);
                position += 4 + length;
            }
            // with several shards, the last commands are settled before the clock stops
            engine.drain();
            final long elapsed = System.nanoTime() - begin;
            closeState();
            engine.close();
            final double rate = (workload.commands() - workload.setupCommands()) / (elapsed / 1e9);
            events = sink.events;
            System.out.printf(Locale.ROOT,
                "throughput %s %d: %,.0f commands/s (%,d events, %,d open orders at the end)%n",
                run < 0 ? "warm-up" : "run", run < 0 ? run + WARMUP_RUNS + 1 : run + 1, rate, sink.events,
                engine.openOrders());
            if (run >= 0)
            {
                throughput[run] = rate;
            }
        }
        final double[] sorted = throughput.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "throughput median %,.0f commands/s (min %,.0f, max %,.0f)%n",
            sorted[THROUGHPUT_RUNS / 2], sorted[0], sorted[THROUGHPUT_RUNS - 1]);
        json.add(String.format(Locale.ROOT,
            "\"throughput\":{\"runs\":%s,\"medianCommandsPerSecond\":%.0f,\"eventsPerRun\":%d}",
            Arrays.toString(Arrays.stream(throughput).mapToLong(Math::round).toArray()),
            sorted[THROUGHPUT_RUNS / 2], events));

        final List<String> latencies = new ArrayList<>();
        for (final long rate : rates)
        {
            final Histogram histogram = fixedRate(workload, rate);
            System.out.printf(Locale.ROOT, "rate %,d/s: p50 %.2f us, p99 %.2f us, p99.9 %.2f us, max %.2f us%n", rate,
                histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                histogram.getValueAtPercentile(99.9) / 1e3, histogram.getMaxValue() / 1e3);
            latencies.add(String.format(Locale.ROOT,
                "{\"rate\":%d,\"p50Ns\":%d,\"p99Ns\":%d,\"p999Ns\":%d,\"maxNs\":%d,\"count\":%d}", rate,
                histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), histogram.getTotalCount()));
        }
        json.add("\"latency\":[" + String.join(",", latencies) + "]");
        json.add(String.format(Locale.ROOT,
            "\"workload\":{\"commands\":%d,\"setupCommands\":%d,\"accounts\":%d,\"mix\":\"%s\"}",
            workload.commands(), workload.setupCommands(), accounts, workload.mix()));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, "{" + String.join(",", json) + "}\n", StandardCharsets.UTF_8);
        System.out.println("wrote " + out);
    }

    /** One command at a time on a fixed schedule; latency = completion - intended start. */
    private static Histogram fixedRate(final ExchangeCoreWorkload workload, final long rate)
    {
        final Histogram histogram = new Histogram(3_600_000_000_000L, 3);
        final Engine engine = engine(new CountingSink());
        int position = applySetup(engine, workload);
        final DirectBuffer records = workload.records();
        final double intervalNs = 1e9 / rate;
        final long begin = System.nanoTime();
        long index = 0;
        while (position < workload.length())
        {
            final long intended = begin + (long)(index * intervalNs);
            while (System.nanoTime() < intended)
            {
                Thread.onSpinWait();
            }
            final int length = records.getInt(position);
            engine.onCommand(records, position + 4, length);
            // a command is done when it is settled (at once with one shard)
            engine.drain();
            histogram.recordValue(Math.max(0, System.nanoTime() - intended));
            position += 4 + length;
            index++;
        }
        closeState();
        engine.close();
        return histogram;
    }

    /**
     * The workload's configuration, with {@code -Dvenue.bench.shards=N} matching shards (default 1), whose threads
     * busy-spin with {@code -Dvenue.bench.shardSpin=true} (else the engine's default, parked until rung).
     */
    private static EngineConfig config()
    {
        final EngineConfig config = ExchangeCoreWorkload.config().shards(Integer.getInteger("venue.bench.shards", 1));
        if (Boolean.getBoolean("venue.bench.shardSpin"))
        {
            config.shardThreads(EngineConfig.UNPINNED_SHARD_THREADS, bell -> new BusySpinIdleStrategy());
        }
        return config;
    }

    /** An in-memory engine, or with {@code state} one writing through to Chronicle Maps in a fresh folder. */
    private static Engine engine(final EventSink sink)
    {
        if (!withState)
        {
            return new Engine(config(), sink);
        }
        try
        {
            final EngineState.Context context = new EngineState.Context()
                .directory(Files.createTempDirectory("engine-load-state"));
            if (recordsPerFlush > 0)
            {
                context.recordsPerFlush(recordsPerFlush);
            }
            persisted = PersistedEngine.open(config(), sink, context);
            return persisted.engine();
        }
        catch (final IOException | StateUnusableException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static void closeState()
    {
        if (null != persisted)
        {
            final Path folder = persisted.state().context().directory();
            persisted.close();
            persisted = null;
            try
            {
                BenchFiles.delete(folder);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /** Applies the workload's set-up commands (markets, accounts, funding): where its measured commands start. */
    static int applySetup(final Engine engine, final ExchangeCoreWorkload workload)
    {
        final DirectBuffer records = workload.records();
        int position = 0;
        for (int i = 0; i < workload.setupCommands(); i++)
        {
            final int length = records.getInt(position);
            engine.onCommand(records, position + 4, length);
            position += 4 + length;
        }
        return position;
    }

    private static final class CountingSink implements EventSink
    {
        long events;

        @Override
        public void onEvent(final DirectBuffer buffer, final int offset, final int length)
        {
            events++;
        }
    }
}
