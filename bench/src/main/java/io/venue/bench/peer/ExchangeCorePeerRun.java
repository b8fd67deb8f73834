package io.venue.bench.peer;

import io.venue.bench.workload.BenchFiles;
import io.venue.bench.workload.EngineLoadRun;
import io.venue.bench.workload.ExchangeCoreWorkload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * exchange-core 0.5.3 driven through its public API with the command stream {@link EngineLoadRun} gives our engine
 * (same seed, accounts and mix, translated by {@link PeerStream}), measured the way exchange-core's own throughput
 * tests measure it: the commands prepared beforehand, published to its ring one after another from this thread, the
 * clock stopped when the last one's result is back. After every run its order book (an L2 request of every level)
 * and the number of commands it refused must equal {@link PeerBookModel}'s, or the run fails.
 * <p>
 * Usage: {@code ExchangeCorePeerRun [commands] [accounts] [config] [runs]}: commands and accounts as for
 * EngineLoadRun (2,000,000 and 2,000), the configuration as {@link PeerConfig} names it ({@code latency} by default),
 * runs counted after two warm-up runs (5). Prints in EngineLoadRun's words, so that a script can put the two side by
 * side.
 */
public final class ExchangeCorePeerRun
{
    private static final int WARMUP_RUNS = 2;

    private ExchangeCorePeerRun()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final int commands = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        final int accounts = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        final PeerConfig config = PeerConfig.parse(args.length > 2 ? args[2] : "latency");
        final int runs = args.length > 3 ? Integer.parseInt(args[3]) : 5;

        final long generateStart = System.nanoTime();
        final ExchangeCoreWorkload workload = ExchangeCoreWorkload.generate(accounts, commands, 42,
            ExchangeCoreWorkload.amendKeepsSizeAsked());
        final PeerStream stream = PeerStream.translate(workload);
        System.out.printf(Locale.ROOT, "generated %,d commands (%,d setup) in %.1f s%n", workload.commands(),
            workload.setupCommands(), (System.nanoTime() - generateStart) / 1e9);
        System.out.println("measured mix: " + workload.mix());
        if (ExchangeCoreWorkload.amendKeepsSizeAsked())
        {
            System.out.println("the variant whose price amends keep the order's size (" +
                ExchangeCoreWorkload.AMEND_KEEPS_SIZE_PROPERTY + ")");
        }
        System.out.println("as exchange-core commands: " + stream.mix());
        System.out.println("exchange-core " + config.describe());

        final double[] throughput = new double[runs];
        for (int run = -WARMUP_RUNS; run < runs; run++)
        {
            final PeerResult result = run(stream, config, "peer" + (run + WARMUP_RUNS));
            System.out.printf(Locale.ROOT, "throughput %s %d: %,.0f commands/s (%,d refused as the model says, %,d " +
                "open orders in %,d levels at the end, equal to the model's%s)%n", run < 0 ? "warm-up" : "run",
                run < 0 ? run + WARMUP_RUNS + 1 : run + 1, result.rate(), result.refused(), result.book().orders(),
                result.book().levels(), config.journal() ?
                String.format(Locale.ROOT, "; %,d MiB of journal", result.journalBytes() >> 20) : "");
            if (run >= 0)
            {
                throughput[run] = result.rate();
            }
        }
        final double[] sorted = throughput.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "throughput median %,.0f commands/s (min %,.0f, max %,.0f)%n",
            sorted[runs / 2], sorted[0], sorted[runs - 1]);
    }

    /** One run on a fresh exchange-core, checked against the model; throws if its book or refusals differ. */
    static PeerResult run(final PeerStream stream, final PeerConfig config, final String exchangeId)
        throws IOException
    {
        final Path folder = Files.createTempDirectory("exchange-core-peer");
        try (PeerExchange exchange = new PeerExchange(config.build(folder, exchangeId)))
        {
            exchange.setUp(stream);
            final long begin = System.nanoTime();
            exchange.submit(stream.measured());
            final long elapsed = System.nanoTime() - begin;
            final long refused = exchange.awaitResults(stream.measured().size());
            final BookLevels book = exchange.book();
            final String difference = book.differenceFrom(stream.expectedBook());
            if (null != difference)
            {
                throw new IllegalStateException(
                    "exchange-core's book (here) is not the model's (there): " + difference);
            }
            if (refused != stream.expectedRefusals())
            {
                throw new IllegalStateException("exchange-core refused " + refused + " commands, the model " +
                    stream.expectedRefusals());
            }
            return new PeerResult(stream.measured().size() / (elapsed / 1e9), refused, book, BenchFiles.size(folder));
        }
        finally
        {
            BenchFiles.delete(folder);
        }
    }

    /** A checked run: commands a second, commands refused, the final book, bytes of journal written. */
    record PeerResult(double rate, long refused, BookLevels book, long journalBytes)
    {
    }
}
