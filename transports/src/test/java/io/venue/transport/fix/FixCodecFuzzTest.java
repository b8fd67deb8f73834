package io.venue.transport.fix;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX codec over untrusted bytes, as properties: what {@link FixWriter} writes, {@link FixFrameDecoder} cuts and
 * {@link FixMessage} reads back field for field, whatever the stream's chunks; a wrong BodyLength or CheckSum, bytes
 * that do not start a message, and a message over the limit are one fault each (the BodyLength judged before the body
 * is buffered), and nothing is read after it; a framed message with a field out of its rules is refused with the
 * SessionRejectReason a Reject carries; random corruption never throws.
 */
class FixCodecFuzzTest
{
    private static final int MAX = 8192;
    private static final String SOH = "\u0001";

    private static byte[] message(final Random random, final int seq)
    {
        final FixWriter writer = new FixWriter(MAX);
        writer.begin(random.nextBoolean() ? "0" : "D", "VENUE", random.nextBoolean() ? "order_entry" : null,
            "spk_0123456789abcdef", seq, 1_700_000_000_000L + random.nextInt(1_000_000_000));
        final int extra = random.nextInt(20);
        for (int i = 0; i < extra; i++)
        {
            writer.string(1000 + i, "v" + random.nextInt(1_000_000));
        }
        writer.text(FixTags.TEXT, "free text with a \u0001 inside");
        return writer.finish().toBytes();
    }

