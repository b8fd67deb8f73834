package io.venue.journal;

import io.venue.journal.SchemaModel.Composite;
import io.venue.journal.SchemaModel.Field;
import io.venue.journal.SchemaModel.Message;
import io.venue.journal.SchemaModel.Primitive;
import io.venue.journal.sbe.BatchEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checked-in schema, the generated codecs and {@link RecordType} agree, and the schema keeps the rules
 * the journal relies on: unique template ids, the same leading fields in every command and every event.
 */
class SchemaTest
{
    private static final SchemaModel SCHEMA = SchemaModel.load();

    @Test
    void schemaIdentity()
    {
        assertEquals("io.venue.journal.sbe", SCHEMA.root.getAttribute("package"));
        assertEquals("1", SCHEMA.root.getAttribute("id"));
        assertEquals("16", SCHEMA.root.getAttribute("version"));
        assertEquals("littleEndian", SCHEMA.root.getAttribute("byteOrder"));
        assertEquals(1, JournalRecords.SCHEMA_ID);
        assertEquals(16, JournalRecords.SCHEMA_VERSION);
        assertEquals(13, JournalRecords.SESSION_CREDENTIAL_VERSION);
        for (int id = 1; id <= 5; id++)
        {
            assertTrue(JournalRecords.isSessionOrder(id), "template " + id);
        }
        assertFalse(JournalRecords.isSessionOrder(6));
        assertFalse(JournalRecords.isSessionOrder(0));
        assertEquals(4, JournalRecords.OLDEST_READ_VERSION);
        assertEquals(6, JournalRecords.FILLED_KEPT_ON_REENTRY_VERSION);
        assertEquals(9, JournalRecords.KEY_VERSION_IN_ID_VERSION);
        assertFalse(JournalRecords.keepsFilledOnReentry(4));
        assertFalse(JournalRecords.keepsFilledOnReentry(5));
        assertTrue(JournalRecords.keepsFilledOnReentry(6));
        assertTrue(JournalRecords.keepsFilledOnReentry(7));
        assertEquals(7, JournalRecords.UNFUNDED_REFUSED_VERSION);
        assertFalse(JournalRecords.refusesUnfundedAccounts(6));
        assertTrue(JournalRecords.refusesUnfundedAccounts(7));
        assertEquals(12, JournalRecords.PROTECTIONS_VERSION);
        assertFalse(JournalRecords.reportsCancelAll(11));
        assertTrue(JournalRecords.reportsCancelAll(12));
        for (int id = 70; id <= 75; id++)
        {
            assertTrue(JournalRecords.isProtection(id), "template " + id);
            assertTrue(RecordType.ofTemplateId(id).isCommand(), "template " + id);
        }
        assertFalse(JournalRecords.isProtection(69));
        assertFalse(JournalRecords.isProtection(76));
    }

    @Test
    void everyTemplateIdIsUnique()
    {
        final Set<Integer> schemaIds = new HashSet<>();
        for (final Message message : SCHEMA.messages)
        {
            assertTrue(schemaIds.add(message.id()), "template id used twice in the schema: " + message.id());
        }
        final Set<Integer> typeIds = new HashSet<>();
        for (final RecordType type : RecordType.values())
        {
            assertTrue(typeIds.add(type.templateId()), "template id used twice: " + type);
        }
        assertEquals(schemaIds, typeIds);
        assertEquals(50, SCHEMA.messages.size());
    }

    @Test
    void recordTypesDescribeTheSchemaMessages()
    {
        assertEquals(SCHEMA.messages.size(), RecordType.values().length);
        for (final Message message : SCHEMA.messages)
        {
            final RecordType type = RecordType.ofTemplateId(message.id());
            assertNotNull(type, message.name());
            assertEquals(message.name(), type.messageName());
            assertEquals(message.isCommand() ? RecordKind.COMMAND : RecordKind.EVENT, type.kind());
            assertEquals(message.isCommand(), type.isCommand());
            assertTrue(message.isCommand() ? message.id() >= 1 : message.id() >= 100 && message.id() < 200);
            assertTrue(message.groups().size() <= 1, "JournalRecords checks at most one group: " + message.name());
            assertEquals(message.data().size(), type.varDataCount(), message.name());
            assertEquals(message.groups().isEmpty(), type.groupEntryLength() == 0, message.name());
        }
        assertSame(RecordType.PLACE_ORDER, RecordType.ofTemplateId(1));
        assertEquals(null, RecordType.ofTemplateId(-1));
        assertEquals(null, RecordType.ofTemplateId(0));
        assertEquals(null, RecordType.ofTemplateId(65535));
    }

