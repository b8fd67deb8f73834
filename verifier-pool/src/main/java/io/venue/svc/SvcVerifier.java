package io.venue.svc;

import io.venue.auth.Credentials;

import java.security.SecureRandom;
import java.util.function.Function;

/**
 * Authenticates one machine REST request (spec 5.4): SVC-* headers, the request parts, the timestamp skew, then the
 * credential and the signature over the signed string and, for version 2, the passphrase. Every outcome is a
 * {@link SvcAuthResult} with the field at fault and a message; nothing is thrown for any input.
 * <p>
 * An unknown key, a credential of the other kind and a signature that does not verify are told apart here (the journal
 * records which), but reached alike: the same checks before them, and a signature computed for an unknown key or a
 * credential of the other kind too, against a dummy credential of the version asked for, so that how long the answer
 * takes does not say which keys exist. The lanes answer the three alike ({@link SvcAuthResult#UNAUTHENTICATED}).
 * <p>
 * The signature is checked before the passphrase so that BAD_PASSPHRASE is only ever seen by someone
 * who holds the secret: it is no oracle for guessing passphrases.
 * <p>
 * The single-use nonce is not checked here: after OK, the thread that owns nonce state offers
 * {@code headers().nonce()} to a {@link SvcNonceTracker}.
 * <p>
 * Not thread-safe: one instance per verifier thread. Its own code allocates nothing once its buffers
 * have grown, except to key the Mac when the secret differs from the previous call's; the JDK Mac and
 * BouncyCastle's Ed25519 keep small temporaries of their own.
 */
public final class SvcVerifier
{
    /** Spec 8.5: 30 s either way, inclusive. */
    public static final long MAX_SKEW_MS = 30_000;

    private final SvcHeaders headers = new SvcHeaders();
    private final SvcCanonicalString canonical = new SvcCanonicalString();
    private final SvcHmacV2 hmac = new SvcHmacV2();
    private final SvcEd25519V3 ed25519 = new SvcEd25519V3();

    /** What a request naming no credential of its version is checked against: random keys no one holds. */
    private static final SvcCredential DUMMY_HMAC;
    private static final SvcCredential DUMMY_ED25519;

    static
    {
        final SecureRandom random = new SecureRandom();
        final String dummyId = Credentials.newApiKeyId(random);
        DUMMY_HMAC = SvcCredential.hmac(dummyId, Credentials.newApiSecret(random), Credentials.newPassphrase(random));
        final byte[] seed = new byte[SvcEd25519V3.SEED_LENGTH];
        random.nextBytes(seed);
        DUMMY_ED25519 = SvcCredential.ed25519(dummyId, SvcEd25519V3.publicKey(seed));
    }

    private SvcAuthResult result = SvcAuthResult.MISSING_HEADER;
    private String errorField = SvcHeaders.AUTH_VERSION;
    private String errorMessage = "nothing verified yet";

    /**
     * Parses the headers, looks the credential up by SVC-Key and verifies the request.
     *
     * @param headerLookup case-insensitive header names to values, null when absent.
     * @param credentials  SVC-Key to its credential, null when unknown, revoked or expired.
     * @param rawQuery     the query string without '?', or null.
     * @param body         the raw body, or null when empty.
     * @param nowMs        the server's clock, Unix milliseconds.
     */
    public SvcAuthResult verify(
        final Function<String, String> headerLookup,
        final Function<String, SvcCredential> credentials,
        final CharSequence method,
        final CharSequence path,
        final CharSequence rawQuery,
        final byte[] body,
        final int bodyOffset,
        final int bodyLength,
        final long nowMs)
    {
        if (headers.parse(headerLookup) != SvcAuthResult.OK)
        {
            return fail(headers.result(), headers.errorField(), headers.errorMessage());
        }
        return verify(
            headers, credentials.apply(headers.apiKeyId()), method, path, rawQuery, body, bodyOffset,
            bodyLength, nowMs);
    }

    /** As above with the whole array as body. */
    public SvcAuthResult verify(
        final Function<String, String> headerLookup,
        final Function<String, SvcCredential> credentials,
        final CharSequence method,
        final CharSequence path,
        final CharSequence rawQuery,
        final byte[] body,
        final long nowMs)
    {
        return verify(headerLookup, credentials, method, path, rawQuery, body, 0,
            body == null ? 0 : body.length, nowMs);
    }

