package io.venue.transport.fix;

import io.venue.entry.protect.ProtectionRequests;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordError;
import io.venue.journal.RecordType;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.SignerMatch;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order-entry decoders over untrusted values, as properties: FIX decimals to micro-units exactly against a
 * BigDecimal oracle (never rounded), the instrument's symbol against a regular-expression oracle, and random
 * NewOrderSingle, OrderCancelRequest, OrderCancelReplaceRequest, OrderMassCancelRequest and OrderStatusRequest
 * messages (valid and invalid values of every field, lengths included) through {@link FixOrderEntry}: each is answered
 * exactly once, by a session Reject, a report, or one journal command whose fields are the message's exact values;
 * nothing throws.
 */
class FixOrderDecodingTest
{
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");
    private static final Pattern SYMBOL = Pattern.compile("(0|[1-9][0-9]{0,9})(\\.YES|\\.NO)?");
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
    private static final String ACCOUNT = "0x" + "ab".repeat(20);

    /** What {@link FixDecimal#micros} must say of {@code text}, computed another way. */
    private static long oracle(final String text)
    {
        if (text.length() > 64 || !DECIMAL.matcher(text).matches())
        {
            return FixDecimal.MALFORMED;
        }
        final BigDecimal value = new BigDecimal(text);
        if (value.toBigInteger().compareTo(BigInteger.valueOf(FixDecimal.MAX_MICROS / 1_000_000)) > 0)
        {
            return FixDecimal.TOO_LARGE;
        }
        final BigDecimal micros = value.multiply(MILLION);
        if (micros.stripTrailingZeros().scale() > 0)
        {
            return FixDecimal.TOO_PRECISE;
        }
        return micros.compareTo(BigDecimal.valueOf(FixDecimal.MAX_MICROS)) > 0 ? FixDecimal.TOO_LARGE :
            micros.longValueExact();
    }

    @Test
    void decimalsAreExactOrRefused()
    {
        final Random random = new Random(0x25_0001);
        final String alphabet = "0123456789.0123456789-+eE ,";
        for (int i = 0; i < 200_000; i++)
        {
            final StringBuilder text = new StringBuilder();
            final int length = random.nextInt(i % 100 == 0 ? 80 : 22);
            for (int k = 0; k < length; k++)
            {
                text.append(alphabet.charAt(random.nextInt(random.nextInt(4) == 0 ? alphabet.length() : 11)));
            }
            final String value = text.toString();
            assertEquals(oracle(value), FixDecimal.micros(value), value);
        }
    }

    @Test
    void everyMicroUnitCountRoundTripsThroughItsText()
    {
        final Random random = new Random(0x25_0002);
        for (int i = 0; i < 100_000; i++)
        {
            final long micros = switch (i % 4)
            {
                case 0 -> random.nextInt(10_000_000);
                case 1 -> Math.floorMod(random.nextLong(), FixDecimal.MAX_MICROS + 1);
                case 2 -> random.nextInt(1_000) * 1_000_000L;
                default -> FixDecimal.MAX_MICROS - random.nextInt(1_000);
            };
            final String text = FixDecimal.text(micros);
            assertEquals(micros, FixDecimal.micros(text), text);
            assertEquals(new BigDecimal(micros).divide(MILLION).stripTrailingZeros(),
                new BigDecimal(text).stripTrailingZeros(), text);
            // trailing zeros past the sixth place say the same value; a seventh digit that is not zero is refused
            assertEquals(micros, FixDecimal.micros(text.contains(".") ? text + "000" : text + ".0000000"));
            assertEquals(FixDecimal.TOO_PRECISE, FixDecimal.micros(text.contains(".") ?
                text + "0".repeat(6 - (text.length() - text.indexOf('.') - 1)) + "1" : text + ".0000001"), text);
        }
        assertEquals(FixDecimal.TOO_LARGE, FixDecimal.micros("1000000000000.000001"));
        assertEquals(FixDecimal.MAX_MICROS, FixDecimal.micros("1000000000000"));
    }

