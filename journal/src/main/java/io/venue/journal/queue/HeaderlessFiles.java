package io.venue.journal.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the cycle files a writer made and died before giving their header. Chronicle makes a cycle file, then claims
 * its first word as "not complete" and writes the header: a file whose first word is still 0 or "not complete" when
 * no writer is alive holds no excerpt (excerpts follow the header), but Chronicle would wait for its header on every
 * touch and not write that cycle. Such a file is renamed {@code *.cq4.headerless}, kept for whoever looks into it.
 * Call only while holding the folder's {@link WriterLock} as its first holder: a live writer's file is never touched.
 */
final class HeaderlessFiles
{
    static final String SUFFIX = ".headerless";
    /** Chronicle's header bit of a message still being written. */
    private static final int NOT_COMPLETE = 0x8000_0000;

    private HeaderlessFiles()
    {
    }

    static List<Path> setAside(final Path folder)
    {
        final List<Path> moved = new ArrayList<>();
        try (DirectoryStream<Path> cycles = Files.newDirectoryStream(folder, "*.cq4"))
        {
            for (final Path cycle : cycles)
            {
                if (!hasHeader(cycle))
                {
                    final Path aside = cycle.resolveSibling(cycle.getFileName() + SUFFIX);
                    Files.move(cycle, aside, StandardCopyOption.REPLACE_EXISTING);
                    moved.add(aside);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        moved.sort(null);
        return List.copyOf(moved);
    }

    private static boolean hasHeader(final Path cycle) throws IOException
    {
        try (FileChannel channel = FileChannel.open(cycle, StandardOpenOption.READ))
        {
            final ByteBuffer first = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            while (first.hasRemaining() && channel.read(first, first.position()) > 0)
            {
                // a short read: read on
            }
            final int header = first.hasRemaining() ? 0 : first.getInt(0);
            return header != 0 && (header & NOT_COMPLETE) == 0;
        }
    }
}