    private static byte[] raw(final String fields)
    {
        final String body = fields.replace('|', '\u0001');
        final String head = "8=FIX.4.4" + SOH + "9=" + body.length() + SOH;
        int sum = 0;
        for (final byte b : (head + body).getBytes(StandardCharsets.ISO_8859_1))
        {
            sum += b;
        }
        return (head + body + "10=" + String.format("%03d", sum & 0xff) + SOH).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static List<Object> decodeAll(final byte[] stream, final int[] chunks)
    {
        final EmbeddedChannel channel = new EmbeddedChannel(new FixFrameDecoder(MAX));
        int at = 0;
        for (final int chunk : chunks)
        {
            final int n = Math.min(chunk, stream.length - at);
            channel.writeInbound(Unpooled.wrappedBuffer(stream, at, n));
            at += n;
        }
        if (at < stream.length)
        {
            channel.writeInbound(Unpooled.wrappedBuffer(stream, at, stream.length - at));
        }
        final List<Object> out = new ArrayList<>();
        for (Object o = channel.readInbound(); o != null; o = channel.readInbound())
        {
            out.add(o);
        }
        channel.finishAndReleaseAll();
        return out;
    }

    private static byte[] bytes(final Object decoded)
    {
        final ByteBuf buf = (ByteBuf)decoded;
        final byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        buf.release();
        return bytes;
    }

    private static FixMessage parsed(final byte[] bytes)
    {
        final FixMessage message = new FixMessage();
        message.parse(new UnsafeBuffer(bytes), 0, bytes.length);
        return message;
    }

    @Test
    void writtenMessagesAreCutAndReadBackWhateverTheChunks()
    {
        final Random random = new Random(25);
        for (int run = 0; run < 300; run++)
        {
            final List<byte[]> messages = new ArrayList<>();
            final StringBuilder stream = new StringBuilder();
            final int count = 1 + random.nextInt(5);
            for (int i = 0; i < count; i++)
            {
                final byte[] m = message(random, i + 1);
                messages.add(m);
                stream.append(new String(m, StandardCharsets.ISO_8859_1));
            }
            final byte[] all = stream.toString().getBytes(StandardCharsets.ISO_8859_1);
            final int[] chunks = random.ints(1 + random.nextInt(30), 1, 64).toArray();
            final List<Object> out = decodeAll(all, chunks);
            assertEquals(count, out.size());
            for (int i = 0; i < count; i++)
            {
                final byte[] got = bytes(out.get(i));
                assertArrayEquals(messages.get(i), got);
                final FixMessage message = parsed(got);
                assertEquals(-1, message.rejectReason(), message.problem());
                assertEquals(i + 1, message.longValue(FixTags.MSG_SEQ_NUM));
                assertEquals("free text with a   inside", message.string(FixTags.TEXT));
                assertEquals(FixTags.CHECK_SUM, message.tagAt(message.fieldCount() - 1));
            }
        }
    }

    @Test
    void sendingTimeIsUtcWithMilliseconds()
    {
        final Random random = new Random(7);
        final DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
        for (int i = 0; i < 10_000; i++)
        {
            final long ms = i == 0 ? 0 : random.nextLong(4_102_444_800_000L);
            final byte[] m = new FixWriter(512).begin("0", "A", null, "B", 1, ms).finish().toBytes();
            assertEquals(format.format(Instant.ofEpochMilli(ms)), parsed(m).string(FixTags.SENDING_TIME));
        }
    }

    @Test
    void aWrongBodyLengthOrCheckSumIsOneFaultAndNothingAfterIt()
    {
        final byte[] good = raw("35=0|49=A|56=B|34=1|52=20260101-00:00:00.000|");
        final String text = new String(good, StandardCharsets.ISO_8859_1);
        final int bodyLength = good.length - 15 - FixFrameDecoder.TRAILER_BYTES;
        assertTrue(text.startsWith("8=FIX.4.4" + SOH + "9=" + bodyLength + SOH));
        final String longer = text.replace("9=" + bodyLength, "9=" + (bodyLength + 2));
        final String shorter = text.replace("9=" + bodyLength, "9=" + (bodyLength - 2));
        final String badSum = text.substring(0, text.length() - 4) + (text.charAt(text.length() - 2) == '9' ? "000" :
            "999") + SOH;
        for (final String bad : List.of(longer, shorter, badSum, "9=5" + SOH + text, "8=FIX.4.2" + SOH + "9=5",
            "8=FIX.4.4" + SOH + "9=x", "8=FIX.4.4" + SOH + "9=0012" + SOH, "garbage" + text))
        {
            final List<Object> out = decodeAll((bad + text).getBytes(StandardCharsets.ISO_8859_1), new int[] {7});
            assertEquals(1, out.size(), bad);
            assertInstanceOf(FixFrameDecoder.Fault.class, out.get(0), bad);
        }
        // a good message, then garbage: the message, then the fault
        final List<Object> out = decodeAll((text + "\r\nxx" + text).getBytes(StandardCharsets.ISO_8859_1),
            new int[] {3});
        assertEquals(2, out.size());
        assertArrayEquals(good, bytes(out.get(0)));
        assertInstanceOf(FixFrameDecoder.Fault.class, out.get(1));
    }

    @Test
    void aBodyLengthOverTheLimitIsRefusedBeforeTheBodyArrives()
    {
        final ByteBuf in = Unpooled.copiedBuffer("8=FIX.4.4" + SOH + "9=9000" + SOH + "35=0",
            StandardCharsets.US_ASCII);
        final Object next = FixFrameDecoder.next(in, MAX);
        assertInstanceOf(FixFrameDecoder.Fault.class, next);
        assertTrue(((FixFrameDecoder.Fault)next).message().contains("fix.max.message.bytes"));
        final ByteBuf partial = Unpooled.copiedBuffer("8=FIX.4.4" + SOH + "9=800" + SOH + "35=0",
            StandardCharsets.US_ASCII);
        assertNull(FixFrameDecoder.next(partial, MAX), "a message within the limit waits for its bytes");
        in.release();
        partial.release();
    }

    @Test
    void fieldsOutOfTheirRulesNameTheSessionRejectReason()
    {
        record Case(String fields, int reason, int refTag)
        {
        }
        for (final Case c : List.of(
            new Case("49=A|35=0|56=B|34=1|52=x|", FixTags.REJECT_TAG_OUT_OF_ORDER, 35),
            new Case("35=D|49=A|56=B|34=1|52=x|11=a|57=order_entry|", FixTags.REJECT_TAG_OUT_OF_ORDER, 57),
            new Case("35=0|49=A|56=B|34=1|34=2|52=x|", FixTags.REJECT_TAG_APPEARS_MORE_THAN_ONCE, 34),
            new Case("35=0|49=A|56=B|34=1|52=|", FixTags.REJECT_TAG_WITHOUT_VALUE, 52),
            new Case("35=0|49=A|56=B|34=1|x=1|", FixTags.REJECT_INVALID_TAG_NUMBER, 0),
            new Case("35=0|49=A|56=B|034=1|", FixTags.REJECT_INVALID_TAG_NUMBER, 34),
            new Case("35=0|49=A|56=B|34=1|12345678=1|", FixTags.REJECT_INVALID_TAG_NUMBER, 1234567),
            new Case("35=0|49=A|56=B|34=1|58 =1|", FixTags.REJECT_INVALID_TAG_NUMBER, 58)))
        {
            final FixMessage message = parsed(raw(c.fields));
            assertEquals(c.reason, message.rejectReason(), c.fields + ": " + message.problem());
            assertEquals(c.refTag, message.refTag(), c.fields);
        }
        final StringBuilder many = new StringBuilder("35=0|49=A|56=B|34=1|");
        for (int i = 0; i < FixMessage.MAX_FIELDS; i++)
        {
            many.append(2000 + i).append("=1|");
        }
        assertEquals(FixTags.REJECT_OTHER, parsed(raw(many.toString())).rejectReason());
        final FixMessage ok = parsed(raw("35=A|49=A|56=B|34=12|52=x|98=0|108=30|141=Y|"));
        assertEquals(-1, ok.rejectReason());
        assertEquals('A', ok.msgTypeByte());
        assertEquals(12, ok.longValue(FixTags.MSG_SEQ_NUM));
        assertEquals(-2, ok.longValue(FixTags.SENDING_TIME));
        assertEquals(-1, ok.longValue(FixTags.TEST_REQ_ID));
        assertTrue(ok.isChar(FixTags.RESET_SEQ_NUM_FLAG, 'Y'));
        assertTrue(ok.valueEquals(FixTags.SENDER_COMP_ID, "A"));
        assertFalse(ok.valueEquals(FixTags.SENDER_COMP_ID, "AB"));
    }

    /** A decimal written in place is the text FixDecimal makes, read back to the same micro-units. */
    @Test
    void decimalsWrittenInPlaceAreTheShortestExactText()
    {
        final Random random = new Random(44);
        for (int i = 0; i < 20_000; i++)
        {
            final long micros = switch (i % 4)
            {
                case 0 -> random.nextInt(10) * (long)Math.pow(10, random.nextInt(18));
                case 1 -> random.nextLong() >>> (1 + random.nextInt(63));
                case 2 -> i;
                default -> (random.nextLong() >>> 4) % FixDecimal.MAX_MICROS;
            };
            final byte[] m = new FixWriter(512).begin("8", "VENUE", null, "CLIENT", 1, 0).decimal(44, micros)
                .finish().toBytes();
            final String text = new String(m, StandardCharsets.ISO_8859_1);
            final int at = text.indexOf(SOH + "44=") + 4;
            final String value = text.substring(at, text.indexOf(SOH, at));
            assertEquals(FixDecimal.text(micros), value, Long.toString(micros));
            if (micros <= FixDecimal.MAX_MICROS)
            {
                assertEquals(micros, FixDecimal.micros(value), value);
            }
        }
    }

    @Test
    void msgTypesOfFix44AreTellableFromOthers()
    {
        for (final String type : List.of("0", "5", "A", "D", "j", "q", "z", "AE", "BH"))
        {
            assertTrue(FixTags.isFix44MsgType(type), type);
        }
        for (final String type : List.of("", "!", "AAA", "BI", "CA", "a0", "U1"))
        {
            assertFalse(FixTags.isFix44MsgType(type), type);
        }
    }

    @Test
    void randomCorruptionIsAFaultARejectOrAMessageAndNeverThrows()
    {
        final Random random = new Random(2964);
        final byte[] alphabet = "0123456789=|ABDjxFIX.\u0001".getBytes(StandardCharsets.ISO_8859_1);
        int faults = 0;
        int rejects = 0;
        int passed = 0;
        for (int run = 0; run < 20_000; run++)
        {
            final byte[] m = message(random, 1 + random.nextInt(100));
            final boolean bodyOnly = random.nextBoolean();
            final int bodyStart = new String(m, StandardCharsets.ISO_8859_1).indexOf("35=");
            final int bodyEnd = m.length - FixFrameDecoder.TRAILER_BYTES;
            final int flips = 1 + random.nextInt(4);
            for (int i = 0; i < flips; i++)
            {
                final int at = bodyOnly ? bodyStart + random.nextInt(bodyEnd - bodyStart) : random.nextInt(m.length);
                m[at] = random.nextBoolean() ? alphabet[random.nextInt(alphabet.length)] : (byte)random.nextInt(256);
            }
            if (bodyOnly)
            {
                // the body corrupted under a right CheckSum: the framing passes, the fields are judged
                int sum = 0;
                for (int i = 0; i < bodyEnd; i++)
                {
                    sum += m[i];
                }
                final String digits = String.format("%03d", sum & 0xff);
                for (int i = 0; i < 3; i++)
                {
                    m[bodyEnd + 3 + i] = (byte)digits.charAt(i);
                }
            }
            final List<Object> out = decodeAll(m, new int[] {1 + random.nextInt(m.length)});
            assertTrue(out.size() <= 1);
            if (out.isEmpty())
            {
                continue;
            }
            if (out.get(0) instanceof FixFrameDecoder.Fault)
            {
                faults++;
                continue;
            }
            final FixMessage parsed = parsed(bytes(out.get(0)));
            if (parsed.rejectReason() >= 0)
            {
                rejects++;
            }
            else
            {
                passed++;
            }
        }
        assertTrue(faults > 1_000 && rejects > 10 && passed > 10, faults + " " + rejects + " " + passed);
    }

    @Test
    void aMessageHasTheBytesQuickFixWouldChecksum()
    {
        final byte[] m = new FixWriter(512).begin("0", "VENUE", null, "CLIENT", 2, 0).finish().toBytes();
        final String text = new String(m, StandardCharsets.ISO_8859_1).replace('\u0001', '|');
        assertEquals("8=FIX.4.4|9=54|35=0|49=VENUE|56=CLIENT|34=2|52=19700101-00:00:00.000|10=" +
            text.substring(text.length() - 4), text);
        assertEquals(54, Arrays.copyOfRange(m, text.indexOf("35="), text.indexOf("10=")).length);
    }
}
