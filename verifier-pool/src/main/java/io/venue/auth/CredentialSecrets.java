package io.venue.auth;

import io.venue.codec.Hex;
import io.venue.svc.SvcCredential;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The secrets behind an HMAC agent's credential, derived from one version of the venue's credential key and the
 * credential's API key id: {@code sps_} = HMAC-SHA256(key, "sps:" + id), {@code spp_} = the first 16 bytes of
 * HMAC-SHA256(key, "spp:" + id). So no secret is stored anywhere (journal, maps, logs): the journal holds only the key
 * id, and the lane derives the secret again when a request names it. The WS-token signing key is derived the same way.
 * <p>
 * The key is versioned so that it can be rotated: a credential keeps the version it was issued under (its id's first
 * byte from journal version 8 on, version 1 before), new credentials and tokens derive from the current version (the
 * highest). A credential whose version is no longer held stops working; nothing else does.
 * <p>
 * Whoever holds a version of the credential key can derive every secret issued under it: it is configuration, kept
 * like a private key (docs/OPERATIONS.md). Thread safe.
 */
public final class CredentialSecrets
{
    public static final int KEY_LENGTH = 32;
    /** Versions are 1 to 255: one byte of the credential id. */
    public static final int MAX_VERSION = 255;

    private final byte[][] keys = new byte[MAX_VERSION + 1][];
    private final int current;

    /**
     * A key set of version 1 alone: the key of a deployment before versions.
     *
     * @param key 32 bytes from the deployment's configuration.
     */
    public CredentialSecrets(final byte[] key)
    {
        this(Map.of(1, key));
    }

    /**
     * @param keys each version (1 to {@link #MAX_VERSION}) to its 32 bytes; the highest is current.
     */
    public CredentialSecrets(final Map<Integer, byte[]> keys)
    {
        if (keys.isEmpty())
        {
            throw new IllegalArgumentException("the credential key set holds no version");
        }
        for (final Map.Entry<Integer, byte[]> entry : new TreeMap<>(keys).entrySet())
        {
            final int version = entry.getKey();
            final byte[] key = entry.getValue();
            if (version < 1 || version > MAX_VERSION)
            {
                throw new IllegalArgumentException("a credential key version is 1 to " + MAX_VERSION + ", not " +
                    version);
            }
            if (key == null || key.length != KEY_LENGTH)
            {
                throw new IllegalArgumentException("the credential key is " + KEY_LENGTH + " bytes (version " +
                    version + ")");
            }
            this.keys[version] = key.clone();
        }
        current = new TreeMap<>(keys).lastKey();
    }

    /** The version new credentials and tokens derive from: the highest held. */
    public int currentVersion()
    {
        return current;
    }

    /** Whether {@code version} is held, so its credentials work. */
    public boolean holds(final int version)
    {
        return version >= 1 && version <= MAX_VERSION && keys[version] != null;
    }

    /** The versions held, ascending. */
    public SortedSet<Integer> versions()
    {
        final SortedSet<Integer> versions = new TreeSet<>();
        for (int version = 1; version <= MAX_VERSION; version++)
        {
            if (keys[version] != null)
            {
                versions.add(version);
            }
        }
        return versions;
    }

    /** {@code sps_} and 64 hex digits, under the current version. */
    public String apiSecret(final String apiKeyId)
    {
        return apiSecret(apiKeyId, current);
    }

    /** {@code sps_} and 64 hex digits, under key {@code version}. */
    public String apiSecret(final String apiKeyId, final int version)
    {
        return Credentials.API_SECRET_PREFIX + Hex.toHex(derive(version, "sps:" + apiKeyId));
    }

    /** {@code spp_} and 32 hex digits, under the current version. */
    public String passphrase(final String apiKeyId)
    {
        return passphrase(apiKeyId, current);
    }

    /** {@code spp_} and 32 hex digits, under key {@code version}. */
    public String passphrase(final String apiKeyId, final int version)
    {
        return Credentials.PASSPHRASE_PREFIX +
            Hex.toHex(Arrays.copyOf(derive(version, "spp:" + apiKeyId), Credentials.PASSPHRASE_BYTES));
    }

    /** What the SVC verifier needs for an HMAC credential (auth version 2) issued under key {@code version}. */
    public SvcCredential hmacCredential(final String apiKeyId, final int version)
    {
        return SvcCredential.hmac(apiKeyId, apiSecret(apiKeyId, version), passphrase(apiKeyId, version));
    }

    /**
     * The API key id of the credential an owner intent creates (an agent's creation or a rotation), under the current
     * version: its first byte the version, the other 7 the first bytes of HMAC-SHA256(key, "spk:" + the intent's digest
     * in hex). The same signed intent always names the same credential, so a lane can tell, from the id alone, whether
     * a body sent again is one the engine already applied, and deliver that credential again to its requester.
     */
    public String apiKeyIdFor(final byte[] intentDigest)
    {
        final byte[] id =
            Arrays.copyOf(derive(current, "spk:" + Hex.toHex(intentDigest)), Credentials.API_KEY_ID_BYTES);
        System.arraycopy(id, 0, id, 1, id.length - 1);
        id[0] = (byte)current;
        return Credentials.API_KEY_ID_PREFIX + Hex.toHex(id);
    }

    /**
     * The 32-byte key that signs private WebSocket tokens, under the current version: tokens live minutes, so those
     * signed before a new version became current end with the restart that made it so.
     */
    public byte[] tokenKey()
    {
        return derive(current, "spws1:token-key");
    }

    private byte[] derive(final int version, final String label)
    {
        if (!holds(version))
        {
            throw new IllegalStateException("no credential key version " + version);
        }
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(keys[version], "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.US_ASCII));
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", ex);
        }
    }
}