    @Test
    void fieldIdsAreUniqueWithinAMessage()
    {
        for (final Message message : SCHEMA.messages)
        {
            final Set<Integer> ids = new HashSet<>();
            message.fields().forEach(f -> assertTrue(ids.add(f.id()), message.name() + "." + f.name()));
            message.groups().forEach(g ->
            {
                assertTrue(ids.add(g.id()), message.name() + "." + g.name());
                g.fields().forEach(f -> assertTrue(ids.add(f.id()), message.name() + "." + f.name()));
            });
            message.data().forEach(d -> assertTrue(ids.add(d.id()), message.name() + "." + d.name()));
        }
    }

    @Test
    void everyCommandStartsWithSequenceTimestampAndEpoch() throws Exception
    {
        for (final Message message : SCHEMA.messages)
        {
            if (!message.isCommand())
            {
                continue;
            }
            assertLeadingFields(message, List.of("sequence", "timestampMs", "epoch"),
                List.of("uint64", "uint64", "uint32"));
            final Class<?> decoder = decoderClass(message);
            assertEquals(JournalRecords.SEQUENCE_OFFSET, bodyOffset(decoder, "sequence"));
            assertEquals(JournalRecords.TIMESTAMP_MS_OFFSET, bodyOffset(decoder, "timestampMs"));
            assertEquals(JournalRecords.EPOCH_OFFSET, bodyOffset(decoder, "epoch"));
        }
    }

    @Test
    void everyEventStartsWithSequenceAndEventIndex() throws Exception
    {
        for (final Message message : SCHEMA.messages)
        {
            if (message.isCommand())
            {
                continue;
            }
            assertLeadingFields(message, List.of("sequence", "eventIndex"), List.of("uint64", "uint32"));
            final Class<?> decoder = decoderClass(message);
            assertEquals(JournalRecords.SEQUENCE_OFFSET, bodyOffset(decoder, "sequence"));
            assertEquals(JournalRecords.EVENT_INDEX_OFFSET, bodyOffset(decoder, "eventIndex"));
        }
    }

    @Test
    void everySignedActionCarriesTheEnvelopeAfterTheHeader()
    {
        for (final Message message : SCHEMA.messages)
        {
            // the signed actions: trading and operator ones below 40, and the operator's SetFixOnboarding (version 16)
            if (message.id() < 40 || message.name().equals("SetFixOnboarding"))
            {
                final Field envelope = message.fields().get(3);
                assertEquals("envelope", envelope.name(), message.name());
                assertEquals("ActionEnvelope", ((Composite)envelope.type()).name(), message.name());
            }
            else
            {
                assertTrue(message.fields().stream().noneMatch(f -> f.name().equals("envelope")), message.name());
            }
        }
    }

    @Test
    void variableDataHasATwoByteLength() throws Exception
    {
        for (final Message message : SCHEMA.messages)
        {
            for (final SchemaModel.Data data : message.data())
            {
                final Method headerLength = decoderClass(message).getMethod(data.name() + "HeaderLength");
                assertEquals(2, headerLength.invoke(null), message.name() + "." + data.name());
            }
        }
    }

    @Test
    void aBatchHoldsAtMostAThousandLegs()
    {
        final BatchEncoder batch = new BatchEncoder().wrapAndApplyHeader(
            new UnsafeBuffer(new byte[1 << 17]), 0, new MessageHeaderEncoder());
        assertEquals(1000, BatchEncoder.LegsEncoder.countMaxValue());
        assertThrows(IllegalArgumentException.class, () -> batch.legsCount(1001));
        batch.legsCount(1000);
    }

    private static void assertLeadingFields(final Message message, final List<String> names, final List<String> types)
    {
        for (int i = 0; i < names.size(); i++)
        {
            final Field field = message.fields().get(i);
            assertEquals(names.get(i), field.name(), message.name());
            assertEquals(types.get(i), ((Primitive)field.type()).primitiveType(), message.name() + "." + field.name());
        }
    }

    private static Class<?> decoderClass(final Message message) throws ClassNotFoundException
    {
        return Class.forName(RandomRecords.PACKAGE + message.name() + "Decoder");
    }

    private static int bodyOffset(final Class<?> decoder, final String field) throws Exception
    {
        return JournalRecords.HEADER_LENGTH + (int)decoder.getMethod(field + "EncodingOffset").invoke(null);
    }
}
