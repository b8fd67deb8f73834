package io.venue.entry;

import io.venue.codec.Hex;
import io.venue.crypto.Blake3;

import java.nio.charset.StandardCharsets;

/**
 * The cap on a refusal's text wherever it is kept: the journal's {@code RequestRejected.detail} and an answer kept for
 * the status route. A refusal's text can hold what a stranger sent (a canonical JSON of up to 512 KiB, an unknown key
 * of any length), and the journal's field holds at most 65,534 bytes; so a text over {@link #MAX_BYTES} bytes of UTF-8
 * is kept as its head and a mark naming its full length and its BLAKE3 digest:
 * <pre>
 * head…[cut: 153211 bytes, blake3 0x…]
 * </pre>
 * A {@code field\nmessage} text (a malformed body's) keeps at most {@link #FIELD_BYTES} bytes of its field, so the
 * message still says what was wrong. Whoever holds the request can compute the digest and match it.
 */
public final class RefusalDetails
{
    /** The most UTF-8 bytes of a capped text, mark included. */
    public static final int MAX_BYTES = 1024;
    /** The most bytes of a malformed body's field path that a capped text keeps. */
    public static final int FIELD_BYTES = 256;

    private static final String MARK = "…[cut: ";
    private static final String BYTES = " bytes, blake3 ";
    private static final ThreadLocal<Blake3> BLAKE3 = ThreadLocal.withInitial(Blake3::new);

    private RefusalDetails()
    {
    }

    /** {@code detail} itself when it fits {@link #MAX_BYTES}, else its head and the mark. */
    public static String cap(final String detail)
    {
        // a char is at most 3 bytes of UTF-8 (a surrogate pair is 4 for 2 chars): short texts are not encoded
        if (detail == null || detail.length() * 3 <= MAX_BYTES)
        {
            return detail;
        }
        final byte[] bytes = detail.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES)
        {
            return detail;
        }
        final Blake3 blake3 = BLAKE3.get();
        blake3.reset();
        blake3.update(bytes, 0, bytes.length);
        final byte[] digest = new byte[Blake3.DIGEST_LENGTH];
        blake3.digest(digest, 0);
        final String mark = MARK + bytes.length + BYTES + Hex.to0x(digest) + "]";
        final int budget = MAX_BYTES - utf8Length(mark);
        final int split = detail.indexOf('\n');
        if (split < 0)
        {
            return head(detail, budget) + mark;
        }
        final String field = detail.substring(0, split);
        final String keptField = utf8Length(field) <= FIELD_BYTES ? field : head(field, FIELD_BYTES - 3) + "…";
        return keptField + "\n" + head(detail.substring(split + 1), budget - utf8Length(keptField) - 1) + mark;
    }

    /** Whether {@code detail} is a text {@link #cap} cut. */
    public static boolean isCut(final String detail)
    {
        return detail != null && detail.endsWith("]") && detail.lastIndexOf(MARK) >= 0;
    }

    /** A cut text's head (what {@link #cap} kept of it), or the text itself. */
    public static String head(final String detail)
    {
        return isCut(detail) ? detail.substring(0, detail.lastIndexOf(MARK)) : detail;
    }

    /** A cut text's full length in UTF-8 bytes, or the text's own. */
    public static long fullBytes(final String detail)
    {
        if (!isCut(detail))
        {
            return detail == null ? 0 : utf8Length(detail);
        }
        final int from = detail.lastIndexOf(MARK) + MARK.length();
        return Long.parseLong(detail.substring(from, detail.indexOf(' ', from)));
    }

    /** A cut text's BLAKE3 digest of the full text ({@code 0x…}), or null when it was not cut. */
    public static String fullDigest(final String detail)
    {
        if (!isCut(detail))
        {
            return null;
        }
        final int from = detail.lastIndexOf(BYTES) + BYTES.length();
        return detail.substring(from, detail.length() - 1);
    }

    /** The longest head of {@code text} of at most {@code maxBytes} bytes of UTF-8, never splitting a character. */
    public static String head(final String text, final int maxBytes)
    {
        int bytes = 0;
        int i = 0;
        while (i < text.length())
        {
            final int codePoint = text.codePointAt(i);
            final int length = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
            if (bytes + length > maxBytes)
            {
                break;
            }
            bytes += length;
            i += Character.charCount(codePoint);
        }
        return text.substring(0, i);
    }

    /** The UTF-8 length of {@code text} without encoding it (a lone surrogate counts as the 1 byte '?' it becomes). */
    public static int utf8Length(final String text)
    {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < 0x80)
            {
                bytes++;
            }
            else if (c < 0x800)
            {
                bytes += 2;
            }
            else if (Character.isHighSurrogate(c) && i + 1 < text.length() &&
                Character.isLowSurrogate(text.charAt(i + 1)))
            {
                bytes += 4;
                i++;
            }
            else if (Character.isSurrogate(c))
            {
                bytes++;
            }
            else
            {
                bytes += 3;
            }
        }
        return bytes;
    }
}
