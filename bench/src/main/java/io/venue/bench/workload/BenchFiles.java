package io.venue.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The load runs' temporary folders: how much they hold, and removing them. */
public final class BenchFiles
{
    private BenchFiles()
    {
    }

    /** The bytes of every file below {@code folder}. */
    public static long size(final Path folder) throws IOException
    {
        try (Stream<Path> paths = Files.walk(folder))
        {
            long total = 0;
            for (final Path path : paths.filter(Files::isRegularFile).toList())
            {
                total += Files.size(path);
            }
            return total;
        }
    }

    /** Deletes {@code folder} and everything below it; nothing when it does not exist. */
    public static void delete(final Path folder) throws IOException
    {
        if (!Files.exists(folder))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
    }
}
