package io.venue.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The command-line client of the venue: keys, signed actions, machine request headers and the reference
 * vectors.
 */
@Command(
    name = "venue",
    mixinStandardHelpOptions = true,
    version = "venue 0.1.0",
    description = "Client and operator tools for the matching appliance.",
    subcommands = {
        KeygenCommand.class,
        SignCommand.class,
        AgentCommand.class,
        TokenCommand.class,
        MmCommand.class,
        BslCommand.class,
        VerifyCommand.class,
        SvcSignCommand.class,
        VectorsCommand.class,
        JournalCommand.class,
        LoadgenCommand.class,
        WsFanoutCommand.class,
        CommandLine.HelpCommand.class,
    })
public final class VenueCli
{
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /** Runs a command line and returns the exit code; tests call this directly. */
    public static int run(final String... args)
    {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** Runs a command line writing to the given streams. */
    public static int run(final PrintWriter out, final PrintWriter err, final String... args)
    {
        return new CommandLine(new VenueCli())
            .setOut(out)
            .setErr(err)
            .setExecutionExceptionHandler((ex, commandLine, parseResult) ->
            {
                // a bad value (hex, number, enum) is the user's mistake: say what, no stack trace
                commandLine.getErr().println("error: " + ex.getMessage());
                return 2;
            })
            .execute(args);
    }
}
