package io.venue.crypto;

import java.nio.charset.StandardCharsets;

/**
 * EIP-191 version 0x45 (personal_sign): keccak256("\x19Ethereum Signed Message:\n" || decimal byte length
 * || message). Used for owner-intent texts (agent authorization, admin actions, the cancel-by-id leg)
 * and for the {@link PreimageMode#PERSONAL} wrapping of an action hash.
 */
public final class Eip191
{
    private static final byte[] PREFIX = "\u0019Ethereum Signed Message:\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PREFIX_32 = "\u0019Ethereum Signed Message:\n32".getBytes(StandardCharsets.US_ASCII);

    private Eip191()
    {
    }

    /** personal_sign hash of {@code length} bytes at {@code offset}; writes 32 bytes. Allocation free. */
    public static void personalHash(
        final Keccak256 keccak,
        final byte[] message,
        final int offset,
        final int length,
        final byte[] out,
        final int outOffset)
    {
        keccak.reset();
        keccak.update(PREFIX, 0, PREFIX.length);
        updateDecimal(keccak, length);
        keccak.update(message, offset, length);
        keccak.digest(out, outOffset);
    }

    /** personal_sign hash of a 32-byte value, the common case, with the length digits precomputed. */
    public static void personalHash32(
        final Keccak256 keccak, final byte[] hash, final int offset, final byte[] out, final int outOffset)
    {
        keccak.reset();
        keccak.update(PREFIX_32, 0, PREFIX_32.length);
        keccak.update(hash, offset, 32);
        keccak.digest(out, outOffset);
    }

    /** personal_sign hash of a message; returns 32 bytes. For tools and tests. */
    public static byte[] personalHash(final byte[] message)
    {
        final byte[] out = new byte[Keccak256.DIGEST_LENGTH];
        personalHash(new Keccak256(), message, 0, message.length, out, 0);
        return out;
    }

    /** personal_sign hash of the UTF-8 bytes of a text; returns 32 bytes. For tools and tests. */
    public static byte[] personalHash(final String text)
    {
        return personalHash(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void updateDecimal(final Keccak256 keccak, final int value)
    {
        int divisor = 1;
        while (value / divisor >= 10)
        {
            divisor *= 10;
        }
        for (; divisor > 0; divisor /= 10)
        {
            keccak.update((byte)('0' + (value / divisor) % 10));
        }
    }
}
