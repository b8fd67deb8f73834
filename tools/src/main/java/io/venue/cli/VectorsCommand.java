package io.venue.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Writes the reference vectors, or checks that the published ones still match the code.
 */
@Command(name = "vectors", mixinStandardHelpOptions = true,
    description = "Regenerate the reference vectors (docs/vectors), or --check them for drift.")
final class VectorsCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", defaultValue = "docs/vectors",
        description = "Folder of the vector files (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--check", description = "Compare instead of writing; exit 1 if any file differs or is missing.")
    boolean check;

    @Override
    public Integer call() throws IOException
    {
        final Map<String, String> files = new ReferenceVectors().files();
        int drifted = 0;
        if (!check)
        {
            Files.createDirectories(dir);
        }
        for (final Map.Entry<String, String> file : files.entrySet())
        {
            final Path path = dir.resolve(file.getKey());
            if (check)
            {
                final String published = Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : null;
                if (!file.getValue().equals(published))
                {
                    spec.commandLine().getErr().println((published == null ? "missing " : "differs ") + path);
                    drifted++;
                }
            }
            else
            {
                Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
                spec.commandLine().getOut().println("wrote " + path);
            }
        }
        if (check)
        {
            spec.commandLine().getOut()
                .println(drifted == 0 ? "all " + files.size() + " vectors match" : drifted + " vectors drifted");
        }
        return drifted == 0 ? 0 : 1;
    }
}
