package io.venue.auth;

import io.venue.codec.Hex;
import io.venue.svc.SvcCredential;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * The secrets behind an HMAC agent's credential, derived from the venue's credential key and the credential's API
 * key id: {@code sps_} = HMAC-SHA256(key, "sps:" + id), {@code spp_} = the first 16 bytes of HMAC-SHA256(key,
 * "spp:" + id). So no secret is stored anywhere (journal, maps, logs): the journal holds only the key id, and the
 * lane derives the secret again when a request names it. The WS-token signing key is derived the same way.
 * <p>
 * Whoever holds the credential key can derive every secret: it is configuration, kept like a private key
 * (docs/OPERATIONS.md). Changing it invalidates every HMAC credential and every WS token. Thread safe.
 */
public final class CredentialSecrets
{
    public static final int KEY_LENGTH = 32;

    private final byte[] key;

    /**
     * @param key 32 bytes from the deployment's configuration.
     */
    public CredentialSecrets(final byte[] key)
    {
        if (key == null || key.length != KEY_LENGTH)
        {
            throw new IllegalArgumentException("the credential key is " + KEY_LENGTH + " bytes");
        }
        this.key = key.clone();
    }

    /** {@code sps_} and 64 hex digits. */
    public String apiSecret(final String apiKeyId)
    {
        return Credentials.API_SECRET_PREFIX + Hex.toHex(derive("sps:" + apiKeyId));
    }

    /** {@code spp_} and 32 hex digits. */
    public String passphrase(final String apiKeyId)
    {
        return Credentials.PASSPHRASE_PREFIX +
            Hex.toHex(Arrays.copyOf(derive("spp:" + apiKeyId), Credentials.PASSPHRASE_BYTES));
    }

    /** What the SVC verifier needs for an HMAC credential (auth version 2). */
    public SvcCredential hmacCredential(final String apiKeyId)
    {
        return SvcCredential.hmac(apiKeyId, apiSecret(apiKeyId), passphrase(apiKeyId));
    }

    /** The 32-byte key that signs private WebSocket tokens. */
    public byte[] tokenKey()
    {
        return derive("spws1:token-key");
    }

    private byte[] derive(final String label)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.US_ASCII));
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", ex);
        }
    }
}