    /**
     * Verifies a request whose headers are already parsed, against the credential looked up for
     * {@code parsed.apiKeyId()} (null when there is none).
     */
    public SvcAuthResult verify(
        final SvcHeaders parsed,
        final SvcCredential credential,
        final CharSequence method,
        final CharSequence path,
        final CharSequence rawQuery,
        final byte[] body,
        final int bodyOffset,
        final int bodyLength,
        final long nowMs)
    {
        if (!parsed.isValid())
        {
            return fail(parsed.result(), parsed.errorField(), parsed.errorMessage());
        }
        final boolean known = credential != null && credential.apiKeyId().equals(parsed.apiKeyId());
        final boolean sameKind = known && credential.version() == parsed.version();
        if (!isToken(method))
        {
            return fail(SvcAuthResult.MALFORMED_REQUEST, "method", "method must be visible ASCII, no space");
        }
        // A line feed in the path or query could move text between lines of the signed string.
        if (path == null || hasControl(path))
        {
            return fail(SvcAuthResult.MALFORMED_REQUEST, "path", "path must be present and hold no control character");
        }
        if (rawQuery != null && hasControl(rawQuery))
        {
            return fail(SvcAuthResult.MALFORMED_REQUEST, "query", "query must hold no control character");
        }
        if (body != null && (bodyOffset < 0 || bodyLength < 0 || bodyOffset > body.length - bodyLength))
        {
            return fail(SvcAuthResult.MALFORMED_REQUEST, "body", "body offset and length are outside the array");
        }
        if (!isWithinSkew(nowMs, parsed.timestampMs()))
        {
            return fail(SvcAuthResult.SKEW, SvcHeaders.TIMESTAMP,
                "SVC-Timestamp is more than 30000 ms away from the server clock");
        }

        final int length = canonical.encode(
            parsed.version(),
            parsed.apiKeyId(),
            parsed.nonce(),
            parsed.timestampMs(),
            method,
            path,
            rawQuery,
            body,
            body == null ? 0 : bodyOffset,
            body == null ? 0 : bodyLength);

        // an unknown key, or one of the other kind, costs a signature check too, against a key no one holds
        final SvcCredential against = sameKind ? credential :
            parsed.version() == SvcAuthVersion.HMAC_SHA256 ? DUMMY_HMAC : DUMMY_ED25519;
        final boolean signatureOk = parsed.version() == SvcAuthVersion.HMAC_SHA256 ?
            hmac.verify(against.apiSecret(), canonical.buffer(), 0, length, parsed.signatureBuffer(), 0) :
            ed25519.verify(against.publicKey(), canonical.buffer(), 0, length, parsed.signatureBuffer(), 0);
        if (!known)
        {
            return fail(SvcAuthResult.UNKNOWN_KEY, SvcHeaders.KEY, "SVC-Key names no active credential");
        }
        if (!sameKind)
        {
            return fail(SvcAuthResult.CREDENTIAL_MISMATCH, SvcHeaders.AUTH_VERSION, credential.version() ==
                SvcAuthVersion.HMAC_SHA256 ? "SVC-Key is an HMAC credential: use SVC-Auth-Version 2" :
                "SVC-Key is an Ed25519 credential: use SVC-Auth-Version 3");
        }
        if (!signatureOk)
        {
            return fail(SvcAuthResult.BAD_SIGNATURE, SvcHeaders.SIGNATURE,
                "SVC-Signature does not verify over the signed string");
        }
        if (parsed.version() == SvcAuthVersion.HMAC_SHA256 &&
            !SvcConstantTime.equals(parsed.passphrase(), credential.passphrase()))
        {
            return fail(SvcAuthResult.BAD_PASSPHRASE, SvcHeaders.PASSPHRASE,
                "SVC-Passphrase is not the key's passphrase");
        }

        result = SvcAuthResult.OK;
        errorField = null;
        errorMessage = null;
        return result;
    }

    /**
     * The headers of the last {@link #verify(Function, Function, CharSequence, CharSequence, CharSequence,
     * byte[], long)}.
     */
    public SvcHeaders headers()
    {
        return headers;
    }

    /**
     * The signed string the server built for the last request that reached the signature check; for an
     * error body that helps a client find its mismatch. Allocates.
     */
    public String lastSignedString()
    {
        return canonical.toString();
    }

    public SvcAuthResult result()
    {
        return result;
    }

    /** The SVC-* header at fault, or "method", "path", "query", "body"; null after OK. */
    public String errorField()
    {
        return errorField;
    }

    /** What is wrong; never quotes a secret. Null after OK. */
    public String errorMessage()
    {
        return errorMessage;
    }

    /** |now - timestamp| <= 30000 ms, without overflow for any two longs. */
    public static boolean isWithinSkew(final long nowMs, final long timestampMs)
    {
        final long diff = nowMs - timestampMs;
        if (((nowMs ^ timestampMs) & (nowMs ^ diff)) < 0)
        {
            return false;
        }
        return diff >= -MAX_SKEW_MS && diff <= MAX_SKEW_MS;
    }

    private SvcAuthResult fail(final SvcAuthResult code, final String field, final String message)
    {
        result = code;
        errorField = field;
        errorMessage = message;
        return code;
    }

    private static boolean isToken(final CharSequence method)
    {
        if (method == null || method.length() == 0)
        {
            return false;
        }
        for (int i = 0, n = method.length(); i < n; i++)
        {
            final char c = method.charAt(i);
            if (c <= 0x20 || c >= 0x7F)
            {
                return false;
            }
        }
        return true;
    }

    private static boolean hasControl(final CharSequence text)
    {
        for (int i = 0, n = text.length(); i < n; i++)
        {
            final char c = text.charAt(i);
            if (c < 0x20 || c == 0x7F)
            {
                return true;
            }
        }
        return false;
    }
}
