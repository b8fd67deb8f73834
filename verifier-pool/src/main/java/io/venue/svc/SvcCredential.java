package io.venue.svc;

import io.venue.auth.Credentials;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * What the server holds for one API key, as the credential lookup returns it: the secret and passphrase
 * of an HMAC credential (auth version 2), or the public key of an Ed25519 credential (auth version 3).
 * Immutable and checked once here, so verification never meets a malformed credential. Keep one
 * instance per key: {@link SvcHmacV2} rekeys only when the secret instance changes.
 */
public final class SvcCredential
{
    private final SvcAuthVersion version;
    private final String apiKeyId;
    private final String apiSecret;
    private final String passphrase;
    private final Ed25519PublicKeyParameters publicKey;

    private SvcCredential(
        final SvcAuthVersion version,
        final String apiKeyId,
        final String apiSecret,
        final String passphrase,
        final Ed25519PublicKeyParameters publicKey)
    {
        this.version = version;
        this.apiKeyId = apiKeyId;
        this.apiSecret = apiSecret;
        this.passphrase = passphrase;
        this.publicKey = publicKey;
    }

    /**
     * @throws IllegalArgumentException unless the three values have their spk_, sps_ and spp_ formats.
     */
    public static SvcCredential hmac(final String apiKeyId, final String apiSecret, final String passphrase)
    {
        requireKeyId(apiKeyId);
        if (!Credentials.isApiSecret(apiSecret))
        {
            throw new IllegalArgumentException("API secret must be sps_ followed by 64 lowercase hex digits");
        }
        if (!Credentials.isPassphrase(passphrase))
        {
            throw new IllegalArgumentException("passphrase must be spp_ followed by 32 lowercase hex digits");
        }
        return new SvcCredential(SvcAuthVersion.HMAC_SHA256, apiKeyId, apiSecret, passphrase, null);
    }

    /**
     * @throws IllegalArgumentException unless the key id is spk_ and the key 32 bytes on the curve.
     */
    public static SvcCredential ed25519(final String apiKeyId, final byte[] publicKey)
    {
        requireKeyId(apiKeyId);
        final Ed25519PublicKeyParameters key = SvcEd25519V3.parsePublicKey(publicKey);
        if (key == null)
        {
            throw new IllegalArgumentException("Ed25519 public key must be 32 bytes encoding a curve point");
        }
        return new SvcCredential(SvcAuthVersion.ED25519, apiKeyId, null, null, key);
    }

    /** The auth version this credential signs with. */
    public SvcAuthVersion version()
    {
        return version;
    }

    public String apiKeyId()
    {
        return apiKeyId;
    }

    /** A copy of the Ed25519 public key; null for an HMAC credential. */
    public byte[] publicKeyBytes()
    {
        return publicKey == null ? null : publicKey.getEncoded();
    }

    /**
     * Whether a session logon's secret and passphrase (a FIX Logon's Password, a TCP login) are this HMAC credential's,
     * compared in constant time; always false for an Ed25519 credential, whose holder never shows a secret.
     */
    public boolean matchesSecret(final String secret, final String passphrase)
    {
        if (version != SvcAuthVersion.HMAC_SHA256 || secret == null || passphrase == null)
        {
            return false;
        }
        final boolean secretMatches = MessageDigest.isEqual(
            apiSecret.getBytes(StandardCharsets.UTF_8), secret.getBytes(StandardCharsets.UTF_8));
        final boolean passphraseMatches = MessageDigest.isEqual(
            this.passphrase.getBytes(StandardCharsets.UTF_8),
            passphrase.getBytes(StandardCharsets.UTF_8));
        return secretMatches & passphraseMatches;
    }

    String apiSecret()
    {
        return apiSecret;
    }

    String passphrase()
    {
        return passphrase;
    }

    Ed25519PublicKeyParameters publicKey()
    {
        return publicKey;
    }

    /** Names the key and version only: secrets never reach a log. */
    @Override
    public String toString()
    {
        return "SvcCredential{" + apiKeyId + ", version " + version.number() + "}";
    }

    private static void requireKeyId(final String apiKeyId)
    {
        if (!Credentials.isApiKeyId(apiKeyId))
        {
            throw new IllegalArgumentException("API key id must be spk_ followed by 16 lowercase hex digits");
        }
    }
}
