package io.venue.appliance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replication key file: hex or raw, owner-only, refused with what to do otherwise. */
class ReplicationKeyTest
{
    @TempDir
    Path folder;

    @Test
    void readsHexAndRawKeysOfTheOwnerOnly() throws Exception
    {
        final byte[] key = new byte[32];
        Arrays.fill(key, (byte)0xAB);
        assertArrayEquals(key, ReplicationKey.load(write("hex.key", ("0x" + "AB".repeat(32) + "\n").getBytes())));
        assertArrayEquals(key, ReplicationKey.load(write("bare.key", "ab".repeat(32).getBytes())));
        assertArrayEquals(key, ReplicationKey.load(write("raw.key", key)));
    }

    @Test
    void refusesWhatItCannotUseSayingWhy() throws Exception
    {
        assertRefused(folder.resolve("absent.key"), "no replication key at");
        final Path open = write("open.key", ("0x" + "ab".repeat(32)).getBytes());
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertRefused(open, "chmod 600");
        assertRefused(write("short.key", ("0x" + "ab".repeat(31)).getBytes()),
            "neither 32 raw bytes nor 64 hex digits");
        assertRefused(write("zero.key", new byte[32]), "all zeros");
        assertRefused(null, "no replication.key.file");
    }

    private Path write(final String name, final byte[] content) throws Exception
    {
        final Path file = folder.resolve(name);
        Files.write(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static void assertRefused(final Path file, final String text)
    {
        final IllegalStateException refused =
            assertThrows(IllegalStateException.class, () -> ReplicationKey.load(file));
        assertTrue(refused.getMessage().contains(text), refused.getMessage());
    }
}
