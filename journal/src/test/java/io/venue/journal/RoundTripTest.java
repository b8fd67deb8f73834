package io.venue.journal;

import io.venue.journal.SchemaModel.Message;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Every message of the schema, with random field values: encoded by the generated encoders, decoded by
 * the generated decoders, checked by {@link JournalRecords} and printed by {@link RecordPrinter}; all four
 * must agree with the values written.
 */
class RoundTripTest
{
    private static final SchemaModel SCHEMA = SchemaModel.load();

    private final JournalRecords records = new JournalRecords();
    private final RecordPrinter printer = new RecordPrinter();

    @Property(tries = 100)
    void everyMessageRoundTrips(@ForAll final long seed)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 16]);
        final RandomRecords random = new RandomRecords(seed, 12);
        for (final Message message : SCHEMA.messages)
        {
            final int offset = 1 + (int)Math.floorMod(seed, 64L);
            roundTrip(random, message, buffer, offset);
        }
    }

    @Property(tries = 30)
    void roundTripsInOffHeapMemory(@ForAll final long seed)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 16));
        final RandomRecords random = new RandomRecords(seed, 4);
        for (final Message message : SCHEMA.messages)
        {
            roundTrip(random, message, buffer, 0);
        }
    }

    @Test
    void aBatchOfAThousandLegsRoundTrips()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 17]);
        final RandomRecords random = new RandomRecords(42, 1000, 1000);
        final Map<String, Object> expected = roundTrip(random, SCHEMA.message("Batch"), buffer, 0);
        final int legs = ((List<?>)expected.get("legs")).size();
        assertEquals(1000, legs);
        assertEquals(
            JournalRecords.HEADER_LENGTH + RecordType.BATCH.blockLength() + 4 +
            legs * RecordType.BATCH.groupEntryLength(),
            records.encodedLength());
    }

    private Map<String, Object> roundTrip(
        final RandomRecords random, final Message message, final UnsafeBuffer buffer, final int offset)
    {
        buffer.setMemory(0, Math.min(buffer.capacity(), 8192), (byte)0x5A); // stale bytes, not zeros
        final Map<String, Object> expected = random.encode(message, buffer, offset);

        final Map<String, Object> decoded = RandomRecords.decode(message, buffer, offset);
        assertEquals(expected.toString(), decoded.toString(), message.name());

        assertEquals(RecordError.NONE, records.wrap(buffer, offset, random.encodedLength()), message.name());
        assertSame(RecordType.ofTemplateId(message.id()), records.type());
        assertEquals(random.encodedLength(), records.encodedLength(), message.name());
        assertEquals(expected.get("sequence").toString(),
            Long.toUnsignedString(JournalRecords.sequence(buffer, offset)));

        final String line = printer.print(buffer, offset, random.encodedLength());
        assertEquals(expected.toString(), Json.parseObject(line).toString(), line);
        return expected;
    }
}
