package io.venue.journal;

import io.venue.journal.SchemaModel.ByteArray;
import io.venue.journal.SchemaModel.CharArray;
import io.venue.journal.SchemaModel.Composite;
import io.venue.journal.SchemaModel.EnumType;
import io.venue.journal.SchemaModel.Field;
import io.venue.journal.SchemaModel.Message;
import io.venue.journal.SchemaModel.Primitive;
import io.venue.journal.SchemaModel.SetType;
import io.venue.journal.SchemaModel.Type;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Version 5 renamed version 4's enum {@code Lane} and its fields {@code lane} to {@code LimitClass} and
 * {@code limitClass} and changed no byte, and version 6 changed what some values mean (an amend that enters a partly
 * filled order again keeps what it filled), not names or layout (JOURNAL-SCHEMA.md, section 9). Version 4's schema
 * file, kept in the test resources as it was released ({@code sbe/venue-journal-v4.xml}), lays out every record as this
 * build's (version 6) does; a record whose header says version 4 or 5 is read, decoded and printed as the same record
 * of version 6.
 */
class VersionFourRecordsTest
{
    /** This build's schema, version 6. */
    private static final SchemaModel NOW = SchemaModel.load();
    private static final SchemaModel V4 = SchemaModel.load("/sbe/venue-journal-v4.xml");
    /** Everything version 5 renamed (version 6 renamed nothing); nothing else may differ, names included. */
    private static final Map<String, String> RENAMED_FIELDS = Map.of("lane", "limitClass");
    private static final Map<String, String> RENAMED_TYPES = Map.of("Lane", "LimitClass");
    /**
     * Enum values added since version 4 (7: an admin text signature; 12: protections; 13: a session; 16: the FIX
     * onboarding record's reject codes), left out.
     */
    private static final Map<String, Long> ADDED_VALUES = Map.of("ACCOUNT_ADMIN_TEXT", 5L,
        "CANCELLED_DISCONNECT", 9L, "CANCELLED_DEAD_MAN", 10L, "CANCELLED_ALL", 11L, "SESSION_CREDENTIAL", 6L,
        "MARKET_NOT_ALLOWED", 36L, "FIX_NOT_ENABLED", 37L);
    /**
     * Messages added since version 4 (version 8: a summary of a connection's refusals, to which version 10 added a
     * field at its end; version 11: a FIX session's sequence numbers; version 12: the protections), left out below.
     */
    private static final List<String> ADDED_MESSAGES = List.of("RequestsRejectedSummary", "FixSessionMark",
        "SessionOpened", "SessionClosed", "DeadManArm", "CancelOnDisconnectArm", "ProtectionTick", "SessionsReset",
        "ProtectionChanged", "SetFixOnboarding", "FixOnboardingChanged");

    private final JournalRecords records = new JournalRecords();
    private final RecordPrinter printer = new RecordPrinter();

    @Test
    void versionsFiveToEightOnlyRenameVersionFourOrAdd()
    {
        assertEquals("4", V4.root.getAttribute("version"));
        assertEquals("16", NOW.root.getAttribute("version"));
        for (final String attribute : List.of("id", "package", "byteOrder", "semanticVersion"))
        {
            assertEquals(V4.root.getAttribute(attribute), NOW.root.getAttribute(attribute), attribute);
        }
        final List<Message> kept = NOW.messages.stream().filter(m -> !ADDED_MESSAGES.contains(m.name())).toList();
        assertEquals(NOW.messages.size() - ADDED_MESSAGES.size(), kept.size());
        assertEquals(V4.messages.size(), kept.size());
        int renamed = 0;
        for (int i = 0; i < V4.messages.size(); i++)
        {
            final Message old = V4.messages.get(i);
            final Message now = kept.get(i);
            assertEquals(old.name(), now.name());
            assertEquals(old.id(), now.id(), old.name());
            assertEquals(old.fields().size(), now.fields().size(), old.name());
            for (int f = 0; f < old.fields().size(); f++)
            {
                renamed += sameLayout(old.name(), old.fields().get(f), now.fields().get(f));
            }
            assertEquals(old.groups().size(), now.groups().size(), old.name());
            for (int g = 0; g < old.groups().size(); g++)
            {
                assertEquals(old.groups().get(g).name(), now.groups().get(g).name(), old.name());
                assertEquals(old.groups().get(g).id(), now.groups().get(g).id(), old.name());
                final List<Field> oldFields = old.groups().get(g).fields();
                final List<Field> newFields = now.groups().get(g).fields();
                assertEquals(oldFields.size(), newFields.size(), old.name());
                for (int f = 0; f < oldFields.size(); f++)
                {
                    renamed += sameLayout(old.name(), oldFields.get(f), newFields.get(f));
                }
            }
            assertEquals(old.data(), now.data(), old.name());
        }
        assertEquals(4, renamed, "lane of PlaceOrder, Cancel, Amend and CancelByClientOrderId");
    }

