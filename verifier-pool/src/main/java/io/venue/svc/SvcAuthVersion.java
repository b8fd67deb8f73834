package io.venue.svc;

import java.nio.charset.StandardCharsets;

/**
 * The two machine auth versions of the SVC-Auth-Version header (spec 5.4) and what each one fixes: the
 * first line of the signed string and the signature length.
 */
public enum SvcAuthVersion
{
    /** HMAC-SHA256 keyed with the API secret; needs the passphrase header. */
    HMAC_SHA256(2, "SERVICE-HMAC-V2", 32),

    /** Ed25519 over the same string; the server holds only the public key, no passphrase. */
    ED25519(3, "SERVICE-ED25519-V1", 64);

    private final int number;
    private final String versionLine;
    private final byte[] versionLineBytes;
    private final int signatureLength;

    SvcAuthVersion(final int number, final String versionLine, final int signatureLength)
    {
        this.number = number;
        this.versionLine = versionLine;
        this.versionLineBytes = versionLine.getBytes(StandardCharsets.US_ASCII);
        this.signatureLength = signatureLength;
    }

    /** The value of the SVC-Auth-Version header. */
    public int number()
    {
        return number;
    }

    /** The first line of the signed string. */
    public String versionLine()
    {
        return versionLine;
    }

    byte[] versionLineBytes()
    {
        return versionLineBytes;
    }

    /** Signature bytes: 32 for HMAC-SHA256, 64 for Ed25519. */
    public int signatureLength()
    {
        return signatureLength;
    }

    /** The version with this header number, or null. */
    public static SvcAuthVersion of(final int number)
    {
        return number == 2 ? HMAC_SHA256 : number == 3 ? ED25519 : null;
    }
}
