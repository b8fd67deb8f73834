package io.venue.appliance;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Small files of the data folder written so that a crash leaves the old content or the new, whole and on the disk. */
final class DurableFiles
{
    private DurableFiles()
    {
    }

    /** Writes a small file whole or not at all: a temporary file, flushed, moved over it, the folder flushed. */
    static void replace(final Path target, final String content) throws IOException
    {
        final Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(temporary, content);
        force(temporary);
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceFolder(target.toAbsolutePath().getParent());
    }

    static void force(final Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE))
        {
            channel.force(true);
        }
    }

    static void forceFolder(final Path folder) throws IOException
    {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ))
        {
            channel.force(true);
        }
    }
}
