package io.venue.svc;

import io.venue.codec.Hex;

import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;

/**
 * SVC auth version 2: HMAC-SHA256 over the signed string (spec 5.4).
 * <p>
 * Key decision: the HMAC key is the UTF-8 bytes of the whole API secret string, its {@code sps_} prefix
 * included, not the 32 bytes its hex digits encode. A client can then sign with any HMAC library by
 * passing the secret exactly as it received it.
 * <p>
 * Not thread-safe: one instance per verifier thread, reusing its {@link Mac}. The Mac is keyed again only
 * when the secret is a different String instance from the previous call, so a credential store that
 * hands out the same instance per key avoids rekeying for repeated requests of one key.
 */
public final class SvcHmacV2
{
    public static final String ALGORITHM = "HmacSHA256";
    public static final int MAC_LENGTH = 32;

    private final Mac mac;
    private final byte[] computed = new byte[MAC_LENGTH];
    private String keyedWith;

    public SvcHmacV2()
    {
        try
        {
            mac = Mac.getInstance(ALGORITHM);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every Java runtime has HmacSHA256", ex);
        }
    }

    /**
     * Computes the 32-byte MAC of {@code message[offset, offset + length)} into {@code dst}.
     *
     * @throws IllegalArgumentException if the secret is null or empty.
     */
    public void mac(
        final String apiSecret,
        final byte[] message,
        final int offset,
        final int length,
        final byte[] dst,
        final int dstOffset)
    {
        keyWith(apiSecret);
        mac.update(message, offset, length);
        try
        {
            mac.doFinal(dst, dstOffset);
        }
        catch (final ShortBufferException ex)
        {
            throw new IllegalArgumentException("dst needs 32 bytes from dstOffset", ex);
        }
    }

    /** The SVC-Signature value: "0x" and 64 lowercase hex digits. */
    public String sign(final String apiSecret, final byte[] message, final int offset, final int length)
    {
        final byte[] out = new byte[MAC_LENGTH];
        mac(apiSecret, message, offset, length, out, 0);
        return Hex.to0x(out);
    }

    /** The SVC-Signature value of a signed string given as text (UTF-8). */
    public String sign(final String apiSecret, final String message)
    {
        final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        return sign(apiSecret, bytes, 0, bytes.length);
    }

    /**
     * True when {@code signature[signatureOffset, +32)} is the MAC of the message; compared in constant time.
     *
     * @throws IllegalArgumentException if the secret is null or empty.
     */
    public boolean verify(
        final String apiSecret,
        final byte[] message,
        final int offset,
        final int length,
        final byte[] signature,
        final int signatureOffset)
    {
        mac(apiSecret, message, offset, length, computed, 0);
        return SvcConstantTime.equals(computed, 0, signature, signatureOffset, MAC_LENGTH);
    }

    private void keyWith(final String apiSecret)
    {
        // Checked first: on a fresh instance a null secret would equal the null "keyed with".
        if (apiSecret == null || apiSecret.isEmpty())
        {
            throw new IllegalArgumentException("API secret is required");
        }
        if (apiSecret != keyedWith)
        {
            try
            {
                mac.init(new SecretKeySpec(apiSecret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            }
            catch (final InvalidKeyException ex)
            {
                throw new IllegalArgumentException("HMAC key rejected", ex);
            }
            keyedWith = apiSecret;
        }
    }
}
