package io.venue.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where snapshots live: {@code snapshot-<sequence, 20 digits>.sbe} in one folder, written under a
 * {@code .partial} name and renamed when complete, so a finished name is a finished file.
 */
public final class SnapshotFiles
{
    static final String PREFIX = "snapshot-";
    static final String SUFFIX = ".sbe";
    static final String PARTIAL = ".partial";

    private SnapshotFiles()
    {
    }

    static Path fileFor(final Path directory, final long sequence)
    {
        return directory.resolve(String.format("%s%020d%s", PREFIX, sequence, SUFFIX));
    }

    /** The sequence a snapshot file is named for, or -1 for any other name. */
    public static long sequenceOf(final Path file)
    {
        final String name = file.getFileName().toString();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX) ||
            name.length() != PREFIX.length() + 20 + SUFFIX.length())
        {
            return -1;
        }
        try
        {
            return Long.parseLong(name.substring(PREFIX.length(), PREFIX.length() + 20));
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /** The finished snapshots of a folder, newest first (none for a folder that does not exist). */
    public static List<Path> newestFirst(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory))
        {
            final List<Path> found = new ArrayList<>(files.filter(f -> sequenceOf(f) >= 0).toList());
            found.sort(Comparator.comparingLong(SnapshotFiles::sequenceOf).reversed());
            return found;
        }
    }

    /** Deletes all but the newest {@code keep} finished snapshots, and any partial file left by a crash. */
    public static void prune(final Path directory, final int keep) throws IOException
    {
        final List<Path> snapshots = newestFirst(directory);
        for (int i = keep; i < snapshots.size(); i++)
        {
            Files.deleteIfExists(snapshots.get(i));
        }
        try (Stream<Path> files = Files.list(directory))
        {
            for (final Path partial : files.filter(f -> f.getFileName().toString().endsWith(PARTIAL)).toList())
            {
                Files.deleteIfExists(partial);
            }
        }
    }
}
