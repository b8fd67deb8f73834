package io.venue.engine;

import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A command journal of schema version 4, written before version 5 renamed {@code Lane} to {@code LimitClass}
 * (JOURNAL-SCHEMA.md, section 9): the engine reads its records as the same records of version 5 and writes each
 * command's events in the command's version, so the events are version 4's bytes, as the run that wrote the journal
 * wrote them, and the state ends the same. With one engine thread and with matching shards (whose staged events are
 * written at settlement).
 */
class VersionFourCommandsTest
{
    @ParameterizedTest(name = "shards={0}, groups of {1}")
    @CsvSource({"1, 64", "2, 1", "3, 5"})
    void aVersionFourJournalGivesTheSameEventsWrittenInVersionFour(final int shards, final int group)
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        // every kind of command, a quarter of the order commands of limit class MM
        new RandomStream(h, 42).setUp().run(1_500);
        final List<byte[]> records = h.records();
        final List<byte[]> asVersion4 = new ArrayList<>();
        int orders = 0;
        for (final byte[] record : records)
        {
            final byte[] copy = record.clone();
            final UnsafeBuffer buffer = new UnsafeBuffer(copy);
            assertEquals(5, new MessageHeaderDecoder().wrap(buffer, 0).version());
            new MessageHeaderEncoder().wrap(buffer, 0).version(4);
            asVersion4.add(copy);
            final int template = new MessageHeaderDecoder().wrap(buffer, 0).templateId();
            orders += template >= 1 && template <= 4 ? 1 : 0;
        }
        assertTrue(orders > 500, "order commands, the records whose field was renamed: " + orders);

        final EngineConfig config = RandomStream.config().operator(EngineHarness.OPERATOR).shards(shards).groupCommands(group);
        final ShardPipelineTest.Run version5 = ShardPipelineTest.run(config, records, 0, 0);
        final ShardPipelineTest.Run version4 = ShardPipelineTest.run(config, asVersion4, 0, 0);

        assertArrayEquals(version5.hash(), version4.hash(), "the same state");
        final byte[] expected = version5.events().clone();
        int events = 0;
        for (int at = 0; at < expected.length; )
        {
            final int length = new UnsafeBuffer(expected).getInt(at);
            final UnsafeBuffer event = new UnsafeBuffer(expected, at + 4, length);
            assertEquals(JournalRecords.SCHEMA_VERSION, new MessageHeaderDecoder().wrap(event, 0).version());
            new MessageHeaderEncoder().wrap(event, 0).version(4);
            at += 4 + length;
            events++;
        }
        assertTrue(events > 3_000, "events: " + events);
        assertArrayEquals(expected, version4.events(), "version 5's events but for the version in each header");
    }
}
