package io.venue.auth;

import io.venue.codec.Hex;

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
