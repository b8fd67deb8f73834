package io.venue.svc;

import io.venue.codec.Hex;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Builds the string a machine client signs (spec 5.4), as UTF-8 bytes in a reused buffer: eight lines
 * joined with '\n' and no final line feed (our decision, DESIGN.md section 6).
 *
 * <pre>
 * SERVICE-HMAC-V2 | SERVICE-ED25519-V1
 * svc-key:&lt;apiKeyId&gt;
 * svc-nonce:&lt;unsigned decimal&gt;
 * svc-timestamp:&lt;ms&gt;
 * method:&lt;METHOD, ASCII letters upper-cased&gt;
 * path:&lt;path without query&gt;
 * query:&lt;canonical query&gt;
 * body-sha256:&lt;lowercase hex&gt;
 * </pre>
 *
 * The canonical query splits the raw query on '&amp;', drops empty parts, sorts the rest by their UTF-8
 * bytes (unsigned, shorter prefix first; nothing is percent-decoded) and rejoins them with '&amp;'.
 * <p>
 * Not thread-safe: one instance per thread. Encoding allocates nothing once the buffers have grown to
 * the largest request seen.
 */
public final class SvcCanonicalString
{
    private static final byte[] KEY = ascii("\nsvc-key:");
    private static final byte[] NONCE = ascii("\nsvc-nonce:");
    private static final byte[] TIMESTAMP = ascii("\nsvc-timestamp:");
    private static final byte[] METHOD = ascii("\nmethod:");
    private static final byte[] PATH = ascii("\npath:");
    private static final byte[] QUERY = ascii("\nquery:");
    private static final byte[] BODY = ascii("\nbody-sha256:");
    private static final int SHA256_LENGTH = 32;

    private final MessageDigest sha256;
    private final byte[] bodyDigest = new byte[SHA256_LENGTH];
    private byte[] buffer = new byte[512];
    private int length;

    private byte[] query = new byte[128];
    private int[] partStart = new int[16];
    private int[] partLength = new int[16];

    public SvcCanonicalString()
    {
        try
        {
            sha256 = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every Java runtime has SHA-256", ex);
        }
    }

    /**
     * Encodes the signed string into {@link #buffer()}.
     *
     * @param nonce       a u64, written unsigned.
     * @param rawQuery    the query string without '?', or null for none.
     * @param body        the raw body bytes, or null for an empty body.
     * @return the length of the string in bytes.
     */
    public int encode(
        final SvcAuthVersion version,
        final CharSequence apiKeyId,
        final long nonce,
        final long timestampMs,
        final CharSequence method,
        final CharSequence path,
        final CharSequence rawQuery,
        final byte[] body,
        final int bodyOffset,
        final int bodyLength)
    {
        length = 0;
        put(version.versionLineBytes());
        put(KEY);
        putUtf8(apiKeyId);
        put(NONCE);
        putUnsigned(nonce);
        put(TIMESTAMP);
        putSigned(timestampMs);
        put(METHOD);
        putUpperCase(method);
        put(PATH);
        putUtf8(path);
        put(QUERY);
        putCanonicalQuery(rawQuery);
        put(BODY);
        putBodyDigest(body, bodyOffset, bodyLength);
        return length;
    }

    /** The encoded bytes are {@code buffer()[0, length())}; the array may be replaced by the next encode. */
    public byte[] buffer()
    {
        return buffer;
    }

    public int length()
    {
        return length;
    }

    /** The last encoded string; allocates, for tools, tests and error bodies. */
    @Override
    public String toString()
    {
        return new String(buffer, 0, length, StandardCharsets.UTF_8);
    }

    /** Convenience for clients and tests: the signed string of one request. Allocates. */
    public static String of(
        final SvcAuthVersion version,
        final String apiKeyId,
        final long nonce,
        final long timestampMs,
        final String method,
        final String path,
        final String rawQuery,
        final byte[] body)
    {
        final SvcCanonicalString canonical = new SvcCanonicalString();
        canonical.encode(
            version, apiKeyId, nonce, timestampMs, method, path, rawQuery, body, 0, body == null ? 0 : body.length);
        return canonical.toString();
    }

    /** The canonical form of a raw query alone. Allocates. */
    public static String canonicalQuery(final CharSequence rawQuery)
    {
        final SvcCanonicalString canonical = new SvcCanonicalString();
        canonical.putCanonicalQuery(rawQuery);
        return canonical.toString();
    }

    private void putCanonicalQuery(final CharSequence rawQuery)
    {
        if (rawQuery == null || rawQuery.length() == 0)
        {
            return;
        }

        query = grow(query, 3 * rawQuery.length());
        final int end = utf8(rawQuery, query, 0);

        // '&' never occurs inside a multi-byte UTF-8 sequence, so splitting the bytes is safe.
        int parts = 0;
        int start = 0;
        for (int i = 0; i <= end; i++)
        {
            if (i == end || query[i] == '&')
            {
                if (i > start)
                {
                    if (parts == partStart.length)
                    {
                        partStart = Arrays.copyOf(partStart, parts * 2);
                        partLength = Arrays.copyOf(partLength, parts * 2);
                    }
                    partStart[parts] = start;
                    partLength[parts] = i - start;
                    parts++;
                }
                start = i + 1;
            }
        }

        sortParts(parts);

        ensure(end);
        for (int p = 0; p < parts; p++)
        {
            if (p > 0)
            {
                buffer[length++] = '&';
            }
            System.arraycopy(query, partStart[p], buffer, length, partLength[p]);
            length += partLength[p];
        }
    }

    /** Heap sort: O(n log n) whatever the input, so a query of many parts cannot make it quadratic. */
    private void sortParts(final int parts)
    {
        for (int i = parts / 2 - 1; i >= 0; i--)
        {
            siftDown(i, parts);
        }
        for (int last = parts - 1; last > 0; last--)
        {
            swap(0, last);
            siftDown(0, last);
        }
    }

