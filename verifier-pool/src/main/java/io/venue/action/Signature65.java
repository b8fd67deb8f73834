package io.venue.action;

/**
 * A recoverable secp256k1 signature as sent on the wire: r (32 bytes), s (32 bytes), v (1 byte, one of
 * 0, 1, 27, 28).
 */
public final class Signature65 extends FixedBytes
{
    public static final int LENGTH = 65;

    public Signature65(final byte[] bytes)
    {
        super(bytes, LENGTH, "signature");
    }

    /** The v byte as sent, 0 to 255. */
    public int v()
    {
        return toBytes()[64] & 0xFF;
    }
}
