package io.venue.journal;

import io.venue.journal.SchemaModel.Message;
import io.venue.journal.sbe.AgentChangedEncoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelEncoder;
import io.venue.journal.sbe.CreateAssetEncoder;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedEncoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.StpMode;
import io.venue.journal.sbe.TimeInForce;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordPrinterTest
{
    private static final SchemaModel SCHEMA = SchemaModel.load();

    private final RecordPrinter printer = new RecordPrinter();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 16]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();

    @Test
    void printsAPlaceOrderAsOneLine()
    {
        final byte[] account = new byte[20];
        Arrays.fill(account, (byte)0xAB);
        final byte[] digest = new byte[32];
        digest[31] = 1;
        final PlaceOrderEncoder order = new PlaceOrderEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequence(7)
            .timestampMs(1_763_000_000_123L)
            .epoch(1);
        order.envelope()
            .putAccount(account, 0, 20)
            .nonce(-1L)
            .ts(1_763_000_000_000L)
            .hasClientOrderId(BooleanType.FALSE)
            .putDigest(digest, 0, 32)
            .signerMatch(SignerMatch.ACCOUNT_RAW);
        order.market(4_294_967_000L).book(Book.NONE).side(Side.BID).price(1_500_000).qty(2_000_000)
            .stpMode(StpMode.NONE).timeInForce(TimeInForce.POST_ONLY)
            .isMarket(BooleanType.FALSE).reduceOnly(BooleanType.TRUE).expiresAt(PlaceOrderEncoder.expiresAtNullValue())
            .limitClass(LimitClass.MM);

        final String zeroAddress = "0x" + "00".repeat(20);
        assertEquals(
            "{\"type\":\"PlaceOrder\",\"sequence\":7,\"timestampMs\":1763000000123,\"epoch\":1," +
            "\"envelope\":{\"account\":\"0x" + "ab".repeat(20) + "\",\"nonce\":18446744073709551615," +
            "\"ts\":1763000000000,\"hasClientOrderId\":false,\"clientOrderId\":\"0x" + "00".repeat(16) + "\"," +
            "\"digest\":\"0x" + "00".repeat(31) + "01\",\"signerMatch\":\"ACCOUNT_RAW\"," +
            "\"rawSigner\":\"" + zeroAddress + "\",\"personalSigner\":\"" + zeroAddress + "\",\"signature\":\"0x" +
            "00".repeat(65) + "\"}," +
            "\"market\":4294967000,\"book\":\"NONE\",\"side\":\"BID\",\"price\":1500000,\"qty\":2000000," +
            "\"stpMode\":\"NONE\",\"timeInForce\":\"POST_ONLY\",\"isMarket\":false,\"reduceOnly\":true," +
            "\"expiresAt\":null,\"limitClass\":\"MM\"}",
            printer.print(buffer, 0, JournalRecords.HEADER_LENGTH + order.encodedLength()));
    }

    @Test
    void printsEveryMessageType()
    {
        for (final RecordType type : RecordType.values())
        {
            buffer.setMemory(0, 1024, (byte)0);
            header.wrap(buffer, 0)
                .blockLength(type.blockLength())
                .templateId(type.templateId())
                .schemaId(JournalRecords.SCHEMA_ID)
                .version(JournalRecords.SCHEMA_VERSION);
            final int groupAt = JournalRecords.HEADER_LENGTH + type.blockLength();
            if (type.groupEntryLength() > 0)
            {
                buffer.putShort(groupAt, (short)type.groupEntryLength(), JournalRecords.BYTE_ORDER);
            }
            final int length = groupAt + (type.groupEntryLength() > 0 ? 4 : 0) + 2 * type.varDataCount();
            final String line = printer.print(buffer, 0, length);
            final Map<String, Object> json = Json.parseObject(line);
            assertEquals(type.messageName(), json.get("type"), line);
            final Message message = SCHEMA.message(type.messageName());
            assertEquals(1 + message.fields().size() + message.groups().size() + message.data().size(),
                json.size(), line);
        }
    }

    @Test
    void appendsToTheGivenBuilder()
    {
        final CancelEncoder cancel = new CancelEncoder().wrapAndApplyHeader(buffer, 0, header).sequence(3);
        final StringBuilder out = new StringBuilder("> ");
        printer.print(buffer, 0, JournalRecords.HEADER_LENGTH + cancel.encodedLength(), out);
        assertTrue(out.toString().startsWith("> {\"type\":\"Cancel\",\"sequence\":3,"), out.toString());
    }

    @Test
    void namesValuesTheSchemaDoesNotDefine()
    {
        final PlaceOrderEncoder order = new PlaceOrderEncoder().wrapAndApplyHeader(buffer, 0, header);
        final int length = JournalRecords.HEADER_LENGTH + order.encodedLength();
        buffer.putByte(JournalRecords.HEADER_LENGTH + PlaceOrderEncoder.sideEncodingOffset(), (byte)7);
        buffer.putByte(JournalRecords.HEADER_LENGTH + PlaceOrderEncoder.bookEncodingOffset(), (byte)0xFF);
        buffer.putByte(JournalRecords.HEADER_LENGTH + PlaceOrderEncoder.isMarketEncodingOffset(), (byte)2);
        final Map<String, Object> json = Json.parseObject(printer.print(buffer, 0, length));
        assertEquals("UNKNOWN(7)", json.get("side"));
        assertEquals("UNKNOWN(255)", json.get("book"));
        assertEquals("UNKNOWN(2)", json.get("isMarket"));

        final AgentChangedEncoder agent = new AgentChangedEncoder().wrapAndApplyHeader(buffer, 0, header);
        buffer.putByte(JournalRecords.HEADER_LENGTH + AgentChangedEncoder.scopesEncodingOffset(), (byte)0b1100_0011);
        final Map<String, Object> agentJson =
            Json.parseObject(printer.print(buffer, 0, JournalRecords.HEADER_LENGTH + agent.encodedLength()));
        assertEquals(List.of("trade", "cancel", "bit6", "bit7"), agentJson.get("scopes"));
    }

    @Test
    void escapesText()
    {
        final RequestRejectedEncoder rejected = new RequestRejectedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .reason(RequestRejectReason.MALFORMED);
        final byte[] detail = {'a', '"', '\\', '\n', 0, 0x7F, (byte)0xC3, (byte)0xA9, (byte)0xFF, 'z'};
        rejected.putDetail(detail, 0, detail.length);
        final String line = printer.print(buffer, 0, JournalRecords.HEADER_LENGTH + rejected.encodedLength());
        assertFalse(line.contains("\n"), line);
        assertTrue(line.endsWith("\"detail\":\"a\\\"\\\\\\u000a\\u0000\\u007f\u00e9\ufffdz\"}"), line);
        assertEquals("a\"\\\n\u0000\u007f\u00e9\ufffdz", Json.parseObject(line).get("detail"));

        final CreateAssetEncoder asset = new CreateAssetEncoder().wrapAndApplyHeader(buffer, 0, header);
        asset.putSymbol(new byte[] {'B', 'T', 'C', '"', (byte)0x80, 1, 0, 'X', 0, 0, 0, 0}, 0);
        final String assetLine = printer.print(buffer, 0, JournalRecords.HEADER_LENGTH + asset.encodedLength());
        assertEquals("BTC\"\u0080\u0001", Json.parseObject(assetLine).get("symbol"));
    }

    @Test
    void printsAnErrorLineForBytesItCannotRead()
    {
        assertEquals("{\"error\":\"TOO_SHORT_FOR_HEADER\",\"length\":3}", printer.print(buffer, 0, 3));
        assertEquals("{\"error\":\"OUT_OF_BOUNDS\",\"length\":100}",
            printer.print(buffer, buffer.capacity() - 10, 100));

        header.wrap(buffer, 0).blockLength(40).templateId(77).schemaId(1).version(4);
        assertEquals(
            "{\"error\":\"UNKNOWN_TEMPLATE\",\"length\":64,\"templateId\":77,\"schemaId\":1,\"version\":4," +
            "\"blockLength\":40}", printer.print(buffer, 0, 64));
    }

    @Property(tries = 3000)
    void neverThrowsOnRandomBytesAfterAValidHeader(
        @ForAll final RecordType type,
        @ForAll @Size(max = 400) final byte[] body,
        @ForAll final boolean rightBlockLength,
        @ForAll @IntRange(max = 0xFFFF) final int blockLength)
    {
        final UnsafeBuffer random = new UnsafeBuffer(new byte[JournalRecords.HEADER_LENGTH + body.length]);
        header.wrap(random, 0)
            .blockLength(rightBlockLength ? type.blockLength() : blockLength)
            .templateId(type.templateId())
            .schemaId(JournalRecords.SCHEMA_ID)
            .version(JournalRecords.SCHEMA_VERSION);
        random.putBytes(JournalRecords.HEADER_LENGTH, body);
        assertOneJsonLine(printer.print(random, 0, random.capacity()));
    }

    @Property(tries = 3000)
    void neverThrowsOnRandomBytes(
        @ForAll @Size(max = 600) final byte[] bytes,
        @ForAll @IntRange(min = -4, max = 700) final int offset,
        @ForAll @IntRange(min = -4, max = 700) final int length)
    {
        assertOneJsonLine(printer.print(new UnsafeBuffer(bytes), offset, length));
        assertOneJsonLine(printer.print(new UnsafeBuffer(bytes), 0, bytes.length));
    }

    @Property(tries = 300)
    void neverThrowsOnDamagedRecords(@ForAll final long seed)
    {
        final Random random = new Random(seed);
        final RandomRecords records = new RandomRecords(seed, 5);
        final Message message = SCHEMA.messages.get(random.nextInt(SCHEMA.messages.size()));
        final UnsafeBuffer record = new UnsafeBuffer(new byte[8192]);
        records.encode(message, record, 0);
        int length = records.encodedLength();
        for (int flips = random.nextInt(6); flips > 0; flips--)
        {
            record.putByte(random.nextInt(length), (byte)random.nextInt(256));
        }
        if (random.nextBoolean())
        {
            length = random.nextInt(length + 1);
        }
        assertOneJsonLine(printer.print(record, 0, length));
    }

    private static void assertOneJsonLine(final String line)
    {
        assertFalse(line.contains("\n") || line.contains("\r"), line);
        final Map<String, Object> json = Json.parseObject(line);
        final String first = json.keySet().iterator().next();
        assertTrue(first.equals("type") || first.equals("error"), line);
        if (first.equals("error"))
        {
            RecordError.valueOf((String)json.get("error"));
        }
    }
}
