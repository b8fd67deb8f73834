package io.venue.svc;

import io.venue.auth.Credentials;
import io.venue.codec.Hex;

import java.util.Arrays;
import java.util.function.Function;

/**
 * The SVC-* headers of one machine request (spec 5.4), parsed and checked in a fixed order: version,
 * key, nonce, timestamp, passphrase, signature. The first problem is kept as a {@link SvcAuthResult},
 * the header's name and a message; nothing is thrown.
 * <p>
 * The lookup must match header names case-insensitively and return null for an absent header (Netty's
 * {@code HttpHeaders::get} does both). Reused between requests: not thread-safe, and the values are
 * those of the last {@link #parse(Function)}.
 */
public final class SvcHeaders
{
    public static final String AUTH_VERSION = "SVC-Auth-Version";
    public static final String KEY = "SVC-Key";
    public static final String NONCE = "SVC-Nonce";
    public static final String TIMESTAMP = "SVC-Timestamp";
    public static final String PASSPHRASE = "SVC-Passphrase";
    public static final String SIGNATURE = "SVC-Signature";

    /** 2^64 - 1 read as unsigned: never a valid nonce, so it can mean "no nonce yet". */
    public static final long RESERVED_NONCE = -1L;
    private static final String MAX_U64 = "18446744073709551615";
    private static final String MAX_S64 = "9223372036854775807";

    private static final int MAX_SIGNATURE_LENGTH = 64;

    private final byte[] signature = new byte[MAX_SIGNATURE_LENGTH];
    private SvcAuthVersion version;
    private String apiKeyId;
    private long nonce;
    private long timestampMs;
    private String passphrase;
    private String signatureText;

    private SvcAuthResult result = SvcAuthResult.MISSING_HEADER;
    private String errorField = AUTH_VERSION;
    private String errorMessage = "no headers parsed yet";

    /**
     * Reads and checks every SVC-* header.
     *
     * @return {@link SvcAuthResult#OK} or the first problem, also kept in {@link #result()}.
     */
    public SvcAuthResult parse(final Function<String, String> lookup)
    {
        clear();

        final String versionText = lookup.apply(AUTH_VERSION);
        if (versionText == null)
        {
            return fail(SvcAuthResult.MISSING_HEADER, AUTH_VERSION, "SVC-Auth-Version header is missing");
        }
        if ("2".equals(versionText))
        {
            version = SvcAuthVersion.HMAC_SHA256;
        }
        else if ("3".equals(versionText))
        {
            version = SvcAuthVersion.ED25519;
        }
        else if (isStrictDecimal(versionText))
        {
            return fail(SvcAuthResult.UNSUPPORTED_AUTH_VERSION, AUTH_VERSION,
                "SVC-Auth-Version must be 2 (HMAC-SHA256) or 3 (Ed25519)");
        }
        else
        {
            return fail(SvcAuthResult.INVALID_HEADER, AUTH_VERSION,
                "SVC-Auth-Version must be the decimal 2 or 3, nothing around it");
        }

        final String key = lookup.apply(KEY);
        if (key == null)
        {
            return fail(SvcAuthResult.MISSING_HEADER, KEY, "SVC-Key header is missing");
        }
        if (!Credentials.isApiKeyId(key))
        {
            return fail(SvcAuthResult.INVALID_HEADER, KEY, "SVC-Key must be spk_ followed by 16 lowercase hex digits");
        }
        apiKeyId = key;

        final String nonceText = lookup.apply(NONCE);
        if (nonceText == null)
        {
            return fail(SvcAuthResult.MISSING_HEADER, NONCE, "SVC-Nonce header is missing");
        }
        if (!isStrictDecimal(nonceText))
        {
            return fail(SvcAuthResult.INVALID_HEADER, NONCE,
                "SVC-Nonce must be an unsigned decimal: digits only, no sign, no leading zero, no whitespace");
        }
        final int nonceCompare = compareDecimal(nonceText, MAX_U64);
        if (nonceCompare > 0)
        {
            return fail(SvcAuthResult.NONCE_OUT_OF_RANGE, NONCE, "SVC-Nonce must be at most 18446744073709551614");
        }
        if (nonceCompare == 0)
        {
            return fail(SvcAuthResult.NONCE_RESERVED, NONCE,
                "SVC-Nonce 18446744073709551615 is reserved: rotate the credential");
        }
        nonce = parseUnsigned(nonceText);

        final String timestampText = lookup.apply(TIMESTAMP);
        if (timestampText == null)
        {
            return fail(SvcAuthResult.MISSING_HEADER, TIMESTAMP, "SVC-Timestamp header is missing");
        }
        if (!isStrictDecimal(timestampText) || compareDecimal(timestampText, MAX_S64) > 0)
        {
            return fail(SvcAuthResult.INVALID_HEADER, TIMESTAMP,
                "SVC-Timestamp must be Unix milliseconds as a decimal: digits only, no sign, no leading zero");
        }
        timestampMs = parseUnsigned(timestampText);

        final String passphraseText = lookup.apply(PASSPHRASE);
        if (version == SvcAuthVersion.HMAC_SHA256)
        {
            if (passphraseText == null)
            {
                return fail(SvcAuthResult.MISSING_HEADER, PASSPHRASE,
                    "SVC-Passphrase header is required for auth version 2");
            }
            if (!Credentials.isPassphrase(passphraseText))
            {
                return fail(SvcAuthResult.INVALID_HEADER, PASSPHRASE,
                    "SVC-Passphrase must be spp_ followed by 32 lowercase hex digits");
            }
            passphrase = passphraseText;
        }
        else if (passphraseText != null)
        {
            return fail(SvcAuthResult.PASSPHRASE_NOT_ALLOWED, PASSPHRASE,
                "SVC-Passphrase must be absent for auth version 3 (Ed25519)");
        }

        final String signatureValue = lookup.apply(SIGNATURE);
        if (signatureValue == null)
        {
            return fail(SvcAuthResult.MISSING_HEADER, SIGNATURE, "SVC-Signature header is missing");
        }
        if (!decodeSignature(signatureValue, version.signatureLength()))
        {
            return fail(SvcAuthResult.INVALID_HEADER, SIGNATURE, version == SvcAuthVersion.HMAC_SHA256 ?
                "SVC-Signature must be 0x followed by 64 lowercase hex digits for auth version 2" :
                "SVC-Signature must be 0x followed by 128 lowercase hex digits for auth version 3");
        }
        signatureText = signatureValue;

        result = SvcAuthResult.OK;
        errorField = null;
        errorMessage = null;
        return result;
    }

