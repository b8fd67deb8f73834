package io.venue.feed;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * A reusable byte builder for the feed's JSON: ASCII text, decimal numbers and hex written without making
 * strings, so deriving a frame allocates only the frame's final array ({@link #toByteArray}).
 */
final class JsonBytes
{
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private final byte[] digits = new byte[20];
    private byte[] bytes;
    private int length;

    JsonBytes()
    {
        this(256);
    }

    JsonBytes(final int capacity)
    {
        bytes = new byte[capacity];
    }

    JsonBytes reset()
    {
        length = 0;
        return this;
    }

    int length()
    {
        return length;
    }

    boolean isEmpty()
    {
        return length == 0;
    }

    private void ensure(final int more)
    {
        if (length + more > bytes.length)
        {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }

    JsonBytes ch(final char c)
    {
        ensure(1);
        bytes[length++] = (byte)c;
        return this;
    }

    /** Text known to be ASCII without characters to escape (names, keys, codes). */
    JsonBytes ascii(final String text)
    {
        final int n = text.length();
        ensure(n);
        for (int i = 0; i < n; i++)
        {
            bytes[length++] = (byte)text.charAt(i);
        }
        return this;
    }

    /** A JSON string of any text, escaped, as UTF-8. */
    JsonBytes quoted(final String text)
    {
        ch('"');
        final int n = text.length();
        for (int i = 0; i < n; i++)
        {
            final char c = text.charAt(i);
            if (c == '"' || c == '\\')
            {
                ch('\\').ch(c);
            }
            else if (c < 0x20)
            {
                ascii("\\u00").ch((char)HEX[c >> 4]).ch((char)HEX[c & 0xF]);
            }
            else if (c < 0x80)
            {
                ch(c);
            }
            else
            {
                final byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                append(utf8, 0, utf8.length);
            }
        }
        return ch('"');
    }

    /** A signed decimal. */
    JsonBytes num(final long value)
    {
        if (value == Long.MIN_VALUE)
        {
            return ascii(Long.toString(value));
        }
        long v = value;
        if (v < 0)
        {
            ch('-');
            v = -v;
        }
        int n = 0;
        do
        {
            digits[n++] = (byte)('0' + v % 10);
            v /= 10;
        }
        while (v != 0);
        ensure(n);
        while (n > 0)
        {
            bytes[length++] = digits[--n];
        }
        return this;
    }

    /** {@code "0x…"}: lowercase hex of the bytes, quoted. */
    JsonBytes hex0x(final byte[] value, final int offset, final int count)
    {
        ensure(4 + 2 * count);
        bytes[length++] = '"';
        bytes[length++] = '0';
        bytes[length++] = 'x';
        for (int i = offset; i < offset + count; i++)
        {
            bytes[length++] = HEX[(value[i] >> 4) & 0xF];
            bytes[length++] = HEX[value[i] & 0xF];
        }
        bytes[length++] = '"';
        return this;
    }

    JsonBytes append(final byte[] value, final int offset, final int count)
    {
        ensure(count);
        System.arraycopy(value, offset, bytes, length, count);
        length += count;
        return this;
    }

    JsonBytes append(final JsonBytes other)
    {
        return append(other.bytes, 0, other.length);
    }

    /** {@code ,"key":} or {@code "key":} when the object has just opened. */
    JsonBytes key(final String key)
    {
        if (length > 0 && bytes[length - 1] != '{')
        {
            ch(',');
        }
        return ch('"').ascii(key).ch('"').ch(':');
    }

    /** A comma unless the array or object just opened (or the builder is empty). */
    JsonBytes comma()
    {
        if (length > 0 && bytes[length - 1] != '[' && bytes[length - 1] != '{')
        {
            ch(',');
        }
        return this;
    }

    void updateCrc(final CRC32 crc)
    {
        crc.update(bytes, 0, length);
    }

    byte[] toByteArray()
    {
        return Arrays.copyOf(bytes, length);
    }

    @Override
    public String toString()
    {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
