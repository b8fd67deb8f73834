package io.venue.codec;

import java.nio.charset.StandardCharsets;

/**
 * Lowercase hex, the only hex form the venue signs or accepts.
 */
public final class Hex
{
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private Hex()
    {
    }

    /** Writes 2 lowercase hex digits per byte into {@code dst} at {@code dstOffset}; returns the new offset. */
    public static int encode(final byte[] src, final int srcOffset, final int length, final byte[] dst,
        final int dstOffset)
    {
        int out = dstOffset;
        for (int i = srcOffset, end = srcOffset + length; i < end; i++)
        {
            final int b = src[i] & 0xFF;
            dst[out++] = DIGITS[b >>> 4];
            dst[out++] = DIGITS[b & 0xF];
        }
        return out;
    }

    public static String toHex(final byte[] bytes)
    {
        final byte[] out = new byte[bytes.length * 2];
        encode(bytes, 0, bytes.length, out, 0);
        return new String(out, StandardCharsets.US_ASCII);
    }

    public static String to0x(final byte[] bytes)
    {
        return "0x" + toHex(bytes);
    }

    /** The value of one lowercase hex digit, or -1 for anything else (uppercase included). */
    public static int lowerDigit(final int c)
    {
        if (c >= '0' && c <= '9')
        {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f')
        {
            return c - 'a' + 10;
        }
        return -1;
    }

    /**
     * Decodes lowercase hex with an optional 0x prefix. For tools and tests; the request parser has
     * its own strict path that names the offending field.
     *
     * @throws IllegalArgumentException if the text is not lowercase hex of even length.
     */
    public static byte[] fromHex(final String text)
    {
        final String digits = text.startsWith("0x") ? text.substring(2) : text;
        if ((digits.length() & 1) != 0)
        {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        final byte[] out = new byte[digits.length() / 2];
        for (int i = 0; i < out.length; i++)
        {
            final int hi = lowerDigit(digits.charAt(2 * i));
            final int lo = lowerDigit(digits.charAt(2 * i + 1));
            if (hi < 0 || lo < 0)
            {
                throw new IllegalArgumentException("not lowercase hex at position " + (2 * i));
            }
            out[i] = (byte)((hi << 4) | lo);
        }
        return out;
    }
}
