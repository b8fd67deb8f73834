package io.venue.auth;

import io.venue.codec.Hex;

import java.nio.charset.StandardCharsets;

/**
 * The text the operator key signs with EIP-191 for an admin action: it quotes the v2 digest of the
 * action, which already binds chain id and verifying contract, so the text needs nothing else. The
 * title keeps admin intent from ever being read as a trade or an owner message.
 *
 * <pre>
 * Service Admin Action
 * digest:0x...   (32 bytes)
 * </pre>
 */
public final class AdminActionText implements OwnerIntentText
{
    public static final String TITLE = "Service Admin Action";
    public static final int DIGEST_LENGTH = 32;
    /** The text's length in bytes: the title, a line feed, {@code digest:0x} and 64 hex digits. */
    public static final int LENGTH = TITLE.length() + 1 + "digest:0x".length() + 2 * DIGEST_LENGTH;

    private static final byte[] PREFIX = (TITLE + "\ndigest:0x").getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final byte[] digest;
    private final String text;

    private AdminActionText(final byte[] digest)
    {
        this.digest = digest;
        this.text = TITLE + "\ndigest:" + Hex.to0x(digest);
    }

    /**
     * @param digest the 32-byte v2 action digest.
     * @throws IllegalArgumentException unless the digest is 32 bytes.
     */
    public static AdminActionText of(final byte[] digest)
    {
        if (digest == null || digest.length != DIGEST_LENGTH)
        {
            throw new IllegalArgumentException("digest must be the 32-byte v2 action digest");
        }
        return new AdminActionText(digest.clone());
    }

    @Override
    public String text()
    {
        return text;
    }

    /**
     * Writes the ASCII bytes of the text for the digest at {@code digest[digestOffset..+32)} to {@code out[0..LENGTH)},
     * allocating nothing (the verifier's way to the same bytes as {@link #text()}).
     */
    public static void write(final byte[] digest, final int digestOffset, final byte[] out)
    {
        System.arraycopy(PREFIX, 0, out, 0, PREFIX.length);
        for (int i = 0; i < DIGEST_LENGTH; i++)
        {
            final int b = digest[digestOffset + i] & 0xFF;
            out[PREFIX.length + 2 * i] = HEX_DIGITS[b >>> 4];
            out[PREFIX.length + 2 * i + 1] = HEX_DIGITS[b & 0xF];
        }
    }

    /** A copy of the digest. */
    public byte[] digest()
    {
        return digest.clone();
    }

    @Override
    public String toString()
    {
        return text;
    }
}
