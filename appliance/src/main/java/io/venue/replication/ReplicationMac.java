package io.venue.replication;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * HMAC-SHA256 (RFC 2104) of a direction byte and a message, truncated to its first {@link #LENGTH} bytes: the MAC of
 * the replication seal ({@link ReplicationSeal}). Written over a reused {@link MessageDigest} instead of
 * {@code javax.crypto.Mac}, whose {@code doFinal} allocates arrays on every call: this one allocates nothing once made.
 * One instance per thread.
 */
final class ReplicationMac
{
    /** Bytes of the MAC on the wire: half of HMAC-SHA256's 32, a 128-bit tag. */
    static final int LENGTH = 16;
    /** The shortest key taken: 32 bytes, SHA-256's strength. */
    static final int MIN_KEY_LENGTH = 32;
    private static final int BLOCK = 64;
    private static final int DIGEST = 32;
    private static final int CHUNK = 4096;

    private final MessageDigest sha256;
    private final byte[] innerPad = new byte[BLOCK];
    private final byte[] outerPad = new byte[BLOCK];
    private final byte[] digest = new byte[DIGEST];
    private final byte[] expected = new byte[LENGTH];
    /** Bytes of a message that is not on a heap array (an Aeron term buffer) pass through here a chunk at a time. */
    private final byte[] chunk = new byte[CHUNK];
    private final byte[] direction = new byte[1];

    ReplicationMac(final byte[] key)
    {
        if (key == null || key.length < MIN_KEY_LENGTH)
        {
            throw new IllegalArgumentException("a replication key has at least " + MIN_KEY_LENGTH + " bytes");
        }
        try
        {
            sha256 = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("this JDK has no SHA-256", ex);
        }
        // a key longer than a block is hashed first (RFC 2104)
        final byte[] blockKey = key.length > BLOCK ? sha256.digest(key) : key;
        for (int i = 0; i < BLOCK; i++)
        {
            final byte k = i < blockKey.length ? blockKey[i] : 0;
            innerPad[i] = (byte)(k ^ 0x36);
            outerPad[i] = (byte)(k ^ 0x5c);
        }
    }

    /** Writes the MAC of the direction and {@code length} bytes at {@code offset} into {@code buffer} at {@code to}. */
    void sign(final byte directionByte, final DirectBuffer message, final int offset, final int length,
        final MutableDirectBuffer buffer, final int to)
    {
        compute(directionByte, message, offset, length);
        buffer.putBytes(to, digest, 0, LENGTH);
    }

    /** True when the {@link #LENGTH} bytes at {@code macOffset} are the MAC of the direction and the message. */
    boolean verify(final byte directionByte, final DirectBuffer message, final int offset, final int length,
        final int macOffset)
    {
        compute(directionByte, message, offset, length);
        message.getBytes(macOffset, expected, 0, LENGTH);
        // in constant time: how much of a guess was right must not show
        int difference = 0;
        for (int i = 0; i < LENGTH; i++)
        {
            difference |= expected[i] ^ digest[i];
        }
        return difference == 0;
    }

    /** The full 32-byte HMAC last computed (for the test against the JDK's). */
    byte[] lastDigest()
    {
        return Arrays.copyOf(digest, DIGEST);
    }

    private void compute(final byte directionByte, final DirectBuffer message, final int offset, final int length)
    {
        direction[0] = directionByte;
        sha256.reset();
        sha256.update(innerPad, 0, BLOCK);
        sha256.update(direction, 0, 1);
        final byte[] array = message.byteArray();
        if (array != null)
        {
            sha256.update(array, message.wrapAdjustment() + offset, length);
        }
        else
        {
            int done = 0;
            while (done < length)
            {
                final int part = Math.min(CHUNK, length - done);
                message.getBytes(offset + done, chunk, 0, part);
                sha256.update(chunk, 0, part);
                done += part;
            }
        }
        try
        {
            sha256.digest(digest, 0, DIGEST);
            sha256.update(outerPad, 0, BLOCK);
            sha256.update(digest, 0, DIGEST);
            sha256.digest(digest, 0, DIGEST);
        }
        catch (final DigestException ex)
        {
            throw new IllegalStateException("SHA-256 into a 32-byte array", ex);
        }
    }
}
