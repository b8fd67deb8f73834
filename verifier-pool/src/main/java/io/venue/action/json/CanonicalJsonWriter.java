package io.venue.action.json;

import io.venue.action.Action;
import io.venue.action.FixedBytes;
import io.venue.action.WireEnum;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * Writes canonical JSON (spec 5.2: compact, keys in declaration order, lowercase 0x hex, integers)
 * into a reusable byte array. After the array has grown to the largest action seen, writing allocates
 * nothing.
 */
public final class CanonicalJsonWriter
{
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    /** The longest u64, 18446744073709551615, has 20 digits. */
    private static final int MAX_U64_DIGITS = 20;

    private byte[] buffer;
    private int position;
    private boolean needComma;

    public CanonicalJsonWriter()
    {
        this(1024);
    }

    public CanonicalJsonWriter(final int initialCapacity)
    {
        buffer = new byte[initialCapacity];
    }

    public CanonicalJsonWriter reset()
    {
        position = 0;
        needComma = false;
        return this;
    }

    /** The backing array; valid from 0 to {@link #length()}. */
    public byte[] buffer()
    {
        return buffer;
    }

    public int length()
    {
        return position;
    }

    public byte[] toByteArray()
    {
        return Arrays.copyOf(buffer, position);
    }

    public CanonicalJsonWriter beginObject()
    {
        separate();
        ensure(1);
        buffer[position++] = '{';
        needComma = false;
        return this;
    }

    public CanonicalJsonWriter endObject()
    {
        ensure(1);
        buffer[position++] = '}';
        needComma = true;
        return this;
    }

    public CanonicalJsonWriter beginArray()
    {
        separate();
        ensure(1);
        buffer[position++] = '[';
        needComma = false;
        return this;
    }

    public CanonicalJsonWriter endArray()
    {
        ensure(1);
        buffer[position++] = ']';
        needComma = true;
        return this;
    }

    /** Writes {@code "name":}; the value follows with one of the value methods. */
    public CanonicalJsonWriter key(final JsonKey key)
    {
        separate();
        raw(key.quotedWithColon());
        needComma = false;
        return this;
    }

    /** Writes an externally tagged action: {"Tag":{fields}}. */
    public CanonicalJsonWriter action(final Action action)
    {
        beginAction(action.tag());
        action.writeFields(this);
        return endAction();
    }

    /**
     * Opens an externally tagged action (an object holding the tag's key and the opened object of its fields), for a
     * writer of its fields that has no {@link Action} (a typed order read from a ring,
     * {@link io.venue.action.typed.TypedOrder}); the fields follow, then {@link #endAction()}.
     */
    public CanonicalJsonWriter beginAction(final String tag)
    {
        beginObject();
        separate();
        final int length = tag.length();
        ensure(length + 3);
        buffer[position++] = '"';
        for (int i = 0; i < length; i++)
        {
            buffer[position++] = (byte)tag.charAt(i);
        }
        buffer[position++] = '"';
        buffer[position++] = ':';
        needComma = false;
        return beginObject();
    }

    /** Closes the two objects {@link #beginAction} opened. */
    public CanonicalJsonWriter endAction()
    {
        endObject();
        return endObject();
    }

    /** An unsigned 64-bit integer in decimal. */
    public CanonicalJsonWriter u64(final long value)
    {
        separate();
        ensure(MAX_U64_DIGITS);
        long v = value;
        if (v < 0)
        {
            // above Long.MAX_VALUE: peel one digit with unsigned division so the rest is positive
            final long quotient = Long.divideUnsigned(v, 10);
            final int lastDigit = (int)(v - quotient * 10);
            position = writePositive(quotient, position);
            buffer[position++] = (byte)('0' + lastDigit);
        }
        else
        {
            position = writePositive(v, position);
        }
        needComma = true;
        return this;
    }

    public CanonicalJsonWriter bool(final boolean value)
    {
        separate();
        raw(value ? TRUE : FALSE);
        needComma = true;
        return this;
    }

    public CanonicalJsonWriter nullValue()
    {
        separate();
        raw(NULL);
        needComma = true;
        return this;
    }

    public CanonicalJsonWriter enumValue(final WireEnum value)
    {
        separate();
        raw(value.quotedWire());
        needComma = true;
        return this;
    }

    public CanonicalJsonWriter enumOrNull(final WireEnum value)
    {
        return value == null ? nullValue() : enumValue(value);
    }

    public CanonicalJsonWriter fixedBytes(final FixedBytes value)
    {
        separate();
        ensure(4 + 2 * value.length());
        buffer[position++] = '"';
        position = value.write0x(buffer, position);
        buffer[position++] = '"';
        needComma = true;
        return this;
    }

    /**
     * As {@link #fixedBytes(FixedBytes)} for {@code length} bytes read from {@code src} at {@code offset}: {@code "0x"}
     * and their lowercase hex, in quotes.
     */
    public CanonicalJsonWriter fixedBytes(final DirectBuffer src, final int offset, final int length)
    {
        separate();
        ensure(4 + 2 * length);
        buffer[position++] = '"';
        buffer[position++] = '0';
        buffer[position++] = 'x';
        for (int i = 0; i < length; i++)
        {
            final int b = src.getByte(offset + i) & 0xFF;
            buffer[position++] = HEX[b >>> 4];
            buffer[position++] = HEX[b & 0xF];
        }
        buffer[position++] = '"';
        needComma = true;
        return this;
    }

    /** A string the caller has checked needs no escaping (printable ASCII without quote or backslash). */
    public CanonicalJsonWriter asciiString(final String value)
    {
        separate();
        final int length = value.length();
        ensure(length + 2);
        buffer[position++] = '"';
        for (int i = 0; i < length; i++)
        {
            buffer[position++] = (byte)value.charAt(i);
        }
        buffer[position++] = '"';
        needComma = true;
        return this;
    }

    private int writePositive(final long value, final int at)
    {
        int digits = 1;
        for (long v = value; v >= 10; v /= 10)
        {
            digits++;
        }
        int index = at + digits;
        long v = value;
        do
        {
            final long next = v / 10;
            buffer[--index] = (byte)('0' + (int)(v - next * 10));
            v = next;
        }
        while (v != 0);
        return at + digits;
    }

    private void separate()
    {
        if (needComma)
        {
            ensure(1);
            buffer[position++] = ',';
            needComma = false;
        }
    }

    private void raw(final byte[] bytes)
    {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, position, bytes.length);
        position += bytes.length;
    }

    private void ensure(final int extra)
    {
        if (position + extra > buffer.length)
        {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + extra));
        }
    }
}
