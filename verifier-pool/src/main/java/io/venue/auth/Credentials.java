package io.venue.auth;

import io.venue.codec.Hex;

import java.security.SecureRandom;

/**
 * The three credential strings of an HMAC agent (spec 2.5): the API key id {@code spk_} + 16 hex, the API
 * secret {@code sps_} + 64 hex and the passphrase {@code spp_} + 32 hex, all lowercase. Ed25519 agents
 * get only an API key id.
 */
public final class Credentials
{
    public static final String API_KEY_ID_PREFIX = "spk_";
    public static final String API_SECRET_PREFIX = "sps_";
    public static final String PASSPHRASE_PREFIX = "spp_";

    /** Random bytes behind each credential: hex doubles them. */
    public static final int API_KEY_ID_BYTES = 8;
    public static final int API_SECRET_BYTES = 32;
    public static final int PASSPHRASE_BYTES = 16;

    /** Total lengths in characters, prefix included. */
    public static final int API_KEY_ID_LENGTH = 4 + 2 * API_KEY_ID_BYTES;
    public static final int API_SECRET_LENGTH = 4 + 2 * API_SECRET_BYTES;
    public static final int PASSPHRASE_LENGTH = 4 + 2 * PASSPHRASE_BYTES;

    private Credentials()
    {
    }

    public static String newApiKeyId(final SecureRandom random)
    {
        return generate(random, API_KEY_ID_PREFIX, API_KEY_ID_BYTES);
    }

    /**
     * A new API key id whose first byte is {@code keyVersion}, the credential key version its secret derives from
     * (journal version 8 on: JOURNAL-SCHEMA.md section 9); the other 7 bytes are random.
     */
    public static String newApiKeyId(final SecureRandom random, final int keyVersion)
    {
        if (keyVersion < 1 || keyVersion > CredentialSecrets.MAX_VERSION)
        {
            throw new IllegalArgumentException("a credential key version is 1 to " + CredentialSecrets.MAX_VERSION);
        }
        final byte[] bytes = new byte[API_KEY_ID_BYTES];
        random.nextBytes(bytes);
        bytes[0] = (byte)keyVersion;
        return API_KEY_ID_PREFIX + Hex.toHex(bytes);
    }

    public static String newApiSecret(final SecureRandom random)
    {
        return generate(random, API_SECRET_PREFIX, API_SECRET_BYTES);
    }

    public static String newPassphrase(final SecureRandom random)
    {
        return generate(random, PASSPHRASE_PREFIX, PASSPHRASE_BYTES);
    }

    public static boolean isApiKeyId(final CharSequence text)
    {
        return isPrefixedHex(text, API_KEY_ID_PREFIX, 2 * API_KEY_ID_BYTES);
    }

    public static boolean isApiSecret(final CharSequence text)
    {
        return isPrefixedHex(text, API_SECRET_PREFIX, 2 * API_SECRET_BYTES);
    }

    public static boolean isPassphrase(final CharSequence text)
    {
        return isPrefixedHex(text, PASSPHRASE_PREFIX, 2 * PASSPHRASE_BYTES);
    }

    /** True when {@code text} is exactly {@code prefix} followed by {@code hexDigits} lowercase hex digits. */
    static boolean isPrefixedHex(final CharSequence text, final String prefix, final int hexDigits)
    {
        if (text == null || text.length() != prefix.length() + hexDigits)
        {
            return false;
        }
        for (int i = 0, n = prefix.length(); i < n; i++)
        {
            if (text.charAt(i) != prefix.charAt(i))
            {
                return false;
            }
        }
        for (int i = prefix.length(), n = text.length(); i < n; i++)
        {
            if (Hex.lowerDigit(text.charAt(i)) < 0)
            {
                return false;
            }
        }
        return true;
    }

    private static String generate(final SecureRandom random, final String prefix, final int byteCount)
    {
        final byte[] bytes = new byte[byteCount];
        random.nextBytes(bytes);
        return prefix + Hex.toHex(bytes);
    }
}
