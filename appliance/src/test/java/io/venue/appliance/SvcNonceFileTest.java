package io.venue.appliance;

import io.venue.testing.ChildJvm;
import net.openhft.chronicle.map.ChronicleMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node's SVC-Nonce file: what is put is loaded by the next process, also after a process that died holding one of
 * the file's locks; a file that cannot be read is started anew at once.
 */
class SvcNonceFileTest
{
    private static final long KEYS = 2_000;

    @TempDir
    Path data;

    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logged, true, StandardCharsets.UTF_8);

    @AfterEach
    void stopChildren() throws InterruptedException
    {
        ChildJvm.stopAll();
    }

    private Map<String, Long> load() throws Exception
    {
        final Map<String, Long> loaded = new HashMap<>();
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.load(loaded::put);
        }
        return loaded;
    }

    @Test
    void theNoncesOutliveTheProcess() throws Exception
    {
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.put("spk_0000000000000001", 5);
            file.put("spk_0000000000000001", 9);
            file.put("spk_0000000000000002", Long.MAX_VALUE);
        }
        assertEquals(Map.of("spk_0000000000000001", 9L, "spk_0000000000000002", Long.MAX_VALUE), load());
        assertEquals("", logged.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFileThatCannotBeReadIsStartedEmptyAndSaysSo() throws Exception
    {
        Files.createDirectories(data.resolve("lane"));
        Files.write(data.resolve("lane").resolve("svc-nonces.dat"), "not a map".getBytes(StandardCharsets.US_ASCII));
        assertEquals(Map.of(), load());
        assertTrue(logged.toString(StandardCharsets.UTF_8).contains("could not be read"),
            logged.toString(StandardCharsets.UTF_8));
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.put("spk_0000000000000003", 1);
        }
        assertEquals(Map.of("spk_0000000000000003", 1L), load());
    }

    /** The earliest request time a lane started at 0 would take: 0 unless the file asks for an embargo. */
    private static long embargo(final SvcNonceFile file)
    {
        return file.acceptsTimestampsFromMs(0);
    }

    @Test
    void aFileSizedForFewerKeysGrowsWithEveryEntry() throws Exception
    {
        try (SvcNonceFile file = new SvcNonceFile(data, 1_024, log))
        {
            file.put("spk_0000000000000001", 3);
        }
        final int keys = 20_000;
        try (SvcNonceFile file = new SvcNonceFile(data, keys, log))
        {
            assertTrue(logged.toString(StandardCharsets.UTF_8).contains("grew from 1,024 to 20,000 keys (1 kept)"),
                logged.toString(StandardCharsets.UTF_8));
            for (int i = 0; i < keys; i++)
            {
                file.put(String.format("spk_%016x", 0x1000 + i), i + 1);
            }
            assertEquals(0, embargo(file));
        }
        final Map<String, Long> loaded = new HashMap<>();
        try (SvcNonceFile file = new SvcNonceFile(data, keys, log))
        {
            file.load(loaded::put);
            assertEquals(0, embargo(file), "every key fitted");
        }
        assertEquals(keys + 1, loaded.size());
        assertEquals(3L, loaded.get("spk_0000000000000001"));
        assertEquals((long)keys, loaded.get(String.format("spk_%016x", 0x1000 + keys - 1)));
        assertFalse(logged.toString(StandardCharsets.UTF_8).contains("cannot take key"),
            logged.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(data.resolve("lane").resolve("svc-nonces.dat.new")));
    }

    @Test
    void aGrowthThatDidNotFinishLeavesTheOldFileWhole() throws Exception
    {
        try (SvcNonceFile file = new SvcNonceFile(data, 1_024, log))
        {
            file.put("spk_0000000000000001", 3);
        }
        // a crash while the grown copy was being written: the copy is half made, the file untouched
        Files.write(data.resolve("lane").resolve("svc-nonces.dat.new"),
            "half a map".getBytes(StandardCharsets.US_ASCII));
        try (SvcNonceFile file = new SvcNonceFile(data, 5_000, log))
        {
            final Map<String, Long> loaded = new HashMap<>();
            file.load(loaded::put);
            assertEquals(Map.of("spk_0000000000000001", 3L), loaded);
            assertEquals(0, embargo(file));
        }
        assertFalse(Files.exists(data.resolve("lane").resolve("svc-nonces.dat.new")));
    }

    @Test
    void aFileThatMayLackNoncesRefusesOlderRequestsUntilTheSkewHasPassedAcrossRestarts() throws Exception
    {
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(false);
            assertEquals(0, embargo(file), "a first start: nothing was accepted before");
            file.put("spk_0000000000000001", 3);
        }
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(true);
            assertEquals(0, embargo(file), "the file was there");
        }
        Files.delete(data.resolve("lane").resolve("svc-nonces.dat"));
        final long before = System.currentTimeMillis();
        final long until;
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(true);
            until = embargo(file);
            assertTrue(until >= before + 30_000 && until <= System.currentTimeMillis() + 30_000, "missing: " + until);
        }
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(true);
            assertEquals(until, embargo(file), "a restart within the 30 s keeps the same embargo");
        }
        // once its time has passed, the mark goes
        Files.writeString(data.resolve("lane").resolve("svc-nonces.incomplete"), Long.toString(before - 1));
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(true);
            assertEquals(0, embargo(file));
        }
        assertFalse(Files.exists(data.resolve("lane").resolve("svc-nonces.incomplete")));

        Files.write(data.resolve("lane").resolve("svc-nonces.dat"), "not a map".getBytes(StandardCharsets.US_ASCII));
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(true);
            assertTrue(embargo(file) >= before + 30_000, "found damaged");
        }

        // a key that does not fit (a file made small by hand) embargoes the next start, counted from it
        Files.writeString(data.resolve("lane").resolve("svc-nonces.incomplete"), Long.toString(before - 1));
        Files.delete(data.resolve("lane").resolve("svc-nonces.dat"));
        Files.writeString(data.resolve("lane").resolve("svc-nonces.capacity"), "1024");
        try (SvcNonceFile file = new SvcNonceFile(data, 1_024, log))
        {
            assertEquals(0, embargo(file));
            for (int i = 0; i < 100_000 && !logged.toString(StandardCharsets.UTF_8).contains("cannot take key"); i++)
            {
                file.put(String.format("spk_%016x", i), 1);
            }
        }
        assertTrue(logged.toString(StandardCharsets.UTF_8).contains("cannot take key"), "the small file filled up");
        final long next = System.currentTimeMillis();
        try (SvcNonceFile file = new SvcNonceFile(data, 1_024, log))
        {
            assertTrue(embargo(file) >= next + 30_000, "a key did not fit during the last run");
        }
    }

    @Test
    void aPromotedStandbyRefusesRequestsDatedBeforeThePromotionPlusTheSkewAcrossRestarts() throws Exception
    {
        final long promotedAt = System.currentTimeMillis();
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(false);
            assertEquals(0, embargo(file), "a standby's own file, new");
            file.promoted(promotedAt);
            assertEquals(promotedAt + 30_000, embargo(file));
        }
        assertTrue(logged.toString(StandardCharsets.UTF_8).contains("this node was promoted"),
            logged.toString(StandardCharsets.UTF_8));
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.credentialsExist(true);
            assertEquals(promotedAt + 30_000, embargo(file), "a restart within the 30 s keeps it");
        }
    }

    @Test
    void aProcessThatDiedHoldingALockLeavesAFileTheNextOneReads() throws Exception
    {
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            file.put("spk_0000000000000004", 7);
        }
        final ChildJvm child = ChildJvm.start(DiesHoldingALock.class, data.toString());
        assertTrue(child.process.waitFor(60, TimeUnit.SECONDS), "the child ended");
        assertTrue(child.lines.contains("LOCKED"), String.join("\n", child.lines));

        final long begin = System.nanoTime();
        try (SvcNonceFile file = new SvcNonceFile(data, KEYS, log))
        {
            final Map<String, Long> loaded = new HashMap<>();
            file.load(loaded::put);
            assertEquals(7L, loaded.get("spk_0000000000000004"), loaded.toString());
            file.put("spk_0000000000000004", 8); // the segment the child locked takes writes again
        }
        assertTrue(System.nanoTime() - begin < TimeUnit.SECONDS.toNanos(30), "no lock timeout was waited out");
        assertEquals(8L, load().get("spk_0000000000000004"));
    }

    /** Opens the file as the lane does, takes the write lock of a key's segment and halts with it held. */
    public static final class DiesHoldingALock
    {
        public static void main(final String[] args) throws Exception
        {
            final Path folder = Path.of(args[0]).resolve("lane");
            Files.deleteIfExists(folder.resolve("svc-nonces.closed")); // the lane deletes it when it opens the file
            final File file = folder.resolve("svc-nonces.dat").toFile();
            final ChronicleMap<String, Long> map = ChronicleMap.of(String.class, Long.class).name("svc-nonces")
                .entries(KEYS).averageKey("spk_0123456789abcdef").createPersistedTo(file);
            map.queryContext("spk_0000000000000004").writeLock().lock();
            System.out.println("LOCKED");
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
    }
}
