package io.venue.cli;

import io.venue.action.Address;
import io.venue.appliance.ApplianceConfigFile;
import io.venue.engine.EngineConfig;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What a replayed engine must be given to produce the run's events again: the run's configuration file (its
 * operators, limits, shards and cross-shard credit settings), or, for a run on the defaults, its operator keys and
 * its matching shards and admission group.
 */
final class EngineOptions
{
    @Option(names = "--config",
        description = "The run's configuration file: the engine configuration is read from it " +
        "(operators, limits.*, engine.*, mm.cross.shard.credit.*); the options below are then not taken.")
    Path config;

    @Option(names = "--operator",
        description = "An operator key of the run (0x address); repeat for several. Needed without --config.")
    List<String> operators;

    @Option(names = "--shards", defaultValue = "1",
        description = "The run's engine.shards (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--group-commands", defaultValue = "64",
        description = "The run's engine.group.commands, with several shards (default: ${DEFAULT-VALUE}).")
    int groupCommands;

    EngineConfig config() throws IOException
    {
        if (config != null)
        {
            // the node's core layout is not this machine's: the replay's shard threads are not pinned
            return ApplianceConfigFile.read(config).engineConfig()
                .shardThreads(EngineConfig.UNPINNED_SHARD_THREADS, EngineConfig.PARKED_SHARD_IDLE);
        }
        if (operators == null || operators.isEmpty())
        {
            throw new IllegalArgumentException("give the run's --config file, or its --operator keys");
        }
        final EngineConfig engine = new EngineConfig().shards(shards).groupCommands(groupCommands);
        operators.forEach(operator -> engine.operator(Address.of(operator)));
        return engine;
    }
}
