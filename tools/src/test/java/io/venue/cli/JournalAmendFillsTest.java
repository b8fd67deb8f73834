package io.venue.cli;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.codec.Hex;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.JournalEventSink;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.OrderRestedDecoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.TradeDecoder;
import io.venue.responder.ReadModels;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Journals that the builds of schema versions 4 and 5 wrote, holding amends that took a partly filled order out of the
 * book and entered it again, which those builds entered with the new quantity as the order's size (its filled quantity
 * from 0); kept in the test resources as they wrote them ({@code journal-amends/README.md}). Version 6 keeps what the
 * order filled, for amends of version 6 only (JOURNAL-SCHEMA.md, section 9): this build replays the old journals to the
 * very events and state their runs recorded, gives the fills kept to the same commands as version 6 records, and
 * carries a version 5 journal on with version 6 amends, the order status read model counting every fill of the
 * id throughout.
 */
class JournalAmendFillsTest
{
    private static final String FIXTURE = "/io/venue/cli/journal-amends/";
    private static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    private static final Address ALICE = Address.of("0x" + "a1".repeat(20));
    private static final Address BOB = Address.of("0x" + "b0".repeat(20));
    private static final long UNIT = 1_000_000;
    /** The scripted journals' last command was stamped at this time. */
    private static final long T0 = 1_763_000_000_000L;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}: {1} commands, {2} events")
    @CsvSource({"v4, 25, 145, 4", "v5, 25, 145, 5", "v5-random, 811, 4252, 5"})
    void replayWritesTheEventsTheOldBuildWroteByteForByte(final String fixture, final int commandCount,
        final int eventCount, final int version) throws IOException
    {
        final List<byte[]> commands = records(fixture, "commands.hex");
        final List<byte[]> events = records(fixture, "events.hex");
        assertEquals(commandCount, commands.size());
        assertEquals(eventCount, events.size());
        assertTrue(commands.stream().allMatch(record -> versionOf(record) == version));
        assertTrue(events.stream().allMatch(record -> versionOf(record) == version));
        // what the fixture is for: amends that entered a partly filled order again, its size then the new
        // quantity alone
        final int reentries = partlyFilledReentries(events);
        assertTrue(reentries >= 5, "re-entries of partly filled orders: " + reentries);
        JournalFolders.write(dir.resolve("commands"), commands);
        JournalFolders.write(dir.resolve("events"), events);
        final String hash = lines(fixture, "state-hash").get(0);

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertEquals("replayed " + commandCount + " commands, " + eventCount + " events identical; state hash " + hash,
            replay.out().trim());

        // the run had one engine thread; matching shards write the same events, amends settled from the shards' tapes
        // (groups of one) or applied as barriers (an amend of an order placed in its group). A group longer than one
        // reads credit as at its start, which some accounts of the random journal run short of, so only groups of one
        // decide exactly as one thread there. The state hash is not the one thread's: admission gives each place and
        // amend a time priority even if the book refuses it or it keeps its place (ENGINE.md, "Other differences from
        // one shard"), and the hash counts priorities
        for (final String group : fixture.endsWith("random") ? new String[] {"1"} : new String[] {"1", "4"})
        {
            final CliRun sharded = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
                dir.resolve("events").toString(), "--operator", OPERATOR.toString(), "--shards", "2",
                "--group-commands", group);
            assertEquals(0, sharded.exitCode(), sharded.out() + sharded.err());
            assertTrue(sharded.out().startsWith("replayed " + commandCount + " commands, " + eventCount + " events " +
                "identical;"), sharded.out() + " (groups of " + group + ")");
        }
    }

    @Test
    void dumpPrintsTheVersionFiveEventsAsTheVersionFiveBuildDid() throws IOException
    {
        JournalFolders.write(dir.resolve("events"), records("v5", "events.hex"));
        final CliRun dump = CliRun.of("journal", "dump", dir.resolve("events").toString());
        assertEquals(0, dump.exitCode(), dump.err());
        assertEquals(lines("v5", "events-dump.jsonl"), dump.out().lines().toList());
    }

    @Test
    void theSameCommandsAsVersionSixRecordsKeepWhatTheOrdersFilled() throws IOException
    {
        final List<byte[]> recorded = records("v5", "events.hex");
        final List<byte[]> commands = new ArrayList<>();
        for (final byte[] record : records("v5", "commands.hex"))
        {
            final byte[] copy = record.clone();
            new MessageHeaderEncoder().wrap(new UnsafeBuffer(copy), 0).version(6);
            commands.add(copy);
        }
        final List<byte[]> events = run(commands, dir.resolve("v6"));
        assertEquals(recorded.size(), events.size(), "as many events");

        // the same events but for the headers and the sizes of the orders entered again after filling in part
        int sizesDiffer = 0;
        for (int i = 0; i < events.size(); i++)
        {
            final byte[] expected = recorded.get(i).clone();
            final byte[] actual = events.get(i).clone();
            assertEquals(6, versionOf(actual));
            new MessageHeaderEncoder().wrap(new UnsafeBuffer(expected), 0).version(6);
            if (!Arrays.equals(expected, actual))
            {
                sizesDiffer++;
                final int qtyAt = qtyOffset(actual);
                assertTrue(qtyAt > 0, "only sizes differ: event " + i);
                new UnsafeBuffer(expected).putLong(qtyAt, 0, JournalRecords.BYTE_ORDER);
                new UnsafeBuffer(actual).putLong(qtyAt, 0, JournalRecords.BYTE_ORDER);
                assertArrayEquals(expected, actual, "event " + i + " but for its qty");
            }
        }
        assertEquals(11, sizesDiffer);

        // order A (bid 100 x 10) filled 2, then was moved to 99 x 6: its size counts the 2 (version 5: 6 x 6)
        final String a = acceptedAt(recorded, 8);
        assertSize(events, 10, "OrderAccepted", a, 8, 6);
        assertSize(recorded, 10, "OrderAccepted", a, 6, 6);
        assertSize(events, 10, "OrderRested", a, 8, 6);
        // filled 1 more, then 99 x 7 (more quantity): 3 + 7
        assertSize(events, 12, "OrderAccepted", a, 10, 7);
        assertSize(recorded, 12, "OrderAccepted", a, 7, 7);
        // 101 x 5, a price the other side reaches: entered again, trading 3 as a taker
        assertSize(events, 14, "OrderAccepted", a, 8, 5);
        assertSize(events, 14, "OrderRested", a, 8, 2);
        assertSize(recorded, 14, "OrderRested", a, 5, 2);
        // 101 x 1 keeps its place: the size drops by 1
        assertSize(events, 15, "OrderAmended", a, 7, 1);
        assertSize(recorded, 15, "OrderAmended", a, 4, 1);
        // a batch's amend leg: 102 x 4, 6 filled
        assertSize(events, 16, "OrderAccepted", a, 10, 4);
        assertSize(recorded, 16, "OrderAccepted", a, 4, 4);
        // Bob's ask C filled 2 of 5, then moved to 111 x 5; it stays open, so the state differs too
        final String c = acceptedAt(recorded, 18);
        assertSize(events, 20, "OrderAccepted", c, 7, 5);
        assertSize(recorded, 20, "OrderAccepted", c, 5, 5);
        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("v6").resolve("commands").toString(),
            dir.resolve("v6").resolve("events").toString(), "--operator", OPERATOR.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertNotEquals(lines("v5", "state-hash").get(0), replay.out().trim().replaceAll(".* ", ""),
            "C's size in the book differs");

        // the order status read model counts every fill of the id from either journal
        JournalFolders.write(dir.resolve("v5-events"), recorded);
        final ReadModels fromVersion5 = models(dir.resolve("v5-events"));
        final ReadModels fromVersion6 = models(dir.resolve("v6").resolve("events"));
        for (final String id : acceptedIds(recorded))
        {
            assertNotNull(fromVersion5.orders().json(id));
            assertEquals(fromVersion6.orders().json(id), fromVersion5.orders().json(id), id);
        }
        assertTrue(
            fromVersion5.orders().json(a)
            .contains("\"qty\":10000000,\"remaining\":0,\"filled\":10000000,\"status\":\"filled\""),
            fromVersion5.orders().json(a));
        assertTrue(fromVersion5.orders().json(c)
            .contains("\"qty\":7000000,\"remaining\":5000000,\"filled\":2000000,\"status\":\"resting\""),
            fromVersion5.orders().json(c));
    }

    @Test
    void aVersionFiveJournalCarriedOnWithVersionSixAmendsReplaysAndCountsEveryFill() throws IOException
    {
        final List<byte[]> recorded = records("v5", "events.hex");
        final String c = acceptedAt(recorded, 18);
        final OrderId order = OrderId.of(c);
        final List<byte[]> commands = new ArrayList<>(records("v5", "commands.hex"));
        // C, which a version 5 amend entered again after it filled 2 (its size in the book 5 then, nothing filled),
        // fills 1 (after the ask at 107), is moved by a version 6 amend, fills 1 more and is moved again
        commands.add(command(26, ALICE, 50,
            new SpotPlaceOrder(7, null, Side.BID, 111 * UNIT, 2 * UNIT, null, TimeInForce.IOC, false,
            false, SpotPlaceOrder.NO_EXPIRY)));
        commands.add(command(27, BOB, 50, new Amend(order, 112 * UNIT, 4 * UNIT)));
        commands.add(
            command(28, ALICE, 51, new SpotPlaceOrder(7, null, Side.BID, 112 * UNIT, UNIT, null, TimeInForce.IOC, false,
            false, SpotPlaceOrder.NO_EXPIRY)));
        commands.add(command(29, BOB, 51, new Amend(order, 113 * UNIT, 2 * UNIT)));

        final List<byte[]> events = run(commands, dir);
        for (int i = 0; i < recorded.size(); i++)
        {
            assertArrayEquals(recorded.get(i), events.get(i), "the version 5 run's event " + i);
        }
        final List<byte[]> added = events.subList(recorded.size(), events.size());
        // this build's version (7 since issue 23's accounts), which keeps the fills as version 6 did
        assertTrue(JournalRecords.keepsFilledOnReentry(JournalRecords.SCHEMA_VERSION));
        assertTrue(added.stream().allMatch(event -> versionOf(event) == JournalRecords.SCHEMA_VERSION),
            "the new commands' events");
        // a version 6 amend keeps what the book holds of C's fills: those since the version 5 amend entered it again
        assertSize(events, 27, "OrderAccepted", c, 5, 4);
        assertSize(events, 29, "OrderAccepted", c, 4, 2);

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(),
            "--operator", OPERATOR.toString(), "--shards", "2", "--group-commands", "1");
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(
            replay.out().startsWith("replayed 29 commands, " + events.size() + " events identical;"), replay.out());

        // the read model counts all 4 it filled, across both re-entries
        final String json = models(dir.resolve("events")).orders().json(c);
        assertTrue(
            json.contains("\"qty\":6000000,\"remaining\":2000000,\"filled\":4000000,\"status\":\"resting\""), json);
    }

    /** Runs this build's engine over the commands, both journaled in {@code folder}; returns the events. */
    private static List<byte[]> run(final List<byte[]> commands, final Path folder)
    {
        try (Journal commandJournal = Journal.open(folder.resolve("commands"));
            Journal eventJournal = Journal.open(folder.resolve("events"));
            Engine engine = new Engine(new EngineConfig().operator(OPERATOR),
                new JournalEventSink(eventJournal.appender())))
        {
            final JournalAppender out = commandJournal.appender();
            for (final byte[] record : commands)
            {
                out.append(new UnsafeBuffer(record), 0, record.length);
                assertTrue(engine.onCommand(new UnsafeBuffer(record), 0, record.length));
            }
            engine.flushEvents();
        }
        return JournalFolders.read(folder.resolve("events"));
    }

    /** A command of this build's version, as the sequencer journals it: signed by the account, a made-up digest. */
    private static byte[] command(final long sequence, final Address account, final long nonce, final Action action)
    {
        final byte[] digest = new byte[32];
        digest[0] = (byte)0xd6;
        digest[31] = (byte)sequence;
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1024);
        final int length = new ActionCommandEncoder()
            .encode(sequence, T0 + sequence, 1, new ActionPayload(account, nonce, null,
            T0, action), digest, SignerMatch.ACCOUNT_RAW, account.toBytes(), new byte[20], null, false, buffer, 0);
        final byte[] record = new byte[length];
        buffer.getBytes(0, record);
        assertEquals(JournalRecords.SCHEMA_VERSION, versionOf(record));
        return record;
    }

    /**
     * Asserts the event of {@code type} about {@code orderId} caused by the command at {@code sequence} states
     * this size.
     */
    private static void assertSize(
        final List<byte[]> events, final long sequence, final String type, final String orderId, final long qty,
        final long remaining)
    {
        final String line = line(events, sequence, type, orderId);
        assertTrue(line.contains("\"qty\":" + qty * UNIT + ",\"remaining\":" + remaining * UNIT), line);
    }

    private static String line(final List<byte[]> events, final long sequence, final String type, final String orderId)
    {
        final RecordPrinter printer = new RecordPrinter();
        for (final byte[] event : events)
        {
            final String line = printer.print(new UnsafeBuffer(event), 0, event.length);
            if (line.startsWith("{\"type\":\"" + type + "\",\"sequence\":" + sequence + ",") && line.contains(orderId))
            {
                return line;
            }
        }
        throw new AssertionError("no " + type + " of " + orderId + " at sequence " + sequence);
    }

    /** The id of the order the command at {@code sequence} placed (its first OrderAccepted). */
    private static String acceptedAt(final List<byte[]> events, final long sequence)
    {
        for (final byte[] event : events)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(event);
            if (templateOf(event) == OrderAcceptedDecoder.TEMPLATE_ID && JournalRecords.sequence(buffer, 0) == sequence)
            {
                return id(buffer, MessageHeaderDecoder.ENCODED_LENGTH + OrderAcceptedDecoder.orderIdEncodingOffset());
            }
        }
        throw new AssertionError("no order accepted at " + sequence);
    }

    private static Set<String> acceptedIds(final List<byte[]> events)
    {
        final Set<String> ids = new HashSet<>();
        for (final byte[] event : events)
        {
            if (templateOf(event) == OrderAcceptedDecoder.TEMPLATE_ID)
            {
                ids.add(id(new UnsafeBuffer(event),
                    MessageHeaderDecoder.ENCODED_LENGTH + OrderAcceptedDecoder.orderIdEncodingOffset()));
            }
        }
        return ids;
    }

    /** OrderAccepted events of an id accepted before (an amend entered it again) that had traded before. */
    private static int partlyFilledReentries(final List<byte[]> events)
    {
        final Set<String> accepted = new HashSet<>();
        final Set<String> traded = new HashSet<>();
        int count = 0;
        for (final byte[] event : events)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(event);
            final int body = MessageHeaderDecoder.ENCODED_LENGTH;
            if (templateOf(event) == OrderAcceptedDecoder.TEMPLATE_ID)
            {
                final String id = id(buffer, body + OrderAcceptedDecoder.orderIdEncodingOffset());
                if (!accepted.add(id) && traded.contains(id))
                {
                    count++;
                    // as the builds of versions 4 and 5 entered it: its size is its new quantity
                    assertEquals(
                        buffer.getLong(body + OrderAcceptedDecoder.qtyEncodingOffset(), JournalRecords.BYTE_ORDER),
                        buffer.getLong(body + OrderAcceptedDecoder.remainingEncodingOffset(),
                            JournalRecords.BYTE_ORDER));
                }
            }
            else if (templateOf(event) == TradeDecoder.TEMPLATE_ID)
            {
                traded.add(id(buffer, body + TradeDecoder.makerOrderIdEncodingOffset()));
                traded.add(id(buffer, body + TradeDecoder.takerOrderIdEncodingOffset()));
            }
        }
        return count;
    }

    /** The offset in an event of its {@code qty}, for the events that state an order's size; -1 for others. */
    private static int qtyOffset(final byte[] event)
    {
        final int header = MessageHeaderDecoder.ENCODED_LENGTH;
        return switch (templateOf(event))
        {
            case OrderAcceptedDecoder.TEMPLATE_ID -> header + OrderAcceptedDecoder.qtyEncodingOffset();
            case OrderRestedDecoder.TEMPLATE_ID -> header + OrderRestedDecoder.qtyEncodingOffset();
            case OrderAmendedDecoder.TEMPLATE_ID -> header + OrderAmendedDecoder.qtyEncodingOffset();
            default -> -1;
        };
    }

    private static int templateOf(final byte[] record)
    {
        return new MessageHeaderDecoder().wrap(new UnsafeBuffer(record), 0).templateId();
    }

    private static int versionOf(final byte[] record)
    {
        return new MessageHeaderDecoder().wrap(new UnsafeBuffer(record), 0).version();
    }

    private static String id(final UnsafeBuffer buffer, final int offset)
    {
        final byte[] bytes = new byte[32];
        buffer.getBytes(offset, bytes);
        return Hex.to0x(bytes);
    }

    private static ReadModels models(final Path events)
    {
        final ReadModels models = new ReadModels(10_000);
        try (Journal journal = Journal.openReadOnly(events))
        {
            models.scan(journal.tailer());
        }
        return models;
    }

    /** A fixture's file, one line each; read through gzip when only {@code name.gz} is there. */
    private static List<String> lines(final String fixture, final String name) throws IOException
    {
        InputStream in = JournalAmendFillsTest.class.getResourceAsStream(FIXTURE + fixture + "/" + name);
        if (in == null)
        {
            in = new GZIPInputStream(
                JournalAmendFillsTest.class.getResourceAsStream(FIXTURE + fixture + "/" + name + ".gz"));
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)))
        {
            return reader.lines().toList();
        }
    }

    /** A fixture's records, one hex line each. */
    private static List<byte[]> records(final String fixture, final String name) throws IOException
    {
        return lines(fixture, name).stream().map(Hex::fromHex).toList();
    }
}
