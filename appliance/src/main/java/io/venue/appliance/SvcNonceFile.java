package io.venue.appliance;

import io.venue.transport.http.SvcNonceStore;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Each API key's highest accepted SVC-Nonce in a Chronicle Map file of the node's data folder
 * ({@code lane/svc-nonces.dat}), written as each nonce is accepted. The file is memory-mapped, so what a killed process
 * wrote is in it; a process that died in the middle of a write may have left a segment locked, so a start after an end
 * that was not a clean close (no {@code svc-nonces.closed} marker) opens the file through Chronicle's recovery, which
 * frees such locks. A clean close flushes the file to the disk before it writes its marker. A host that crashes may lose
 * the writes not yet flushed: the lane's refusal of requests dated before its start (a reboot takes longer than the 30 s
 * skew) covers those. A standby keeps its own file, which holds nothing of the primary's requests.
 * <p>
 * The file is sized for the venue's credential capacity and grown (its entries copied into a larger file) when a start
 * finds it sized for fewer ({@code svc-nonces.capacity} records the size). When it may lack nonces this node accepted
 * before (found damaged, found missing while the journal holds credentials, or a key that did not fit before the last
 * stop, marked by {@code svc-nonces.incomplete}), it says so ({@link #complete}) and the lane then refuses requests
 * dated before its start plus the skew.
 */
final class SvcNonceFile implements SvcNonceStore, AutoCloseable
{
    private final Path file;
    private final Path closedMarker;
    private final Path incompleteMarker;
    private final PrintStream log;
    /** No file was there at start: nothing accepted before, unless the journal says requests were taken. */
    private final boolean startedWithoutFile;
    private ChronicleMap<String, Long> map;
    /** Why the file may lack nonces accepted before this start, or null. */
    private String incomplete;
    private boolean fullReported;

    /** @param keys the keys the file holds: the venue's credential capacity (a key is a credential's id). */
    SvcNonceFile(final Path data, final long keys, final PrintStream log) throws IOException
    {
        final Path folder = data.resolve("lane");
        Files.createDirectories(folder);
        file = folder.resolve("svc-nonces.dat");
        closedMarker = folder.resolve("svc-nonces.closed");
        incompleteMarker = folder.resolve("svc-nonces.incomplete");
        final Path capacityFile = folder.resolve("svc-nonces.capacity");
        this.log = log;
        final long capacity = Math.max(1_024, keys);
        final boolean closedCleanly = Files.deleteIfExists(closedMarker);
        if (Files.deleteIfExists(incompleteMarker))
        {
            incomplete = "a key did not fit in it before the last stop";
        }
        startedWithoutFile = !Files.exists(file);
        if (!startedWithoutFile && !looksLikeAMap(file))
        {
            // Chronicle waits a minute for a file it cannot read to be finished by another process: not for this one
            damaged("not a Chronicle Map file");
        }
        ChronicleMap<String, Long> opened = null;
        // made here, at the capacity asked for: nothing to grow
        boolean made = !Files.exists(file);
        try
        {
            opened = Files.exists(file) && !closedCleanly ? builder(capacity).recoverPersistedTo(file.toFile(), false) :
                builder(capacity).createPersistedTo(file.toFile());
            opened.forEach((key, nonce) -> { }); // every entry readable, before the lane depends on it
        }
        catch (final IOException | RuntimeException unreadable)
        {
            if (opened != null)
            {
                opened.close();
            }
            damaged(unreadable.toString());
            opened = builder(capacity).createPersistedTo(file.toFile());
            made = true;
        }
        map = opened;
        final long sizedFor = sizedFor(capacityFile);
        if (!made && sizedFor < capacity)
        {
            grow(capacity, sizedFor);
        }
        Files.writeString(capacityFile, Long.toString(capacity));
    }

    private static ChronicleMapBuilder<String, Long> builder(final long capacity)
    {
        return ChronicleMap.of(String.class, Long.class).name("svc-nonces").entries(capacity).averageKey("spk_0123456789abcdef");
    }

    /** The keys the file was made for: -1 when not recorded (a file from before the record was kept). */
    private static long sizedFor(final Path capacityFile) throws IOException
    {
        try
        {
            return Files.exists(capacityFile) ? Long.parseLong(Files.readString(capacityFile).trim()) : -1;
        }
        catch (final NumberFormatException unreadable)
        {
            return -1;
        }
    }

    /** Chronicle sizes a file when it makes it: a larger capacity needs a new file, with every entry copied over. */
    private void grow(final long capacity, final long sizedFor) throws IOException
    {
        final Map<String, Long> entries = new HashMap<>();
        map.forEach(entries::put);
        map.close();
        final Path old = file.resolveSibling("svc-nonces.dat.old");
        Files.move(file, old, StandardCopyOption.REPLACE_EXISTING);
        map = builder(capacity).createPersistedTo(file.toFile());
        map.putAll(entries);
        Files.delete(old);
        log.printf("the SVC-Nonce file grew from %s to %,d keys (%,d kept)%n", sizedFor < 0 ? "an unrecorded size" :
            String.format("%,d", sizedFor), capacity, entries.size());
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

    private void damaged(final String why) throws IOException
    {
        log.println("the SVC-Nonce file " + file + " could not be read (" + why + "): started empty");
        incomplete = "it could not be read and was started empty";
        Files.deleteIfExists(file);
    }

    /**
     * Tells the file whether the journal holds any machine credential: a file missing then may have held nonces (an
     * operator removed {@code lane/}, a restore without it), so it is incomplete. Called once, before the lane starts.
     */
    void credentialsExist(final boolean exist)
    {
        if (exist && startedWithoutFile && incomplete == null)
        {
            incomplete = "it was missing while the journal holds machine credentials";
        }
        if (incomplete != null)
        {
            log.println("the SVC-Nonce file may lack nonces accepted before this start (" + incomplete + "): the lane " +
                "refuses requests dated before this start plus the 30 s skew, so none of them can pass again");
        }
    }

    @Override
    public boolean complete()
    {
        return incomplete == null;
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
            // the request was authenticated and goes on: the next start is told the file is incomplete
            if (!fullReported)
            {
                fullReported = true;
                log.println("the SVC-Nonce file cannot take key " + apiKeyId + " (" + full + "): its nonces are kept in " +
                    "memory only; the next start refuses requests dated before it plus the 30 s skew");
                try
                {
                    Files.writeString(incompleteMarker, apiKeyId);
                }
                catch (final IOException unwritable)
                {
                    log.println("the SVC-Nonce file's incomplete marker could not be written: " + unwritable);
                }
            }
        }
    }

    @Override
    public void close()
    {
        map.close();
        try
        {
            // the entries on the disk before the marker that says they are whole
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
            {
                channel.force(true);
            }
            Files.createFile(closedMarker);
            try (FileChannel folder = FileChannel.open(closedMarker.getParent(), StandardOpenOption.READ))
            {
                folder.force(true);
            }
        }
        catch (final IOException unwritable)
        {
            log.println("the SVC-Nonce file could not be flushed or its close marker written (" + unwritable + "): the " +
                "next start recovers the file");
        }
    }
}
