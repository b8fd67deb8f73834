package io.venue.cli;

import io.venue.action.Address;
import io.venue.engine.EngineConfig;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * What a replayed engine must be given to produce the run's events again: the operator keys, and the matching
 * shards and admission group of the run (engine.shards, engine.group.commands in the appliance's configuration).
 */
final class EngineOptions
{
    @Option(names = "--operator", required = true, description = "An operator key of the run (0x address); repeat for several.")
    List<String> operators;

    @Option(names = "--shards", defaultValue = "1", description = "The run's engine.shards (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--group-commands", defaultValue = "64",
        description = "The run's engine.group.commands, with several shards (default: ${DEFAULT-VALUE}).")
    int groupCommands;

    EngineConfig config()
    {
        final EngineConfig config = new EngineConfig().shards(shards).groupCommands(groupCommands);
        operators.forEach(operator -> config.operator(Address.of(operator)));
        return config;
    }
}
