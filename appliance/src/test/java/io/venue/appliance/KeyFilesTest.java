package io.venue.appliance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Key files: owner-only from their first byte, whole under their name, and refused when others may read them. */
class KeyFilesTest
{
    @TempDir
    Path folder;

    @Test
    void aKeyIsWrittenOwnerOnlyAndWholeAndReplacesTheOldOne() throws Exception
    {
        final Path file = folder.resolve("keys").resolve("operator.key");
        assertTrue(KeyFiles.writePrivate(file, "0x01\n"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(KeyFiles.writePrivate(file, "0x02\n"));
        assertArrayEquals(new byte[] {2}, KeyFiles.load(file));
        assertFalse(Files.exists(file.resolveSibling("operator.key.partial")), "the temporary file was renamed");
    }

    @Test
    void aKeyFileItsGroupOrOthersMayReadIsRefused() throws Exception
    {
        final Path file = folder.resolve("operator.key");
        KeyFiles.writePrivate(file, "0x01\n");
        for (final String readable : new String[] {"rw-r-----", "rw----r--", "rwxrwxrwx"})
        {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(readable));
            assertEquals(file + " holds a secret but its group or others may read it (" + readable + "): make it " +
                "readable by its owner only, e.g. chmod 600 " + file,
                assertThrows(IOException.class, () -> KeyFiles.load(file)).getMessage());
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
        assertArrayEquals(new byte[] {1}, KeyFiles.load(file));
    }

    @Test
    void anApplianceWhoseCredentialKeyOthersMayReadDoesNotStart() throws Exception
    {
        final Path key = folder.resolve("keys").resolve("credentials.key");
        KeyFiles.writePrivate(key, "0x" + "ab".repeat(32) + "\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-rw-r--"));
        final IOException refused = assertThrows(IOException.class, () -> Appliance.start(new ApplianceContext()
            .dataDir(folder).httpPort(0), new PrintStream(OutputStream.nullOutputStream())).close());
        assertTrue(refused.getMessage().contains("credentials.key holds a secret but its group or others may read it"),
            refused.getMessage());
        assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)),
            "nothing changed");
    }
}
