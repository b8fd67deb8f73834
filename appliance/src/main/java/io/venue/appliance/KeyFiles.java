package io.venue.appliance;

import io.venue.codec.Hex;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Secret key files: 0x-hex on one line, readable by the owner only, written under a temporary name, forced to the disk
 * and renamed, so a crash never leaves half a key (or a name pointing at unwritten blocks) under the real name. A key
 * file its group or others may read is refused on a POSIX file system (elsewhere there are no such bits to check).
 * The appliance's keys and the CLI's (venue keygen, every --key-file and secret file) go through here.
 */
public final class KeyFiles
{
    private static final Set<PosixFilePermission> READABLE_BY_OTHERS =
        EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);

    private KeyFiles()
    {
    }

    /** The key in {@code file}, refused if its group or others may read it. */
    static byte[] load(final Path file) throws IOException
    {
        return Hex.fromHex(readPrivate(file));
    }

    /**
     * The text of a file holding a secret, trimmed.
     *
     * @throws IOException when the file cannot be read, or its group or others may read it (POSIX file systems).
     */
    public static String readPrivate(final Path file) throws IOException
    {
        checkOwnerOnly(file);
        return Files.readString(file, StandardCharsets.US_ASCII).trim();
    }

    /**
     * Refuses a secret's file that its group or others may read: a key others could copy is no longer a secret, and
     * a refusal at once beats learning of it later.
     */
    public static void checkOwnerOnly(final Path file) throws IOException
    {
        final PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null)
        {
            return;
        }
        final Set<PosixFilePermission> permissions = view.readAttributes().permissions();
        if (permissions.stream().anyMatch(READABLE_BY_OTHERS::contains))
        {
            throw new IOException(file + " holds a secret but its group or others may read it (" +
                PosixFilePermissions.toString(permissions) + "): make it readable by its owner only, e.g. chmod 600 " +
                file);
        }
    }

    /** The key in {@code file}, or a new one from {@code generate}, written there first. */
    static byte[] loadOrCreate(final Path file, final Supplier<byte[]> generate) throws IOException
    {
        if (Files.exists(file))
        {
            return load(file);
        }
        final byte[] key = generate.get();
        writePrivate(file, Hex.to0x(key) + "\n");
        return key;
    }

    /**
     * Writes a secret's file whole, readable by its owner only from its first byte: a temporary file beside it, forced
     * to the disk, moved over it in one step (replacing one that exists), the folder forced.
     *
     * @return false where the file system has no POSIX permissions (the caller says so: who may read it is then up to
     * the folder's own protection).
     */
    public static boolean writePrivate(final Path file, final String text) throws IOException
    {
        final Path folder = file.toAbsolutePath().getParent();
        Files.createDirectories(folder);
        final boolean posix = Files.getFileStore(folder).supportsFileAttributeView("posix");
        final Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        if (posix)
        {
            Files.createFile(partial,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(partial, text, StandardCharsets.US_ASCII);
        // the rename must not reach the disk before the key does
        DurableFiles.force(partial);
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        DurableFiles.forceFolder(folder);
        return posix;
    }
}
