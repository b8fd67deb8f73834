package io.venue.appliance;

import io.venue.transport.http.SvcNonceStore;
import net.openhft.chronicle.map.ChronicleMap;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Each API key's highest accepted SVC-Nonce in a Chronicle Map file of the node's data folder
 * ({@code lane/svc-nonces.dat}), written as each nonce is accepted: the file is memory-mapped, so a nonce survives the
 * process however it ends. A standby keeps its own file, which holds nothing of the primary's requests.
 */
final class SvcNonceFile implements SvcNonceStore, AutoCloseable
{
    /** Keys the file holds: far above the credentials a venue keeps (a key is a credential's id). */
    static final long KEYS = 100_000;

    private final ChronicleMap<String, Long> map;
    private final PrintStream log;
    private boolean fullReported;

    SvcNonceFile(final Path data, final PrintStream log) throws IOException
    {
        final Path folder = data.resolve("lane");
        Files.createDirectories(folder);
        final java.io.File file = folder.resolve("svc-nonces.dat").toFile();
        final var builder = ChronicleMap.of(String.class, Long.class).name("svc-nonces").entries(KEYS)
            .averageKey("spk_0123456789abcdef");
        ChronicleMap<String, Long> opened;
        if (file.exists() && !looksLikeAMap(file.toPath()))
        {
            // Chronicle waits a minute for a file it cannot read to be finished by another process: not for this one
            damaged(file, log, "not a Chronicle Map file");
        }
        try
        {
            opened = builder.createPersistedTo(file);
        }
        catch (final IOException | RuntimeException unreadable)
        {
            damaged(file, log, unreadable.toString());
            opened = builder.createPersistedTo(file);
        }
        this.map = opened;
        this.log = log;
    }

    /** A Chronicle Map file starts with its header, which names the map's class. */
    private static boolean looksLikeAMap(final Path file) throws IOException
    {
        final byte[] start = new byte[64];
        try (java.io.InputStream in = Files.newInputStream(file))
        {
            final int read = in.readNBytes(start, 0, start.length);
            return new String(start, 0, read, java.nio.charset.StandardCharsets.ISO_8859_1).contains(
                "net.openhft.chronicle.map.VanillaChronicleMap");
        }
    }

    private static void damaged(final java.io.File file, final PrintStream log, final String why) throws IOException
    {
        log.println("the SVC-Nonce file " + file + " could not be read (" + why + "): started empty; requests dated " +
            "before this start are refused all the same");
        Files.deleteIfExists(file.toPath());
    }

    @Override
    public void load(final java.util.function.ObjLongConsumer<String> into)
    {
        map.forEach((key, nonce) -> into.accept(key, nonce));
    }

    @Override
    public void put(final String apiKeyId, final long nonce)
    {
        try
        {
            map.put(apiKeyId, nonce);
        }
        catch (final RuntimeException full)
        {
            // the request was authenticated and goes on: only a restart's memory of this key is lost, said once
            if (!fullReported)
            {
                fullReported = true;
                log.println("the SVC-Nonce file cannot take key " + apiKeyId + " (" + full + "): its nonces are kept in " +
                    "memory only until the next restart");
            }
        }
    }

    @Override
    public void close()
    {
        map.close();
    }
}