    @Test
    void symbolsAreMarketIdsWithAnOptionalBook()
    {
        final Random random = new Random(0x25_0003);
        final String alphabet = "0123456789.YESNOyes -";
        for (int i = 0; i < 100_000; i++)
        {
            final StringBuilder text = new StringBuilder();
            final int length = random.nextInt(16);
            for (int k = 0; k < length; k++)
            {
                text.append(alphabet.charAt(random.nextInt(random.nextInt(3) == 0 ? alphabet.length() : 10)));
            }
            if (random.nextInt(3) == 0)
            {
                text.append(random.nextBoolean() ? ".YES" : ".NO");
            }
            final String value = text.toString();
            final boolean valid = SYMBOL.matcher(value).matches() &&
                Long.parseLong(value.split("\\.")[0]) <= 0xFFFF_FFFFL;
            final long parsed = FixSymbols.parse(value);
            assertEquals(valid, parsed != FixSymbols.MALFORMED, value);
            if (valid)
            {
                assertEquals(value, FixSymbols.text(FixSymbols.market(parsed), FixSymbols.book(parsed)));
            }
        }
    }

    /** The replies and the ring of one order-entry session, over random messages. */
    private static final class Harness implements FixOrderEntry.Replies
    {
        final List<FixReport> reports = new ArrayList<>();
        final List<String> rejects = new ArrayList<>();
        final List<byte[]> commands = new ArrayList<>();
        final ProtectionRequests ring = new ProtectionRequests(1 << 16);
        final FixOrderEntry entry;

        Harness()
        {
            this(null);
        }

        Harness(final FixMessageRate rate)
        {
            entry = new FixOrderEntry(3L << 56 | 1, 0x0123_4567_89ab_cdefL, ACCOUNT, ring,
                new FixReports(null, null, () -> 0, 0, 16, (report, key, replaying) -> { }), this, rate);
        }

        public void report(final FixReport report)
        {
            reports.add(report);
        }

        public void reject(final long refSeq, final int reason, final int refTag, final String text)
        {
            rejects.add(reason + ":" + refTag + ":" + text);
        }

        int drain()
        {
            final ProtectionRequests.Handler keep = (connectionId, correlationId, record, offset, length) ->
            {
                final byte[] bytes = new byte[length];
                record.getBytes(offset, bytes);
                commands.add(bytes);
            };
            // twice: a read stops at the ring's end, where a record that wrapped left its padding
            return ring.poll(keep, 100) + ring.poll(keep, 100);
        }
    }

    private static final String[] DECIMALS = {"1", "0.5", "100", "100.25", "0.000001", "0.0000001", "1e3", "-1", "",
        "1.", ".5", "12345678901234567890", "99.990000", "abc", "1,5", " 1"};
    private static final String[] SYMBOLS = {"1", "2.YES", "2.NO", "007", "x", "", "4294967296", "1.MAYBE"};
    private static final String[] CL_ORD_IDS = {"a", "order-1", "0123456789abcdef", "0123456789abcdefg", "",
        "with space", "é"};

    private static String pick(final Random random, final String[] values)
    {
        return values[random.nextInt(values.length)];
    }

    /** One NewOrderSingle of the lane's rules, handed to the harness's order entry at {@code nowMs}. */
    private static void newOrder(final Harness h, final String clOrdId, final long seq, final long nowMs)
    {
        final byte[] bytes = new FixWriter(4096).begin("D", "spk_0123456789abcdef", null, "VENUE", seq, nowMs)
            .text(FixTags.CL_ORD_ID, clOrdId).string(FixTags.ORDER_QTY, "1").string(FixTags.ORD_TYPE, "2")
            .string(FixTags.PRICE, "100").string(FixTags.SIDE, "1").text(FixTags.SYMBOL, "1").finish().toBytes();
        final FixMessage in = new FixMessage();
        assertTrue(in.parse(new UnsafeBuffer(bytes), 0, bytes.length), in.problem());
        assertTrue(h.entry.onMessage(in, seq, (byte)'D', nowMs));
    }

