package io.venue.engine.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A look at a Chronicle Map file before Chronicle opens it: Chronicle waits a minute for a file whose header it cannot
 * read, as if another process were still making it, then fails. A file made by a process of ours that is gone will
 * never be finished, so a damaged header is told at once instead.
 */
public final class ChronicleMapFile
{
    private ChronicleMapFile()
    {
    }

    /** True when the file starts with Chronicle Map's header (the serialized map class names it). */
    public static boolean looksLikeAMap(final Path file) throws IOException
    {
        final byte[] start = new byte[64];
        try (InputStream in = Files.newInputStream(file))
        {
            final int read = in.readNBytes(start, 0, start.length);
            return new String(start, 0, read, StandardCharsets.ISO_8859_1)
                .contains("net.openhft.chronicle.map.VanillaChronicleMap");
        }
    }
}
