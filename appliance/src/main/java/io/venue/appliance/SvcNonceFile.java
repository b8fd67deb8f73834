package io.venue.appliance;

import io.venue.engine.state.ChronicleMapFile;
import io.venue.entry.credential.SvcNonceStore;
import io.venue.svc.SvcVerifier;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ObjLongConsumer;

/**
 * Each API key's highest accepted SVC-Nonce in a Chronicle Map file of the node's data folder
 * ({@code lane/svc-nonces.dat}), written as each nonce is accepted. The file is memory-mapped, so what a killed process
 * wrote is in it; a process that died in the middle of a write may have left a segment locked, so a start after an end
 * that was not a clean close (no {@code svc-nonces.closed} marker) opens the file through Chronicle's recovery, which
 * frees such locks. A clean close flushes the file to the disk before it writes its marker. A host that crashes may
 * lose the writes not yet flushed: the lane's refusal of requests dated before its start (a reboot takes longer than
 * the 30 s skew) covers those. A standby keeps its own file, which holds nothing of the primary's requests: its
 * promotion refuses requests dated before it plus the 30 s skew ({@link #promoted}).
 * <p>
 * The file is sized for the venue's credential capacity. A start that finds it sized for fewer ({@code
 * svc-nonces.capacity} records the size of the file it made) grows it crash-safely: the entries are copied into {@code
 * svc-nonces.dat.new}, which is flushed and then moved over the file in one step, so a crash leaves either the old file
 * whole or the new one whole.
 * <p>
 * When the file may lack nonces this node accepted (found damaged, found missing while the journal holds credentials,
 * or a key that did not fit during the last run), the lane refuses requests dated before this start plus the 30 s skew
 * ({@link #acceptsTimestampsFromMs}). That time is kept in {@code svc-nonces.incomplete} until it has passed, so a
 * restart within those 30 s keeps refusing them too.
 */
final class SvcNonceFile implements SvcNonceStore, AutoCloseable
{
    /** The refusal of requests dated before a start that may lack nonces lasts the SVC skew past the start. */
    private static final long SKEW_MS = SvcVerifier.MAX_SKEW_MS;

