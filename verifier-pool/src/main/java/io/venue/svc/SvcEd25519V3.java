package io.venue.svc;

import io.venue.codec.Hex;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

import java.nio.charset.StandardCharsets;

/**
 * SVC auth version 3: a 64-byte Ed25519 signature (RFC 8032, pure) over the signed string; the server
 * stores only the 32-byte public key (spec 5.4). BouncyCastle, which verifies about 8 times faster
 * than the JDK provider here.
 * <p>
 * Not thread-safe: one instance per verifier thread, reusing its signer and signature buffer.
 */
public final class SvcEd25519V3
{
    public static final int SEED_LENGTH = 32;
    public static final int PUBLIC_KEY_LENGTH = 32;
    public static final int SIGNATURE_LENGTH = 64;

    private final Ed25519Signer signer = new Ed25519Signer();
    // Ed25519Signer only verifies an array of exactly 64 bytes.
    private final byte[] signatureCopy = new byte[SIGNATURE_LENGTH];

    /** The 32-byte public key of a 32-byte private seed. */
    public static byte[] publicKey(final byte[] seed)
    {
        return new Ed25519PrivateKeyParameters(requireLength(seed, SEED_LENGTH, "seed"))
            .generatePublicKey().getEncoded();
    }

    /**
     * Signs {@code message[offset, offset + length)} with a 32-byte private seed into {@code dst}.
     *
     * @throws IllegalArgumentException if the seed is not 32 bytes.
     */
    public void sign(
        final byte[] seed,
        final byte[] message,
        final int offset,
        final int length,
        final byte[] dst,
        final int dstOffset)
    {
        signer.init(true, new Ed25519PrivateKeyParameters(requireLength(seed, SEED_LENGTH, "seed")));
        signer.update(message, offset, length);
        System.arraycopy(signer.generateSignature(), 0, dst, dstOffset, SIGNATURE_LENGTH);
    }

    /** The SVC-Signature value: "0x" and 128 lowercase hex digits. */
    public String sign(final byte[] seed, final byte[] message, final int offset, final int length)
    {
        final byte[] out = new byte[SIGNATURE_LENGTH];
        sign(seed, message, offset, length, out, 0);
        return Hex.to0x(out);
    }

    /** The SVC-Signature value of a signed string given as text (UTF-8). */
    public String sign(final byte[] seed, final String message)
    {
        final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        return sign(seed, bytes, 0, bytes.length);
    }

    /**
     * True when {@code signature[signatureOffset, +64)} verifies for the public key; false, never an
     * exception, for a key that is not 32 bytes or not a point on the curve.
     */
    public boolean verify(
        final byte[] publicKey,
        final byte[] message,
        final int offset,
        final int length,
        final byte[] signature,
        final int signatureOffset)
    {
        final Ed25519PublicKeyParameters key = parsePublicKey(publicKey);
        return key != null && verify(key, message, offset, length, signature, signatureOffset);
    }

    /** As {@link #verify(byte[], byte[], int, int, byte[], int)} with a key decoded once, as a credential holds it. */
    public boolean verify(
        final Ed25519PublicKeyParameters publicKey,
        final byte[] message,
        final int offset,
        final int length,
        final byte[] signature,
        final int signatureOffset)
    {
        System.arraycopy(signature, signatureOffset, signatureCopy, 0, SIGNATURE_LENGTH);
        signer.init(false, publicKey);
        signer.update(message, offset, length);
        return signer.verifySignature(signatureCopy);
    }

    /** The decoded key, or null if it is not 32 bytes encoding a curve point. */
    public static Ed25519PublicKeyParameters parsePublicKey(final byte[] publicKey)
    {
        if (publicKey == null || publicKey.length != PUBLIC_KEY_LENGTH)
        {
            return null;
        }
        try
        {
            return new Ed25519PublicKeyParameters(publicKey);
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    private static byte[] requireLength(final byte[] bytes, final int length, final String what)
    {
        if (bytes == null || bytes.length != length)
        {
            throw new IllegalArgumentException(what + " must be " + length + " bytes");
        }
        return bytes;
    }
}
