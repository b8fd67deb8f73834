package io.venue.transport.fix;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes FIX messages into one reusable buffer, without allocating: {@link #begin} writes MsgType and the header, the
 * field methods the body, {@link #finish} puts BeginString and BodyLength before them and CheckSum after (the body is
 * written first at a fixed offset, so its length is known when the prefix is written). One per connection; not thread
 * safe. Values are written as given: callers pass US-ASCII without SOH ({@link #text} replaces any control byte).
 */
final class FixWriter
{
    /** Where the body starts: room for {@code 8=FIX.4.4<SOH>9=<up to 7 digits><SOH>} before it. */
    private static final int BODY_START = 32;
    private static final byte[] BEGIN = FixFrameDecoder.PREFIX;

    private final UnsafeBuffer buffer;
    private final int capacity;
    private int position;
    private int messageStart;
    private int messageLength;

    FixWriter(final int capacity)
    {
        this.capacity = capacity;
        this.buffer = new UnsafeBuffer(new byte[capacity]);
    }

    /** Starts a message: MsgType, then the standard header the lane writes on every message. */
    FixWriter begin(final String msgType, final String senderCompId, final String senderSubId,
        final String targetCompId, final long seqNum, final long sendingTimeMs)
    {
        position = BODY_START;
        string(FixTags.MSG_TYPE, msgType);
        string(FixTags.SENDER_COMP_ID, senderCompId);
        if (senderSubId != null)
        {
            string(50, senderSubId);
        }
        string(FixTags.TARGET_COMP_ID, targetCompId);
        number(FixTags.MSG_SEQ_NUM, seqNum);
        return timestamp(FixTags.SENDING_TIME, sendingTimeMs);
    }

    FixWriter string(final int tag, final CharSequence value)
    {
        tag(tag);
        for (int i = 0; i < value.length(); i++)
        {
            put((byte)value.charAt(i));
        }
        return soh();
    }

    /** Free text (58): a control byte (SOH above all) would end the field early, so each becomes a space. */
    FixWriter text(final int tag, final CharSequence value)
    {
        tag(tag);
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            put(c < 0x20 || c > 0x7e ? (byte)' ' : (byte)c);
        }
        return soh();
    }

    FixWriter character(final int tag, final char value)
    {
        tag(tag);
        put((byte)value);
        return soh();
    }

    /**
     * {@code micros} (at least 0) as the shortest FIX decimal that says it exactly, as {@link FixDecimal#text} writes
     * it (1500000 is {@code 1.5}), written in place: a report's prices and quantities make no text on the way.
     */
    FixWriter decimal(final int tag, final long micros)
    {
        tag(tag);
        digits(micros / FixDecimal.ONE);
        long fraction = micros % FixDecimal.ONE;
        if (fraction != 0)
        {
            int width = FixDecimal.SCALE;
            while (fraction % 10 == 0)
            {
                fraction /= 10;
                width--;
            }
            put((byte)'.');
            padded(fraction, width);
        }
        return soh();
    }

    FixWriter number(final int tag, final long value)
    {
        tag(tag);
        digits(value);
        return soh();
    }

    /** UTCTimestamp with milliseconds: {@code YYYYMMDD-HH:MM:SS.sss}. */
    FixWriter timestamp(final int tag, final long epochMs)
    {
        tag(tag);
        final long days = Math.floorDiv(epochMs, 86_400_000L);
        final long msOfDay = Math.floorMod(epochMs, 86_400_000L);
        // days to the civil date (Howard Hinnant's algorithm): no Calendar, no allocation
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long doe = z - era * 146_097;
        final long yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final long day = doy - (153 * mp + 2) / 5 + 1;
        final long month = mp < 10 ? mp + 3 : mp - 9;
        final long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        padded(year, 4);
        padded(month, 2);
        padded(day, 2);
        put((byte)'-');
        padded(msOfDay / 3_600_000, 2);
        put((byte)':');
        padded(msOfDay / 60_000 % 60, 2);
        put((byte)':');
        padded(msOfDay / 1_000 % 60, 2);
        put((byte)'.');
        padded(msOfDay % 1_000, 3);
        return soh();
    }

    /** Ends the message: the prefix before the body, the CheckSum after it. */
    FixWriter finish()
    {
        final int bodyLength = position - BODY_START;
        int lengthDigits = 1;
        for (long v = bodyLength; v >= 10; v /= 10)
        {
            lengthDigits++;
        }
        messageStart = BODY_START - 1 - lengthDigits - BEGIN.length;
        buffer.putBytes(messageStart, BEGIN);
        int at = BODY_START - 2;
        for (long v = bodyLength, i = 0; i < lengthDigits; i++, v /= 10)
        {
            buffer.putByte(at--, (byte)('0' + v % 10));
        }
        buffer.putByte(BODY_START - 1, FixTags.SOH);
        int sum = 0;
        for (int i = messageStart; i < position; i++)
        {
            sum += buffer.getByte(i);
        }
        tag(FixTags.CHECK_SUM);
        padded(sum & 0xff, 3);
        soh();
        messageLength = position - messageStart;
        return this;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    int messageStart()
    {
        return messageStart;
    }

    int messageLength()
    {
        return messageLength;
    }

    /** The finished message in a new Netty buffer. */
    ByteBuf toByteBuf(final ByteBufAllocator alloc)
    {
        final ByteBuf out = alloc.buffer(messageLength);
        out.writeBytes(buffer.byteArray(), messageStart, messageLength);
        return out;
    }

    /** The finished message's bytes (tests, the resend's copy). */
    byte[] toBytes()
    {
        final byte[] bytes = new byte[messageLength];
        buffer.getBytes(messageStart, bytes);
        return bytes;
    }

    private void tag(final int tag)
    {
        digits(tag);
        put((byte)'=');
    }

    private FixWriter soh()
    {
        put(FixTags.SOH);
        return this;
    }

    private void digits(final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("FIX numbers here are not negative: " + value);
        }
        int length = 1;
        for (long v = value; v >= 10; v /= 10)
        {
            length++;
        }
        padded(value, length);
    }

    private void padded(final long value, final int width)
    {
        if (position + width > capacity - 16)
        {
            throw new IllegalStateException("a FIX message over " + capacity + " bytes");
        }
        long v = value;
        for (int i = width - 1; i >= 0; i--)
        {
            buffer.putByte(position + i, (byte)('0' + v % 10));
            v /= 10;
        }
        position += width;
    }

    private void put(final byte b)
    {
        if (position >= capacity - 16)
        {
            throw new IllegalStateException("a FIX message over " + capacity + " bytes");
        }
        buffer.putByte(position++, b);
    }
}