    @Test
    void theLimitClassIsWhereVersionFourKeptTheLane()
    {
        // the last byte of each block, as the version 4 table of JOURNAL-SCHEMA.md gives the blocks: 246, 244, 260, 228
        assertEquals(245, PlaceOrderDecoder.limitClassEncodingOffset());
        assertEquals(243, CancelDecoder.limitClassEncodingOffset());
        assertEquals(259, AmendDecoder.limitClassEncodingOffset());
        assertEquals(227, CancelByClientOrderIdDecoder.limitClassEncodingOffset());
        assertEquals(List.of(246, 244, 260, 228), List.of(PlaceOrderDecoder.BLOCK_LENGTH, CancelDecoder.BLOCK_LENGTH,
            AmendDecoder.BLOCK_LENGTH, CancelByClientOrderIdDecoder.BLOCK_LENGTH));
        assertEquals(List.of(15, 6, 8, 6), List.of(PlaceOrderDecoder.limitClassId(), CancelDecoder.limitClassId(),
            AmendDecoder.limitClassId(), CancelByClientOrderIdDecoder.limitClassId()));
        assertEquals(List.of(4, 4, 4, 4),
            List.of(PlaceOrderDecoder.limitClassSinceVersion(), CancelDecoder.limitClassSinceVersion(),
            AmendDecoder.limitClassSinceVersion(), CancelByClientOrderIdDecoder.limitClassSinceVersion()));
        assertEquals(Map.of("TRADING", (short)0, "MM", (short)1), Arrays.stream(LimitClass.values())
            .filter(v -> v != LimitClass.NULL_VAL).collect(Collectors.toMap(Enum::name, LimitClass::value)));
    }

    @Property(tries = 50)
    void aVersionFourOrFiveRecordReadsDecodesAndPrintsAsTheSameRecordOfVersionSix(@ForAll final long seed)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 16]);
        // fields added since (version 10: a summary's source address) as a version 4 or 5 record reads them
        final RandomRecords random = new RandomRecords(seed, 6).asOf(5);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        for (final Message message : NOW.messages)
        {
            final Map<String, Object> written = random.encode(message, buffer, 0);
            final int length = random.encodedLength();
            final String asVersion6 = printer.print(buffer, 0, length);

            for (final int version : new int[] {4, 5})
            {
                header.wrap(buffer, 0).version(version);
                assertEquals(RecordError.NONE, records.wrap(buffer, 0, length), message.name());
                assertEquals(version, records.version());
                assertEquals(length, records.encodedLength(), message.name());
                assertEquals(written.toString(), RandomRecords.decode(message, buffer, 0, version).toString(),
                    message.name());
                assertEquals(asVersion6, printer.print(buffer, 0, length), message.name());
            }
        }
    }

    /** Asserts the two fields are laid out alike and named alike but for a rename; returns 1 for a renamed field. */
    private static int sameLayout(final String message, final Field old, final Field now)
    {
        final String where = message + "." + old.name();
        assertEquals(RENAMED_FIELDS.getOrDefault(old.name(), old.name()), now.name(), where);
        assertEquals(old.id(), now.id(), where);
        assertEquals(old.sinceVersion(), now.sinceVersion(), where);
        assertEquals(RENAMED_TYPES.getOrDefault(typeName(old.type()), typeName(old.type())),
            typeName(now.type()), where);
        assertEquals(layout(old.type()), layout(now.type()), where);
        return old.name().equals(now.name()) ? 0 : 1;
    }

    private static String typeName(final Type type)
    {
        if (type instanceof Primitive p)
        {
            return p.primitiveType();
        }
        if (type instanceof EnumType e)
        {
            return e.name();
        }
        if (type instanceof SetType s)
        {
            return s.name();
        }
        if (type instanceof ByteArray b)
        {
            return b.name();
        }
        if (type instanceof CharArray c)
        {
            return c.name();
        }
        return ((Composite)type).name();
    }

    /** What a type puts on the wire, without its name: encoding, length, values, and a composite's members in order. */
    private static String layout(final Type type)
    {
        if (type instanceof Primitive p)
        {
            return p.toString();
        }
        if (type instanceof EnumType e)
        {
            // a value added later changes no byte of a record that does not hold it
            final Map<String, Long> values = new LinkedHashMap<>(e.values());
            ADDED_VALUES.forEach(values::remove);
            return "enum " + e.encodingType() + " " + values;
        }
        if (type instanceof SetType s)
        {
            return "set " + s.choicesByBit();
        }
        if (type instanceof ByteArray b)
        {
            return "bytes " + b.length();
        }
        if (type instanceof CharArray c)
        {
            return "chars " + c.length();
        }
        return ((Composite)type).members().stream().map(m -> m.name() + ":" + layout(m.type()))
            .collect(Collectors.joining(",", "{", "}"));
    }
}
