package io.venue.appliance;

import io.venue.codec.Hex;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The replication key ({@code replication.key.file}): the 32 bytes both nodes of a pair seal every replication message
 * with. Never made by the node: a key one node made for itself would refuse every message of the other, so an operator
 * makes one and copies it to both. The file holds the key as 0x-hex on one line (as {@code KeyFiles} writes keys) or as
 * 32 raw bytes, and is readable by the node's user only.
 */
final class ReplicationKey
{
    static final int LENGTH = 32;
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
        PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private ReplicationKey()
    {
    }

    /** The key in {@code file}, or refused with what to do about it. */
    static byte[] load(final Path file)
    {
        if (file == null)
        {
            throw new IllegalStateException("no replication.key.file: a node of a replicated pair needs the pair's " +
                "key");
        }
        if (!Files.isRegularFile(file))
        {
            throw new IllegalStateException("no replication key at " + file + ": make one on one node (for example " +
                "'head -c 32 /dev/urandom > " + file + " && chmod 600 " + file + "') and copy it to the other");
        }
        try
        {
            if (Files.getFileStore(file).supportsFileAttributeView("posix"))
            {
                final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                permissions.retainAll(OTHERS);
                if (!permissions.isEmpty())
                {
                    // whoever reads it can forge commands to the standby: as strict as ssh with a private key
                    throw new IllegalStateException("the replication key " + file + " is open to its group or others " +
                        permissions + ": chmod 600 " + file);
                }
            }
            return parse(Files.readAllBytes(file), file);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot read the replication key " + file + ": " + ex.getMessage(), ex);
        }
    }

    /** 32 raw bytes, or 0x-hex (the 0x optional) of 32 bytes with white space around it. */
    static byte[] parse(final byte[] content, final Path file)
    {
        final byte[] key;
        if (content.length == LENGTH)
        {
            key = content.clone();
        }
        else
        {
            final String text = new String(content, StandardCharsets.US_ASCII).trim();
            final String hex = text.startsWith("0x") ? text.substring(2) : text;
            if (hex.length() != 2 * LENGTH || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0))
            {
                throw new IllegalStateException("the replication key " + file + " is neither 32 raw bytes nor 64 hex " +
                    "digits (" + content.length + " bytes)");
            }
            key = Hex.fromHex(hex.toLowerCase(Locale.ROOT));
        }
        boolean blank = true;
        for (final byte b : key)
        {
            blank &= b == 0;
        }
        if (blank)
        {
            throw new IllegalStateException("the replication key " + file + " is all zeros: make a random one");
        }
        return key;
    }
}
