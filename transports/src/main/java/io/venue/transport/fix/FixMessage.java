package io.venue.transport.fix;

import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A flyweight over one framed FIX message ({@link FixFrameDecoder} checked its BeginString, BodyLength and CheckSum):
 * {@link #parse} indexes its fields (tag, value offset, value length) without copying or allocating, and checks what
 * every message must satisfy: tags are numbers, every tag has a value, MsgType(35) is the third field, the header's
 * tags come before the body's, and no tag appears twice (this lane takes no message with a repeating group). A message
 * that fails is described by {@link #rejectReason}, {@link #refTag} and {@link #problem}: the session Reject to send.
 * One per connection; not thread safe.
 */
final class FixMessage
{
    /** More fields than this is a Reject: no message this lane takes comes near it. */
    static final int MAX_FIELDS = 256;
    private static final int MAX_TAG = 999_999;

    private final int[] tags = new int[MAX_FIELDS];
    private final int[] offsets = new int[MAX_FIELDS];
    private final int[] lengths = new int[MAX_FIELDS];
    private final View view = new View();
    private DirectBuffer buffer;
    private int fields;
    private int rejectReason = -1;
    private int refTag;
    private String problem;

    /**
     * Indexes the message at {@code buffer[offset, offset + length)}.
     *
     * @return true when it is well formed; otherwise {@link #rejectReason} says why (the fields before the fault stay
     * readable, so the Reject can name the message's MsgSeqNum and MsgType when they came first).
     */
    boolean parse(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        fields = 0;
        rejectReason = -1;
        refTag = 0;
        problem = null;
        final int end = offset + length;
        int at = offset;
        boolean inBody = false;
        while (at < end)
        {
            int tag = 0;
            int digits = 0;
            byte b = buffer.getByte(at);
            while (b >= '0' && b <= '9' && digits <= 6)
            {
                tag = tag * 10 + (b - '0');
                digits++;
                b = ++at < end ? buffer.getByte(at) : 0;
            }
            if (digits == 0 || b != '=' || tag == 0 || tag > MAX_TAG || buffer.getByte(at - digits) == '0')
            {
                return fail(FixTags.REJECT_INVALID_TAG_NUMBER, tag, "field " + (fields + 1) + " does not start " +
                    "with a tag number (1 to " + MAX_TAG + ", no leading zero) and '='");
            }
            final int valueStart = ++at;
            while (at < end && buffer.getByte(at) != FixTags.SOH)
            {
                at++;
            }
            if (at == valueStart)
            {
                return fail(FixTags.REJECT_TAG_WITHOUT_VALUE, tag, "tag " + tag + " has no value");
            }
            if (fields == MAX_FIELDS)
            {
                return fail(FixTags.REJECT_OTHER, tag, "more than " + MAX_FIELDS + " fields");
            }
            for (int i = 0; i < fields; i++)
            {
                if (tags[i] == tag)
                {
                    return fail(FixTags.REJECT_TAG_APPEARS_MORE_THAN_ONCE, tag, "tag " + tag + " appears more than " +
                        "once");
                }
            }
            if (fields == 2 && tag != FixTags.MSG_TYPE)
            {
                return fail(FixTags.REJECT_TAG_OUT_OF_ORDER, FixTags.MSG_TYPE, "MsgType(35) is the third field");
            }
            if (tag != FixTags.CHECK_SUM)
            {
                final boolean header = FixTags.isHeaderTag(tag);
                if (header && inBody)
                {
                    return fail(FixTags.REJECT_TAG_OUT_OF_ORDER, tag, "header tag " + tag + " after a body tag");
                }
                inBody |= !header;
            }
            tags[fields] = tag;
            offsets[fields] = valueStart;
            lengths[fields] = at - valueStart;
            fields++;
            at++;
        }
        return true;
    }

    private boolean fail(final int reason, final int tag, final String text)
    {
        rejectReason = reason;
        refTag = tag;
        problem = text;
        return false;
    }

    /** The SessionRejectReason(373) of a message {@link #parse} refused, or -1. */
    int rejectReason()
    {
        return rejectReason;
    }

    int refTag()
    {
        return refTag;
    }

    String problem()
    {
        return problem;
    }

    int fieldCount()
    {
        return fields;
    }

    int tagAt(final int index)
    {
        return tags[index];
    }

    /** The field index of {@code tag}, or -1. */
    int index(final int tag)
    {
        for (int i = 0; i < fields; i++)
        {
            if (tags[i] == tag)
            {
                return i;
            }
        }
        return -1;
    }

    boolean has(final int tag)
    {
        return index(tag) >= 0;
    }

    /** The one-byte MsgType, or 0 when it is longer (or absent). */
    byte msgTypeByte()
    {
        final int i = index(FixTags.MSG_TYPE);
        return i < 0 || lengths[i] != 1 ? 0 : buffer.getByte(offsets[i]);
    }

    /**
     * {@code tag}'s value as a non-negative decimal (at most 18 digits, no sign), -1 when absent, -2 when not such a
     * number.
     */
    long longValue(final int tag)
    {
        final int i = index(tag);
        if (i < 0)
        {
            return -1;
        }
        final int length = lengths[i];
        if (length > 18)
        {
            return -2;
        }
        long value = 0;
        for (int at = offsets[i], end = at + length; at < end; at++)
        {
            final byte b = buffer.getByte(at);
            if (b < '0' || b > '9')
            {
                return -2;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    /** Whether {@code tag}'s value is the one character {@code c}. */
    boolean isChar(final int tag, final char c)
    {
        final int i = index(tag);
        return i >= 0 && lengths[i] == 1 && buffer.getByte(offsets[i]) == c;
    }

    /** Whether {@code tag}'s value is exactly {@code expected} (US-ASCII). */
    boolean valueEquals(final int tag, final String expected)
    {
        final int i = index(tag);
        if (i < 0 || lengths[i] != expected.length())
        {
            return false;
        }
        for (int k = 0; k < lengths[i]; k++)
        {
            if (buffer.getByte(offsets[i] + k) != expected.charAt(k))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code tag}'s value as a CharSequence over the buffer (one view reused by every call: read it before the next
     * call), or null; allocates nothing.
     */
    CharSequence view(final int tag)
    {
        final int i = index(tag);
        if (i < 0)
        {
            return null;
        }
        view.offset = offsets[i];
        view.length = lengths[i];
        return view;
    }

    /** A value's bytes as characters (ISO-8859-1), in place. */
    private final class View implements CharSequence
    {
        private int offset;
        private int length;

        @Override
        public int length()
        {
            return length;
        }

        @Override
        public char charAt(final int index)
        {
            return (char)(buffer.getByte(offset + index) & 0xff);
        }

        @Override
        public CharSequence subSequence(final int start, final int end)
        {
            return toString().substring(start, end);
        }

        @Override
        public String toString()
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    /** {@code tag}'s value as text (allocates: logons, texts, refusals), or null. */
    String string(final int tag)
    {
        final int i = index(tag);
        if (i < 0)
        {
            return null;
        }
        final byte[] bytes = new byte[lengths[i]];
        buffer.getBytes(offsets[i], bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