    public boolean isValid()
    {
        return result == SvcAuthResult.OK;
    }

    /** {@link SvcAuthResult#OK} or the first problem of the last parse. */
    public SvcAuthResult result()
    {
        return result;
    }

    /** The name of the header at fault, or null when valid. */
    public String errorField()
    {
        return errorField;
    }

    /** What is wrong, naming the header and its rule; null when valid. Never quotes the value. */
    public String errorMessage()
    {
        return errorMessage;
    }

    /** The auth version; null when SVC-Auth-Version was missing or invalid. */
    public SvcAuthVersion version()
    {
        return version;
    }

    /** The spk_ key id; null until SVC-Key has been checked. */
    public String apiKeyId()
    {
        return apiKeyId;
    }

    /** The nonce as a u64 bit pattern: compare with {@link Long#compareUnsigned}. */
    public long nonce()
    {
        return nonce;
    }

    public long timestampMs()
    {
        return timestampMs;
    }

    /** The spp_ passphrase for version 2; null for version 3. */
    public String passphrase()
    {
        return passphrase;
    }

    /** The SVC-Signature header as sent; null unless valid. */
    public String signatureText()
    {
        return signatureText;
    }

    /** The decoded signature is {@code signatureBuffer()[0, version().signatureLength())}. */
    byte[] signatureBuffer()
    {
        return signature;
    }

    /** A copy of the decoded signature; empty unless valid. */
    public byte[] signature()
    {
        return isValid() ? Arrays.copyOf(signature, version.signatureLength()) : new byte[0];
    }

    private void clear()
    {
        version = null;
        apiKeyId = null;
        nonce = 0;
        timestampMs = 0;
        passphrase = null;
        signatureText = null;
    }

    private SvcAuthResult fail(final SvcAuthResult code, final String field, final String message)
    {
        result = code;
        errorField = field;
        errorMessage = message;
        return code;
    }

    private boolean decodeSignature(final String text, final int byteLength)
    {
        if (text.length() != 2 + 2 * byteLength || text.charAt(0) != '0' || text.charAt(1) != 'x')
        {
            return false;
        }
        for (int i = 0; i < byteLength; i++)
        {
            final int hi = Hex.lowerDigit(text.charAt(2 + 2 * i));
            final int lo = Hex.lowerDigit(text.charAt(3 + 2 * i));
            if (hi < 0 || lo < 0)
            {
                return false;
            }
            signature[i] = (byte)((hi << 4) | lo);
        }
        return true;
    }

    /** One or more ASCII digits, no leading zero unless the value is "0". */
    static boolean isStrictDecimal(final CharSequence text)
    {
        final int length = text.length();
        if (length == 0 || (length > 1 && text.charAt(0) == '0'))
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            final char c = text.charAt(i);
            if (c < '0' || c > '9')
            {
                return false;
            }
        }
        return true;
    }

    /** Compares two strict decimals by value: more digits is larger, same length compares digit by digit. */
    static int compareDecimal(final CharSequence a, final String b)
    {
        if (a.length() != b.length())
        {
            return a.length() < b.length() ? -1 : 1;
        }
        for (int i = 0, n = a.length(); i < n; i++)
        {
            final int diff = a.charAt(i) - b.charAt(i);
            if (diff != 0)
            {
                return diff;
            }
        }
        return 0;
    }

    /** A strict decimal known to be at most 2^64 - 1; the result wraps into the u64 bit pattern. */
    static long parseUnsigned(final CharSequence text)
    {
        long value = 0;
        for (int i = 0, n = text.length(); i < n; i++)
        {
            value = value * 10 + (text.charAt(i) - '0');
        }
        return value;
    }
}
