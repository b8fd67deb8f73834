package io.venue.journal;

import io.venue.journal.sbe.AgentCreateEncoder;
import io.venue.journal.sbe.BatchEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.RequestsRejectedSummaryDecoder;
import io.venue.journal.sbe.RequestsRejectedSummaryEncoder;
import io.venue.journal.sbe.TradeEncoder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalRecordsTest
{
    private final JournalRecords records = new JournalRecords();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();

    @Test
    void namesTheTypeOfAWellFormedRecord()
    {
        final int length = placeOrder(16);
        assertEquals(RecordError.NONE, records.wrap(buffer, 16, length));
        assertSame(RecordType.PLACE_ORDER, records.type());
        assertSame(RecordType.PLACE_ORDER, records.typeOf(buffer, 16, length));
        assertEquals(length, records.encodedLength());
        assertEquals(PlaceOrderEncoder.TEMPLATE_ID, records.templateId());
        assertEquals(PlaceOrderEncoder.BLOCK_LENGTH, records.blockLength());
        assertEquals(JournalRecords.SCHEMA_VERSION, records.version());
        assertEquals(1, records.schemaId());
        assertEquals(16 + JournalRecords.HEADER_LENGTH, records.bodyOffset());
    }

    @Test
    void readsTheCommonFieldsWithoutKnowingTheMessage()
    {
        placeOrder(0);
        assertEquals(-2L, JournalRecords.sequence(buffer, 0));
        assertEquals(1_763_000_000_000L, JournalRecords.timestampMs(buffer, 0));
        assertEquals(0xFFFF_FFFEL, JournalRecords.epoch(buffer, 0));

        new TradeEncoder().wrapAndApplyHeader(buffer, 100, header).sequence(99).eventIndex(0xFFFF_FFFFL);
        assertEquals(99, JournalRecords.sequence(buffer, 100));
        assertEquals(0xFFFF_FFFFL, JournalRecords.eventIndex(buffer, 100));
    }

    @Test
    void bytesAfterTheRecordAreAllowed()
    {
        final int length = placeOrder(0);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length + 100));
        assertEquals(length, records.encodedLength());
    }

    @Test
    void aLongerBlockFromAnExtendedWriterIsAccepted()
    {
        final int length = placeOrder(0);
        buffer.putShort(0, (short)(PlaceOrderEncoder.BLOCK_LENGTH + 8), JournalRecords.BYTE_ORDER);
        assertEquals(RecordError.TRUNCATED_BLOCK, records.wrap(buffer, 0, length));
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length + 8));
        assertEquals(length + 8, records.encodedLength());
    }

    @Test
    void aSummaryOlderThanItsSourceAddressIsShorterAndReadsAsOneWithNoAddress()
    {
        final RequestsRejectedSummaryEncoder summary = new RequestsRejectedSummaryEncoder()
            .wrapAndApplyHeader(buffer, 0, header).sequence(5).count(3).connectionId(0x0100_0000_0000_0007L)
            .putSourceAddress(new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, 0, 16);
        final int older = RequestsRejectedSummaryEncoder.sourceAddressEncodingOffset();
        assertEquals(153, older, "version 8's block, as JOURNAL-SCHEMA.md gives it");
        assertEquals(older + 16, RequestsRejectedSummaryEncoder.BLOCK_LENGTH);
        final int length = JournalRecords.HEADER_LENGTH + summary.encodedLength();

        // a version 9 writer's record: the block ends before the address
        header.wrap(buffer, 0).version(9).blockLength(older);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length - 16));
        final RequestsRejectedSummaryDecoder decoder =
            new RequestsRejectedSummaryDecoder().wrap(buffer, records.bodyOffset(), older, 9);
        assertEquals(3, decoder.count());
        assertEquals(0, decoder.getSourceAddress(new byte[16], 0, 16), "no address in a version 9 record");
        assertTrue(new RecordPrinter().print(buffer, 0, length - 16).contains("\"sourceAddress\":\"0x" +
            "00".repeat(16) + "\""));

        // the same short block claiming version 10 lacks a field of its version
        header.version(10);
        assertEquals(RecordError.BLOCK_TOO_SHORT, records.wrap(buffer, 0, length - 16));
        header.blockLength(RequestsRejectedSummaryEncoder.BLOCK_LENGTH);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length));
    }

    @Test
    void namesEveryProblem()
    {
        final int length = placeOrder(0);
        assertEquals(RecordError.OUT_OF_BOUNDS, records.wrap(null, 0, length));
        assertEquals(RecordError.OUT_OF_BOUNDS, records.wrap(buffer, -1, length));
        assertEquals(RecordError.OUT_OF_BOUNDS, records.wrap(buffer, 0, -1));
        assertEquals(RecordError.OUT_OF_BOUNDS, records.wrap(buffer, 4090, 8));
        assertEquals(RecordError.OUT_OF_BOUNDS, records.wrap(buffer, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertEquals(RecordError.TOO_SHORT_FOR_HEADER, records.wrap(buffer, 0, 7));
        assertEquals(-1, records.templateId());
        assertEquals(RecordError.TRUNCATED_BLOCK, records.wrap(buffer, 0, length - 1));
        assertEquals(PlaceOrderEncoder.TEMPLATE_ID, records.templateId());
        assertNull(records.type());
        assertEquals(0, records.encodedLength());

        header.wrap(buffer, 0).schemaId(2);
        assertEquals(RecordError.WRONG_SCHEMA, records.wrap(buffer, 0, length));
        header.schemaId(1).version(0);
        assertEquals(RecordError.UNSUPPORTED_VERSION, records.wrap(buffer, 0, length));
        header.version(1);
        assertEquals(RecordError.UNSUPPORTED_VERSION, records.wrap(buffer, 0, length),
            "version 1 records have no signature in the envelope");
        header.version(2);
        assertEquals(RecordError.UNSUPPORTED_VERSION, records.wrap(buffer, 0, length),
            "version 2 events lack the limiter fields");
        header.version(3);
        assertEquals(RecordError.UNSUPPORTED_VERSION, records.wrap(buffer, 0, length),
            "version 3 order commands lack the limit class");
        header.version(JournalRecords.SCHEMA_VERSION + 1);
        assertEquals(RecordError.UNSUPPORTED_VERSION, records.wrap(buffer, 0, length),
            "a newer version than this build's");
        header.version(4);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length),
            "version 5 only renamed: version 4 records read as its own");
        assertEquals(4, records.version());
        header.version(5);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), "version 6 changed values, not the layout");
        assertEquals(5, records.version());
        header.version(6);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), "version 7 changed values, not the layout");
        assertEquals(6, records.version());
        header.version(7);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), "version 8 added a message, not a layout");
        assertEquals(7, records.version());
        header.version(8);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), "version 9 changed meanings, not the layout");
        assertEquals(8, records.version());
        header.version(9);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), "version 10 added a field at a block's end");
        assertEquals(9, records.version());
        header.version(10);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), "version 11 added a message, not a layout");
        assertEquals(10, records.version());
        header.version(11);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), "version 12 added messages, not a layout");
        assertEquals(11, records.version());
        header.version(12);
        for (final int unknown : new int[] {0, 10, 99, 102, 199, 65535})
        {
            header.templateId(unknown);
            assertEquals(RecordError.UNKNOWN_TEMPLATE, records.wrap(buffer, 0, length), "template " + unknown);
            assertNull(records.typeOf(buffer, 0, length));
            assertEquals(RecordError.UNKNOWN_TEMPLATE, records.error());
        }
        header.templateId(PlaceOrderEncoder.TEMPLATE_ID).blockLength(PlaceOrderEncoder.BLOCK_LENGTH - 1);
        assertEquals(RecordError.BLOCK_TOO_SHORT, records.wrap(buffer, 0, length));
        header.blockLength(0);
        assertEquals(RecordError.BLOCK_TOO_SHORT, records.wrap(buffer, 0, length));
        header.blockLength(PlaceOrderEncoder.BLOCK_LENGTH);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length));
    }

    @Test
    void checksTheBatchGroup()
    {
        final BatchEncoder batch = new BatchEncoder().wrapAndApplyHeader(buffer, 0, header);
        final BatchEncoder.LegsEncoder legs = batch.legsCount(3);
        for (int i = 0; i < 3; i++)
        {
            legs.next().qty(i);
        }
        final int length = JournalRecords.HEADER_LENGTH + batch.encodedLength();
        final int groupAt = JournalRecords.HEADER_LENGTH + BatchEncoder.BLOCK_LENGTH;
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length));
        assertEquals(length, records.encodedLength());

        assertEquals(RecordError.BAD_GROUP_HEADER, records.wrap(buffer, 0, groupAt + 3));
        assertEquals(RecordError.TRUNCATED_GROUP, records.wrap(buffer, 0, length - 1));

        buffer.putShort(groupAt, (short)(RecordType.BATCH.groupEntryLength() - 1), JournalRecords.BYTE_ORDER);
        assertEquals(RecordError.BAD_GROUP_HEADER, records.wrap(buffer, 0, length));
        buffer.putShort(groupAt, (short)RecordType.BATCH.groupEntryLength(), JournalRecords.BYTE_ORDER);

        buffer.putShort(groupAt + 2, (short)0xFFFF, JournalRecords.BYTE_ORDER);
        assertEquals(RecordError.TRUNCATED_GROUP, records.wrap(buffer, 0, length));
        buffer.putShort(groupAt + 2, (short)0, JournalRecords.BYTE_ORDER);
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length));
        assertEquals(groupAt + 4, records.encodedLength());
    }

    @Test
    void checksVariableData()
    {
        final AgentCreateEncoder create = new AgentCreateEncoder().wrapAndApplyHeader(buffer, 0, header);
        create.policy("max 10 orders/s");
        final int length = JournalRecords.HEADER_LENGTH + create.encodedLength();
        final int dataAt = JournalRecords.HEADER_LENGTH + AgentCreateEncoder.BLOCK_LENGTH;
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, length));
        assertEquals(length, records.encodedLength());
        assertEquals(RecordError.TRUNCATED_VAR_DATA, records.wrap(buffer, 0, dataAt + 1));
        assertEquals(RecordError.TRUNCATED_VAR_DATA, records.wrap(buffer, 0, length - 1));
        assertEquals(RecordError.NONE, records.wrap(buffer, 0, dataAt + 2 + "max 10 orders/s".length()));
    }

    @Property(tries = 3000)
    void neverThrowsOnRandomBytes(
        @ForAll @Size(max = 600) final byte[] bytes,
        @ForAll @IntRange(min = -4, max = 700) final int offset,
        @ForAll @IntRange(min = -4, max = 700) final int length)
    {
        final UnsafeBuffer random = new UnsafeBuffer(bytes);
        assertWellBehaved(random, offset, length);
        assertWellBehaved(random, 0, bytes.length);
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
        assertWellBehaved(random, 0, random.capacity());
    }

    private void assertWellBehaved(final UnsafeBuffer bytes, final int offset, final int length)
    {
        final RecordError error = records.wrap(bytes, offset, length);
        assertNotNull(error);
        if (error == RecordError.NONE)
        {
            assertNotNull(records.type());
            assertTrue(records.encodedLength() >= JournalRecords.HEADER_LENGTH + records.type().blockLength());
            assertTrue(records.encodedLength() <= length);
        }
        else
        {
            assertNull(records.type());
        }
    }

    private int placeOrder(final int offset)
    {
        final PlaceOrderEncoder encoder = new PlaceOrderEncoder().wrapAndApplyHeader(buffer, offset, header)
            .sequence(-2L)
            .timestampMs(1_763_000_000_000L)
            .epoch(0xFFFF_FFFEL);
        return JournalRecords.HEADER_LENGTH + encoder.encodedLength();
    }

    @Property(tries = 300)
    void sameBytesFindsADifferenceAtAnyPositionAndOffset(
        @ForAll @Size(max = 80) final byte[] bytes, @ForAll @IntRange(max = 7) final int aOffset,
        @ForAll @IntRange(max = 7) final int bOffset, @ForAll @IntRange(max = 79) final int flip)
    {
        final UnsafeBuffer a = new UnsafeBuffer(new byte[bytes.length + 8]);
        final UnsafeBuffer b = new UnsafeBuffer(new byte[bytes.length + 8]);
        a.putBytes(aOffset, bytes);
        b.putBytes(bOffset, bytes);
        assertTrue(JournalRecords.sameBytes(a, aOffset, b, bOffset, bytes.length));
        if (flip < bytes.length)
        {
            b.putByte(bOffset + flip, (byte)(bytes[flip] ^ 1));
            assertEquals(false, JournalRecords.sameBytes(a, aOffset, b, bOffset, bytes.length));
        }
    }
}
