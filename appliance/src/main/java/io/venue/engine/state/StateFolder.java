package io.venue.engine.state;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Judges a state folder against its meta page and the context, before any map is opened: Chronicle itself
 * rejects a truncated map file, but silently makes a new empty map where a file is missing or empty, and
 * cannot know which command its entries reflect.
 */
final class StateFolder
{
    private StateFolder()
    {
    }

    static Path metaFile(final Path directory)
    {
        return directory.resolve(StateMeta.FILE_NAME);
    }

    static File mapFile(final Path directory, final StoreFile store)
    {
        return directory.resolve(store.fileName()).toFile();
    }

    static boolean anyMapFileExists(final Path directory)
    {
        for (final StoreFile store : StoreFile.values())
        {
            if (mapFile(directory, store).exists())
            {
                return true;
            }
        }
        return false;
    }

    /** The verdict on a folder whose meta page is mapped. */
    static StateCheck inspect(final EngineState.Context context, final StateMeta meta)
    {
        if (meta.magic() != StateMeta.MAGIC)
        {
            return StateCheck.unusable(StateStatus.META_CORRUPT, "meta file has a wrong magic number");
        }
        if (meta.formatVersion() != StateMeta.FORMAT_VERSION)
        {
            return StateCheck.unusable(StateStatus.FORMAT_MISMATCH,
                "state format " + meta.formatVersion() + ", this build reads " + StateMeta.FORMAT_VERSION);
        }
        for (final StoreFile store : StoreFile.values())
        {
            if (meta.keySize(store) != store.keySize() || meta.valueSize(store) != store.valueSize())
            {
                return StateCheck.unusable(StateStatus.FORMAT_MISMATCH,
                    store + " records are " + meta.keySize(store) + "+" + meta.valueSize(store) +
                    " bytes, this build uses " + store.keySize() + "+" + store.valueSize());
            }
            if (meta.entries(store) != context.entries(store))
            {
                return StateCheck.unusable(StateStatus.CAPACITY_CHANGED,
                    store + " was made for " + meta.entries(store) + " entries, context asks " +
                    context.entries(store));
            }
            final File file = mapFile(context.directory(), store);
            if (!file.isFile() || file.length() == 0)
            {
                return StateCheck.unusable(StateStatus.MAP_FILE_MISSING, file + " is missing or empty");
            }
        }

        final boolean clean = meta.closedCleanly();
        if (!clean)
        {
            if (!HostBoot.isKnown() || meta.bootIdHigh() != HostBoot.high() || meta.bootIdLow() != HostBoot.low())
            {
                return StateCheck.unusable(StateStatus.UNCLEAN_AFTER_RESTART,
                    "state was not closed and the host boot is not the one it was opened in");
            }
            if (meta.pendingSequence() != StateMeta.NO_SEQUENCE)
            {
                return StateCheck.unusable(StateStatus.APPLY_INCOMPLETE,
                    "the process stopped while applying command " + meta.pendingSequence() +
                    " (applied up to " + meta.appliedSequence() + ")");
            }
        }
        for (final StoreFile store : StoreFile.values())
        {
            final long length = mapFile(context.directory(), store).length();
            final long recorded = meta.fileLength(store);
            // Chronicle may add tiers (growing the file) while open, so only a clean close pins the length.
            if (clean ? length != recorded : length < recorded)
            {
                return StateCheck.unusable(StateStatus.MAP_FILE_CORRUPT,
                    store.fileName() + " is " + length + " bytes, meta recorded " + recorded +
                    (clean ? " at a clean close" : ""));
            }
        }
        return new StateCheck(StateStatus.CONSISTENT,
            clean ? "closed cleanly" : "reopened after the process stopped between commands",
            meta.appliedSequence());
    }

    /** Flushes a map file's dirty pages to disk; the map must be closed or quiet. */
    static void fsync(final File file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file.toPath(), StandardOpenOption.WRITE))
        {
            channel.force(true);
        }
    }

    /** Deletes the state files this package owns, and nothing else in the folder. */
    static void deleteStateFiles(final Path directory) throws IOException
    {
        Files.deleteIfExists(metaFile(directory));
        for (final StoreFile store : StoreFile.values())
        {
            Files.deleteIfExists(mapFile(directory, store).toPath());
        }
    }
}
