package io.venue.svc;

import io.venue.auth.Credentials;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client side of machine auth: builds the SVC-* headers of a request for one credential. For tools,
 * load generators and tests. Not thread-safe.
 */
public final class SvcRequestSigner
{
    private final SvcAuthVersion version;
    private final String apiKeyId;
    private final String apiSecret;
    private final String passphrase;
    private final byte[] seed;
    private final SvcCanonicalString canonical = new SvcCanonicalString();
    private SvcHmacV2 hmac;
    private SvcEd25519V3 ed25519;

    private SvcRequestSigner(
        final SvcAuthVersion version,
        final String apiKeyId,
        final String apiSecret,
        final String passphrase,
        final byte[] seed)
    {
        if (!Credentials.isApiKeyId(apiKeyId))
        {
            throw new IllegalArgumentException("API key id must be spk_ followed by 16 lowercase hex digits");
        }
        this.version = version;
        this.apiKeyId = apiKeyId;
        this.apiSecret = apiSecret;
        this.passphrase = passphrase;
        this.seed = seed;
    }

    /** Auth version 2 with the secret and passphrase as issued. */
    public static SvcRequestSigner hmac(final String apiKeyId, final String apiSecret, final String passphrase)
    {
        final SvcRequestSigner signer = new SvcRequestSigner(
            SvcAuthVersion.HMAC_SHA256, apiKeyId, apiSecret, passphrase, null);
        signer.hmac = new SvcHmacV2();
        return signer;
    }

    /** Auth version 3 with the 32-byte Ed25519 private seed. */
    public static SvcRequestSigner ed25519(final String apiKeyId, final byte[] seed)
    {
        if (seed == null || seed.length != SvcEd25519V3.SEED_LENGTH)
        {
            throw new IllegalArgumentException("seed must be 32 bytes");
        }
        final SvcRequestSigner signer = new SvcRequestSigner(SvcAuthVersion.ED25519, apiKeyId, null,
            null, seed.clone());
        signer.ed25519 = new SvcEd25519V3();
        return signer;
    }

    /**
     * The headers to send, in the order of spec 5.4 (no SVC-Passphrase for version 3).
     *
     * @param nonce    a u64, strictly above the previous one of this key.
     * @param rawQuery the query without '?', or null.
     * @param body     the raw body, or null when empty.
     */
    public Map<String, String> sign(
        final long nonce,
        final long timestampMs,
        final String method,
        final String path,
        final String rawQuery,
        final byte[] body)
    {
        final int length = canonical.encode(
            version, apiKeyId, nonce, timestampMs, method, path, rawQuery, body, 0, body == null ? 0 : body.length);
        final String signature = version == SvcAuthVersion.HMAC_SHA256 ?
            hmac.sign(apiSecret, canonical.buffer(), 0, length) :
            ed25519.sign(seed, canonical.buffer(), 0, length);

        final Map<String, String> headers = new LinkedHashMap<>();
        headers.put(SvcHeaders.AUTH_VERSION, Integer.toString(version.number()));
        headers.put(SvcHeaders.KEY, apiKeyId);
        headers.put(SvcHeaders.NONCE, Long.toUnsignedString(nonce));
        headers.put(SvcHeaders.TIMESTAMP, Long.toString(timestampMs));
        if (version == SvcAuthVersion.HMAC_SHA256)
        {
            headers.put(SvcHeaders.PASSPHRASE, passphrase);
        }
        headers.put(SvcHeaders.SIGNATURE, signature);
        return headers;
    }

    /** The signed string of the last {@link #sign}; for debugging a mismatch. */
    public String lastSignedString()
    {
        return canonical.toString();
    }
}