    private final Path file;
    private final Path closedMarker;
    private final Path incompleteMarker;
    private final PrintStream log;
    /** No file was there at start: nothing accepted before, unless the journal says requests were taken. */
    private final boolean startedWithoutFile;
    private final long startedMs;
    private ChronicleMap<String, Long> map;
    /** Requests dated before this are refused (0: none beyond the lane's own start), and why. */
    private long embargoUntilMs;
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
        startedMs = System.currentTimeMillis();
        final long capacity = Math.max(1_024, keys);
        final boolean closedCleanly = Files.deleteIfExists(closedMarker);
        // a growth that did not finish: the file itself is still the old one, whole
        Files.deleteIfExists(file.resolveSibling("svc-nonces.dat.new"));
        readIncompleteMarker();
        startedWithoutFile = !Files.exists(file);
        if (!startedWithoutFile && !ChronicleMapFile.looksLikeAMap(file))
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
            made = true;
        }
        if (made)
        {
            DurableFiles.replace(capacityFile, Long.toString(capacity));
        }
    }

    /**
     * An embargo left by an earlier start (or run) that has not passed yet; a marker of 0 starts one from this start.
     */
    private void readIncompleteMarker() throws IOException
    {
        if (!Files.exists(incompleteMarker))
        {
            return;
        }
        long until;
        try
        {
            until = Long.parseLong(Files.readString(incompleteMarker).trim());
        }
        catch (final NumberFormatException unreadable)
        {
            until = 0;
        }
        if (until == 0)
        {
            embargo(startedMs + SKEW_MS, "a key did not fit in it during the last run");
        }
        else if (until > startedMs)
        {
            embargo(until, "an earlier start found it incomplete less than " + SKEW_MS / 1000 + " s ago");
        }
        else
        {
            Files.delete(incompleteMarker);
        }
    }

    /** Refuses requests dated before {@code untilMs}, kept on the disk until then. */
    private void embargo(final long untilMs, final String why) throws IOException
    {
        incomplete = incomplete == null ? why : incomplete + "; " + why;
        if (untilMs > embargoUntilMs)
        {
            embargoUntilMs = untilMs;
            DurableFiles.replace(incompleteMarker, Long.toString(untilMs));
        }
    }

    private static ChronicleMapBuilder<String, Long> builder(final long capacity)
    {
        return ChronicleMap.of(String.class, Long.class).name("svc-nonces").entries(capacity)
            .averageKey("spk_0123456789abcdef");
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

    /**
     * Chronicle sizes a file when it makes it: a larger capacity needs a new file with every entry copied over, made
     * beside the file, flushed, then moved over it in one step.
     */
    private void grow(final long capacity, final long sizedFor) throws IOException
    {
        final Map<String, Long> entries = new HashMap<>();
        map.forEach(entries::put);
        map.close();
        final Path next = file.resolveSibling("svc-nonces.dat.new");
        try (ChronicleMap<String, Long> grown = builder(capacity).createPersistedTo(next.toFile()))
        {
            grown.putAll(entries);
        }
        DurableFiles.force(next);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        DurableFiles.forceFolder(file.getParent());
        map = builder(capacity).createPersistedTo(file.toFile());
        log.printf("the SVC-Nonce file grew from %s to %,d keys (%,d kept)%n", sizedFor < 0 ? "an unrecorded size" :
            String.format("%,d", sizedFor), capacity, entries.size());
    }

    private void damaged(final String why) throws IOException
    {
        log.println("the SVC-Nonce file " + file + " could not be read (" + why + "): started empty");
        Files.deleteIfExists(file);
        embargo(startedMs + SKEW_MS, "it could not be read and was started empty");
    }

    /**
     * Tells the file whether the journal holds any machine credential: a file missing then may have held nonces (an
     * operator removed {@code lane/}, a restore without it). Called once, before the lane starts.
     */
    void credentialsExist(final boolean exist) throws IOException
    {
        if (exist && startedWithoutFile)
        {
            embargo(startedMs + SKEW_MS, "it was missing while the journal holds machine credentials");
        }
        if (incomplete != null)
        {
            reportEmbargo();
        }
    }

    /**
     * This standby was promoted at {@code nowMs}: its file holds none of the requests the old primary accepted, and a
     * request the old primary took may be dated up to the 30 s skew ahead. The lane refuses requests dated before
     * the promotion plus that skew, so none of those can pass here again (kept across restarts within those 30 s).
     */
    void promoted(final long nowMs)
    {
        try
        {
            embargo(nowMs + SKEW_MS, "this node was promoted: the file holds none of the old primary's requests");
        }
        catch (final IOException ex)
        {
            // the refusal holds for this run (set before the marker is written); a restart within 30 s would not
            // keep it
            log.println(
                "the SVC-Nonce embargo marker could not be written (" + ex + "): it holds until this process stops");
        }
        reportEmbargo();
    }

    private void reportEmbargo()
    {
        log.println("the SVC-Nonce file may lack nonces accepted before now (" + incomplete + "): the lane " +
            "refuses requests dated before " + embargoUntilMs + " (epoch ms), so none of them can pass again");
    }

    @Override
    public long acceptsTimestampsFromMs(final long laneStartedMs)
    {
        return Math.max(laneStartedMs, embargoUntilMs);
    }

    @Override
    public void load(final ObjLongConsumer<String> into)
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
                log.println(
                    "the SVC-Nonce file cannot take key " + apiKeyId + " (" + full + "): its nonces are kept in " +
                    "memory only; the next start refuses requests dated before it plus the 30 s skew");
                try
                {
                    // 0: the next start sets the time from its own start
                    DurableFiles.replace(incompleteMarker,
                        embargoUntilMs > System.currentTimeMillis() ? Long.toString(embargoUntilMs) :
                        "0");
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
            DurableFiles.force(file);
            Files.createFile(closedMarker);
            DurableFiles.forceFolder(file.getParent());
        }
        catch (final IOException unwritable)
        {
            log.println(
                "the SVC-Nonce file could not be flushed or its close marker written (" + unwritable + "): the " +
                "next start recovers the file");
        }
    }
}
