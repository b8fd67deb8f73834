package io.venue.cli;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.codec.Hex;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.JournalEventSink;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A journal written under schema version 4 (before version 5 renamed {@code Lane} to {@code LimitClass}), kept in the
 * test resources as the version 4 build wrote it ({@code journal-v4/README.md}): this build dumps it as that build did
 * but for the key {@code limitClass} in place of {@code lane}, replays it to the very event bytes and state that run
 * recorded, and carries on such a journal with records of its own version (6).
 */
class JournalVersionFourTest
{
    private static final String FIXTURE = "/io/venue/cli/journal-v4/";
    private static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    private static final Address ALICE = Address.of("0x" + "a1".repeat(20));

    @TempDir
    Path dir;

    @Test
    void dumpPrintsTheVersionFourJournalAsTheVersionFourBuildDidButForTheKeyOfTheLimitClass() throws IOException
    {
        final List<byte[]> commands = records("commands.hex");
        assertTrue(
            commands.stream().allMatch(record -> new UnsafeBuffer(record).getShort(6, JournalRecords.BYTE_ORDER) == 4));
        JournalFolders.write(dir.resolve("commands"), commands);
        JournalFolders.write(dir.resolve("events"), records("events.hex"));

        final List<String> printedBefore = lines("commands-dump.jsonl");
        assertEquals(11, printedBefore.stream().filter(line -> line.contains("\"lane\":")).count());
        final CliRun dumpCommands = CliRun.of("journal", "dump", dir.resolve("commands").toString());
        assertEquals(0, dumpCommands.exitCode(), dumpCommands.err());
        assertEquals(printedBefore.stream().map(line -> line.replace("\"lane\":", "\"limitClass\":")).toList(),
            dumpCommands.out().lines().toList());
        assertEquals(6, dumpCommands.out().lines().filter(line -> line.endsWith(",\"limitClass\":\"MM\"}")).count());

        final CliRun dumpEvents = CliRun.of("journal", "dump", dir.resolve("events").toString());
        assertEquals(0, dumpEvents.exitCode(), dumpEvents.err());
        assertEquals(lines("events-dump.jsonl"), dumpEvents.out().lines().toList());
    }

    @Test
    void replayWritesTheVersionFourEventsByteForByteAndEndsInTheRecordedState() throws IOException
    {
        JournalFolders.write(dir.resolve("commands"), records("commands.hex"));
        JournalFolders.write(dir.resolve("events"), records("events.hex"));
        final String hash = lines("state-hash").get(0);

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertEquals("replayed 17 commands, 72 events identical; state hash " + hash, replay.out().trim());

        // the run had one engine thread; matching shards write the same events (staged ones at settlement)
        final CliRun sharded = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(),
            "--operator", OPERATOR.toString(), "--shards", "2", "--group-commands", "2");
        assertEquals(0, sharded.exitCode(), sharded.out() + sharded.err());
        assertTrue(sharded.out().startsWith("replayed 17 commands, 72 events identical;"), sharded.out());
    }

    @Test
    void thisBuildCarriesOnAVersionFourJournalWithRecordsOfItsOwnVersion() throws IOException
    {
        final List<byte[]> commands = new ArrayList<>(records("commands.hex"));
        final ActionCommandEncoder encoder = new ActionCommandEncoder();
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1024);
        final byte[] digest = new byte[32];
        digest[31] = 18;
        // Alice's next order, of limit class MM, as this build journals it
        final int length = encoder.encode(18, 1_763_000_000_018L, 1,
            new ActionPayload(ALICE, 7, null, 1_763_000_000_000L,
                new SpotPlaceOrder(7, null, Side.BID, 700_000, 1_000_000, null, TimeInForce.GTC, false, false, -1)),
            digest, SignerMatch.ACCOUNT_RAW, ALICE.toBytes(), new byte[20], null, true, buffer, 0);
        final byte[] next = new byte[length];
        buffer.getBytes(0, next);
        assertEquals(JournalRecords.SCHEMA_VERSION, new UnsafeBuffer(next).getShort(6, JournalRecords.BYTE_ORDER));
        commands.add(next);

        // this build's engine runs the whole journal, as a primary does after the upgrade
        try (Journal commandJournal = Journal.open(dir.resolve("commands"));
            Journal eventJournal = Journal.open(dir.resolve("events"));
            Engine engine = new Engine(new EngineConfig().operator(OPERATOR),
                new JournalEventSink(eventJournal.appender())))
        {
            final JournalAppender out = commandJournal.appender();
            for (final byte[] record : commands)
            {
                out.append(new UnsafeBuffer(record), 0, record.length);
                assertTrue(engine.onCommand(new UnsafeBuffer(record), 0, record.length));
            }
        }
        final List<byte[]> events = JournalFolders.read(dir.resolve("events"));
        final List<byte[]> recorded = records("events.hex");
        for (int i = 0; i < recorded.size(); i++)
        {
            assertArrayEquals(recorded.get(i), events.get(i), "the version 4 run's event " + i);
        }
        assertTrue(events.size() > recorded.size());
        for (final byte[] event : events.subList(recorded.size(), events.size()))
        {
            assertEquals(JournalRecords.SCHEMA_VERSION, new UnsafeBuffer(event).getShort(6, JournalRecords.BYTE_ORDER),
                "the new command's events");
        }

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(
            replay.out().startsWith("replayed 18 commands, " + events.size() + " events identical;"), replay.out());
        final CliRun dump = CliRun.of("journal", "dump", dir.resolve("commands").toString(), "--from-sequence", "16");
        assertEquals(3, dump.out().lines().filter(line -> line.contains("\"limitClass\":")).count(), dump.out());
    }

    private static List<String> lines(final String name) throws IOException
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
            JournalVersionFourTest.class.getResourceAsStream(FIXTURE + name), StandardCharsets.UTF_8)))
        {
            return in.lines().toList();
        }
    }

    /** A fixture's records, one hex line each. */
    private static List<byte[]> records(final String name) throws IOException
    {
        return lines(name).stream().map(Hex::fromHex).toList();
    }
}
