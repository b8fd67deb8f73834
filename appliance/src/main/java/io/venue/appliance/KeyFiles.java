package io.venue.appliance;

import io.venue.codec.Hex;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Supplier;

/**
 * Secret key files: 0x-hex on one line, readable by the owner only, written under a temporary name and renamed, so a
 * crash never leaves half a key under the real name.
 */
final class KeyFiles
{
    private KeyFiles()
    {
    }

    /** The key in {@code file}. */
    static byte[] load(final Path file) throws IOException
    {
        return Hex.fromHex(Files.readString(file, StandardCharsets.US_ASCII).trim());
    }

    /** The key in {@code file}, or a new one from {@code generate}, written there first. */
    static byte[] loadOrCreate(final Path file, final Supplier<byte[]> generate) throws IOException
    {
        if (Files.exists(file))
        {
            return load(file);
        }
        final byte[] key = generate.get();
        Files.createDirectories(file.toAbsolutePath().getParent());
        final Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        Files.createFile(partial, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(partial, Hex.to0x(key) + "\n", StandardCharsets.US_ASCII);
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        return key;
    }
}