    @Test
    void theSessionsMessageRateRefusesWithTheEnginesCodeAndJournalsNothing()
    {
        final Harness h = new Harness(new FixMessageRate(2, 1_000));
        // a second's burst: two orders journaled, the third refused RATE_LIMITED (OrdRejReason 3), nothing journaled
        newOrder(h, "r1", 2, 1_000);
        newOrder(h, "r2", 3, 1_000);
        newOrder(h, "r3", 4, 1_000);
        assertEquals(2, h.drain());
        assertEquals(1, h.reports.size());
        final FixReport refused = h.reports.get(0);
        assertEquals('8', refused.execType);
        assertEquals(3, refused.rejectReason);
        assertEquals("r3", refused.clOrdId);
        assertTrue(refused.text.startsWith("RATE_LIMITED: more than 2 order-entry messages a second"), refused.text);
        // half a second later one message's worth is back, not two
        newOrder(h, "r4", 5, 1_500);
        newOrder(h, "r5", 6, 1_500);
        assertEquals(1, h.drain());
        assertEquals(2, h.reports.size());
        // a long pause refills a second's burst, no more
        newOrder(h, "r6", 7, 60_000);
        newOrder(h, "r7", 8, 60_000);
        newOrder(h, "r8", 9, 60_000);
        assertEquals(2, h.drain());
        assertEquals(3, h.reports.size());
    }

    @Test
    void randomOrderMessagesAreAnsweredOnceAndJournaledExactly()
    {
        final Random random = new Random(0x25_0004);
        final Harness h = new Harness();
        final String types = "DFGqHD";
        final FixMessage in = new FixMessage();
        for (int i = 0; i < 20_000; i++)
        {
            final char type = types.charAt(random.nextInt(types.length()));
            final FixWriter writer = new FixWriter(4096);
            writer.begin(String.valueOf(type), "spk_0123456789abcdef", null, "VENUE", i + 2, 1_700_000_000_000L);
            final String price = pick(random, DECIMALS);
            final String qty = pick(random, DECIMALS);
            final String clOrdId = pick(random, CL_ORD_IDS);
            // tags in ascending order, each at most once; each present or not
            if (random.nextInt(8) != 0)
            {
                writer.text(FixTags.CL_ORD_ID, clOrdId);
            }
            if (random.nextInt(4) == 0)
            {
                writer.string(FixTags.EXEC_INST, random.nextBoolean() ? "6" : random.nextBoolean() ? "E" : "6 E x");
            }
            if (random.nextInt(3) == 0)
            {
                writer.string(FixTags.ORDER_ID, random.nextBoolean() ? "ab".repeat(32) : "AB".repeat(31));
            }
            if (random.nextInt(6) != 0)
            {
                writer.string(FixTags.ORDER_QTY, qty);
            }
            if (random.nextInt(6) != 0)
            {
                writer.string(FixTags.ORD_TYPE, random.nextInt(5) == 0 ? "3" : random.nextBoolean() ? "1" : "2");
            }
            if (random.nextInt(3) == 0)
            {
                writer.text(FixTags.ORIG_CL_ORD_ID, pick(random, CL_ORD_IDS));
            }
            if (random.nextInt(4) != 0)
            {
                writer.string(FixTags.PRICE, price);
            }
            if (random.nextInt(6) != 0)
            {
                writer.string(FixTags.SIDE, random.nextInt(6) == 0 ? "5" : random.nextBoolean() ? "1" : "2");
            }
            if (random.nextInt(6) != 0)
            {
                writer.text(FixTags.SYMBOL, pick(random, SYMBOLS));
            }
            if (random.nextInt(3) == 0)
            {
                writer.string(FixTags.TIME_IN_FORCE, Character.toString("0134672".charAt(random.nextInt(7))));
            }
            if (random.nextInt(4) == 0)
            {
                writer.string(FixTags.EXPIRE_TIME, random.nextBoolean() ? "20301231-23:59:59" : "2030-12-31");
            }
            if (random.nextInt(3) == 0)
            {
                writer.string(FixTags.MASS_CANCEL_REQUEST_TYPE, Character.toString("1735".charAt(random.nextInt(4))));
            }
            if (random.nextInt(4) == 0)
            {
                writer.number(FixTags.SELF_MATCH_PREVENTION, random.nextInt(6));
            }
            final byte[] bytes = writer.finish().toBytes();
            if (!in.parse(new UnsafeBuffer(bytes), 0, bytes.length))
            {
                // an empty value: the session layer's Reject (FixCodecFuzzTest), never handed on
                assertEquals(FixTags.REJECT_TAG_WITHOUT_VALUE, in.rejectReason(), in.problem());
                continue;
            }
            final int before = h.reports.size() + h.rejects.size();
            assertTrue(h.entry.onMessage(in, i + 2, (byte)type, 1_700_000_000_000L));
            final int answered = h.reports.size() + h.rejects.size() - before;
            final int journaled = h.drain();
            // status requests are answered by a report; every other message by a reply or one command, not both
            assertEquals(1, answered + journaled, type + " " + new String(bytes));
            if (journaled == 1)
            {
                checkCommand(h.commands.get(h.commands.size() - 1), type, clOrdId, price, qty);
            }
        }
        assertTrue(h.commands.size() > 200, "some orders were taken: " + h.commands.size());
        assertTrue(h.rejects.size() > 1_000 && h.reports.size() > 1_000);
    }

