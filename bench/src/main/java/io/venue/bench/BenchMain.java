package io.venue.bench;

import io.venue.tuning.JvmFlags;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.stream.Stream;

/**
 * Runs JMH with the usual JMH command line, adding the appliance's JVM flags and its production flags
 * (tuning/jvm-flags.properties: Agrona's bounds checks off) to every forked benchmark JVM.
 */
public final class BenchMain
{
    private BenchMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final CommandLineOptions commandLine = new CommandLineOptions(args);
        final Options options = new OptionsBuilder()
            .parent(commandLine)
            .jvmArgsAppend(Stream.concat(JvmFlags.flags().stream(), JvmFlags.productionFlags().stream())
                .toArray(String[]::new))
            .build();
        new Runner(options).run();
    }
}
