package io.venue.appliance;

import io.venue.transport.http.SvcNonceStore;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Each API key's highest accepted SVC-Nonce in a Chronicle Map file of the node's data folder
 * ({@code lane/svc-nonces.dat}), written as each nonce is accepted. The file is memory-mapped, so what a killed process
 * wrote is in it; a process that died in the middle of a write may have left a segment locked, so a start after an end
 * that was not a clean close (no {@code svc-nonces.closed} marker) opens the file through Chronicle's recovery, which
 * frees such locks. A host that crashes may lose the writes not yet flushed: the lane's refusal of requests dated before
 * its start (a reboot takes longer than the 30 s skew) covers those. A standby keeps its own file, which holds nothing
 * of the primary's requests.
 */
final class SvcNonceFile implements SvcNonceStore, AutoCloseable
{
    private final ChronicleMap<String, Long> map;
    private final Path closedMarker;
    private final PrintStream log;
    private boolean fullReported;

    /** @param keys the keys the file holds: the venue's credential capacity (a key is a credential's id). */
    SvcNonceFile(final Path data, final long keys, final PrintStream log) throws IOException
    {
        final Path folder = data.resolve("lane");
        Files.createDirectories(folder);
        final File file = folder.resolve("svc-nonces.dat").toFile();
        closedMarker = folder.resolve("svc-nonces.closed");
        this.log = log;
        final ChronicleMapBuilder<String, Long> builder = ChronicleMap.of(String.class, Long.class).name("svc-nonces")
            .entries(Math.max(1_024, keys)).averageKey("spk_0123456789abcdef");
        final boolean closedCleanly = Files.deleteIfExists(closedMarker);
        ChronicleMap<String, Long> opened = null;
        if (file.exists() && !looksLikeAMap(file.toPath()))
        {
            // Chronicle waits a minute for a file it cannot read to be finished by another process: not for this one
            damaged(file, "not a Chronicle Map file");
        }
        try
        {
            opened = file.exists() && !closedCleanly ? builder.recoverPersistedTo(file, false) : builder.createPersistedTo(file);
            opened.forEach((key, nonce) -> { }); // every entry readable, before the lane depends on it
        }
        catch (final IOException | RuntimeException unreadable)
        {
            if (opened != null)
            {
                opened.close();
            }
            damaged(file, unreadable.toString());
            opened = builder.createPersistedTo(file);
        }
        this.map = opened;
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

    private void damaged(final File file, final String why) throws IOException
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
        try
        {
            Files.createFile(closedMarker);
        }
        catch (final IOException unwritable)
        {
            log.println("the SVC-Nonce file's close marker could not be written (" + unwritable + "): the next start " +
                "recovers the file");
        }
    }
}