    private static void checkCommand(final byte[] record, final char type, final String clOrdId, final String price,
        final String qty)
    {
        final DirectBuffer buffer = new UnsafeBuffer(record);
        final JournalRecords records = new JournalRecords();
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, record.length));
        final int body = records.bodyOffset();
        final RecordType expected = switch (type)
        {
            case 'D' -> RecordType.PLACE_ORDER;
            case 'F' -> RecordType.CANCEL;
            case 'G' -> RecordType.AMEND;
            default -> RecordType.CANCEL_ALL;
        };
        assertEquals(expected, records.type());
        switch (type)
        {
            case 'D' ->
            {
                final PlaceOrderDecoder place = new PlaceOrderDecoder().wrap(buffer, body, records.blockLength(),
                    records.version());
                assertEquals(SignerMatch.SESSION_CREDENTIAL, place.envelope().signerMatch());
                assertEquals(clOrdId, FixReports.clientOrderId(clientOrderId(place.envelope())));
                assertEquals(FixDecimal.micros(qty), place.qty());
                if (place.isMarketRaw() == 0)
                {
                    assertEquals(new BigDecimal(price).multiply(MILLION).longValueExact(), place.price());
                }
            }
            case 'F' -> assertEquals(SignerMatch.SESSION_CREDENTIAL, new CancelDecoder().wrap(buffer, body,
                records.blockLength(), records.version()).envelope().signerMatch());
            case 'G' ->
            {
                final AmendDecoder amend = new AmendDecoder().wrap(buffer, body, records.blockLength(),
                    records.version());
                assertEquals(new BigDecimal(price).multiply(MILLION).longValueExact(), amend.price());
                // no fills known: the new open quantity is OrderQty itself
                assertEquals(FixDecimal.micros(qty), amend.qty());
            }
            default -> assertEquals(SignerMatch.SESSION_CREDENTIAL, new CancelAllDecoder().wrap(buffer, body,
                records.blockLength(), records.version()).envelope().signerMatch());
        }
    }

    private static byte[] clientOrderId(final ActionEnvelopeDecoder envelope)
    {
        final byte[] bytes = new byte[16];
        envelope.getClientOrderId(bytes, 0, 16);
        return bytes;
    }
}