    private void siftDown(final int from, final int size)
    {
        int parent = from;
        while (true)
        {
            final int left = 2 * parent + 1;
            if (left >= size)
            {
                return;
            }
            final int right = left + 1;
            final int larger = right < size && compareParts(right, left) > 0 ? right : left;
            if (compareParts(larger, parent) <= 0)
            {
                return;
            }
            swap(parent, larger);
            parent = larger;
        }
    }

    private int compareParts(final int a, final int b)
    {
        final int aStart = partStart[a];
        final int bStart = partStart[b];
        final int aLength = partLength[a];
        final int bLength = partLength[b];
        final int common = Math.min(aLength, bLength);
        for (int i = 0; i < common; i++)
        {
            final int diff = (query[aStart + i] & 0xFF) - (query[bStart + i] & 0xFF);
            if (diff != 0)
            {
                return diff;
            }
        }
        return aLength - bLength;
    }

    private void swap(final int a, final int b)
    {
        final int start = partStart[a];
        final int len = partLength[a];
        partStart[a] = partStart[b];
        partLength[a] = partLength[b];
        partStart[b] = start;
        partLength[b] = len;
    }

    private void putBodyDigest(final byte[] body, final int offset, final int bodyLength)
    {
        if (body != null && bodyLength > 0)
        {
            sha256.update(body, offset, bodyLength);
        }
        try
        {
            sha256.digest(bodyDigest, 0, SHA256_LENGTH);
        }
        catch (final DigestException ex)
        {
            throw new IllegalStateException("a 32-byte array always holds a SHA-256 digest", ex);
        }
        ensure(2 * SHA256_LENGTH);
        length = Hex.encode(bodyDigest, 0, SHA256_LENGTH, buffer, length);
    }

    private void put(final byte[] bytes)
    {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
    }

    private void putUtf8(final CharSequence text)
    {
        if (text != null)
        {
            ensure(3 * text.length());
            length = utf8(text, buffer, length);
        }
    }

    /** HTTP methods are case-sensitive tokens, but clients sign the upper-case form; letters only change. */
    private void putUpperCase(final CharSequence method)
    {
        if (method == null)
        {
            return;
        }
        final int start = length;
        putUtf8(method);
        for (int i = start; i < length; i++)
        {
            final byte b = buffer[i];
            if (b >= 'a' && b <= 'z')
            {
                buffer[i] = (byte)(b - ('a' - 'A'));
            }
        }
    }

    private void putSigned(final long value)
    {
        if (value < 0)
        {
            ensure(1);
            buffer[length++] = '-';
            if (value == Long.MIN_VALUE)
            {
                // -(MIN_VALUE) overflows; its magnitude is the unsigned reading of the same bits.
                putUnsigned(value);
                return;
            }
            putUnsigned(-value);
            return;
        }
        putUnsigned(value);
    }

    /** Writes {@code value} read as unsigned 64-bit, without allocating. */
    private void putUnsigned(final long value)
    {
        // Digits go right to left into a 20-byte window, then move to the front of it.
        ensure(20);
        final int end = length + 20;
        int position = end;
        long rest = value;
        if (rest < 0)
        {
            // Above Long.MAX_VALUE: peel one digit by unsigned division, what is left is positive.
            final long quotient = Long.divideUnsigned(rest, 10);
            buffer[--position] = (byte)('0' + (rest - quotient * 10));
            rest = quotient;
        }
        do
        {
            buffer[--position] = (byte)('0' + (rest % 10));
            rest /= 10;
        }
        while (rest != 0);
        final int count = end - position;
        System.arraycopy(buffer, position, buffer, length, count);
        length += count;
    }

    private void ensure(final int extra)
    {
        buffer = grow(buffer, length + extra);
    }

    private static byte[] grow(final byte[] array, final int required)
    {
        if (required <= array.length)
        {
            return array;
        }
        int capacity = array.length;
        while (capacity < required)
        {
            capacity = capacity > (Integer.MAX_VALUE >> 1) ? Integer.MAX_VALUE - 8 : capacity << 1;
        }
        return Arrays.copyOf(array, capacity);
    }

    /**
     * UTF-8 exactly as {@code String.getBytes(UTF_8)} does it, lone surrogates becoming '?', so clients
     * that use their platform encoder produce the same bytes. {@code dst} must hold 3 bytes per char.
     */
    private static int utf8(final CharSequence text, final byte[] dst, final int offset)
    {
        int out = offset;
        for (int i = 0, n = text.length(); i < n; i++)
        {
            final char c = text.charAt(i);
            if (c < 0x80)
            {
                dst[out++] = (byte)c;
            }
            else if (c < 0x800)
            {
                dst[out++] = (byte)(0xC0 | (c >> 6));
                dst[out++] = (byte)(0x80 | (c & 0x3F));
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1)))
            {
                final int codePoint = Character.toCodePoint(c, text.charAt(++i));
                dst[out++] = (byte)(0xF0 | (codePoint >> 18));
                dst[out++] = (byte)(0x80 | ((codePoint >> 12) & 0x3F));
                dst[out++] = (byte)(0x80 | ((codePoint >> 6) & 0x3F));
                dst[out++] = (byte)(0x80 | (codePoint & 0x3F));
            }
            else if (Character.isSurrogate(c))
            {
                dst[out++] = '?';
            }
            else
            {
                dst[out++] = (byte)(0xE0 | (c >> 12));
                dst[out++] = (byte)(0x80 | ((c >> 6) & 0x3F));
                dst[out++] = (byte)(0x80 | (c & 0x3F));
            }
        }
        return out;
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
