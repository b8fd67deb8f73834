package io.venue.entry.credential;

import org.bouncycastle.crypto.digests.Blake3Digest;
import org.bouncycastle.crypto.params.Blake3Parameters;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * Private WebSocket and private-read bearer tokens (spec 2.5, 5.7): {@code spws1.<payload>.<signature>}, both parts
 * base64url without padding. The payload is {@code account|apiKeyId|expiresAtMs|scope}; the signature is BLAKE3 in
 * keyed mode over {@code spws1.<payload>} under the venue's token key. A token names what obtained it (an agent
 * credential, or {@code wallet:<address>} for a wallet's signature), and the lane checks on every use that it still
 * holds: a revoked credential, or a vault owner that was replaced, ends its tokens. Thread safe.
 */
public final class WsTokens
{
    public static final String PREFIX = "spws1.";
    public static final String SCOPE = "private_ws:read";
    public static final long DEFAULT_TTL_MS = 180_000;
    public static final long MIN_TTL_MS = 60_000;
    public static final long MAX_TTL_MS = 300_000;

    /** What a valid token says. */
    public record Claims(String account, String apiKeyId, long expiresAtMs)
    {
    }

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final byte[] key;

    /** @param key 32 bytes. */
    public WsTokens(final byte[] key)
    {
        if (key.length != 32)
        {
            throw new IllegalArgumentException("the token key is 32 bytes");
        }
        this.key = key.clone();
    }

    /** The TTL a request asks for (0 = none) clamped to 60-300 s; none gives the default 180 s. */
    public static long clampTtl(final long requestedMs, final long defaultMs)
    {
        return Math.max(MIN_TTL_MS, Math.min(MAX_TTL_MS, requestedMs <= 0 ? defaultMs : requestedMs));
    }

    public String issue(final String account, final String apiKeyId, final long expiresAtMs)
    {
        final String payload = ENCODER.encodeToString((account + "|" + apiKeyId + "|" + expiresAtMs + "|" + SCOPE)
            .getBytes(StandardCharsets.US_ASCII));
        return PREFIX + payload + "." + ENCODER.encodeToString(sign(PREFIX + payload));
    }

    /** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
    public Claims verify(final String token, final long nowMs)
    {
        if (token == null || !token.startsWith(PREFIX) || token.length() > 512)
        {
            return null;
        }
        final int dot = token.indexOf('.', PREFIX.length());
        if (dot < 0 || token.indexOf('.', dot + 1) >= 0)
        {
            return null;
        }
        final byte[] signature;
        final String[] parts;
        try
        {
            signature = DECODER.decode(token.substring(dot + 1));
            parts = new String(DECODER.decode(token.substring(PREFIX.length(), dot)), StandardCharsets.US_ASCII)
                .split("\\|", -1);
        }
        catch (final IllegalArgumentException notBase64)
        {
            return null;
        }
        if (!MessageDigest.isEqual(signature, sign(token.substring(0, dot))) || parts.length != 4 ||
            !SCOPE.equals(parts[3]))
        {
            return null;
        }
        final long expiresAtMs;
        try
        {
            expiresAtMs = Long.parseLong(parts[2]);
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
        return nowMs < expiresAtMs ? new Claims(parts[0], parts[1], expiresAtMs) : null;
    }

    private byte[] sign(final String signed)
    {
        final Blake3Digest digest = new Blake3Digest(256);
        digest.init(Blake3Parameters.key(key));
        final byte[] bytes = signed.getBytes(StandardCharsets.US_ASCII);
        digest.update(bytes, 0, bytes.length);
        final byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }
}
