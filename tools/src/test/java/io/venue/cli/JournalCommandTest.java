package io.venue.cli;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.Engine;
import io.venue.engine.JournalEventSink;
import io.venue.engine.EngineConfig;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `venue journal dump` and `venue journal replay` over real journals written by the engine.
 */
class JournalCommandTest
{
    private static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    private static final Address ALICE = Address.of("0x" + "a1".repeat(20));
    private static final Address BOB = Address.of("0x" + "b0".repeat(20));

    @TempDir
    Path dir;

    private void run(final EngineConfig config, final Path commands, final Path events)
    {
        try (Journal commandJournal = Journal.open(commands); Journal eventJournal = Journal.open(events))
        {
            final JournalAppender commandOut = commandJournal.appender();
            final JournalAppender eventOut = eventJournal.appender();
            final Engine engine = new Engine(config, new JournalEventSink(eventOut));
            final ActionCommandEncoder encoder = new ActionCommandEncoder();
            final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1024);
            final Action[] operatorActions = {
                new CreateAsset(1, "USD"), new CreateAsset(2, "BTC"), new CreateSpotMarket(7, 2, 1, 100, 1000, 1000),
                new Deposit(ALICE, 1, 1_000_000_000), new Deposit(BOB, 2, 1_000_000_000)};
            long sequence = 0;
            for (int i = 0; i < operatorActions.length; i++)
            {
                sequence = send(engine, encoder, buffer, commandOut, ++sequence, OPERATOR, i, operatorActions[i]);
            }
            sequence = send(engine, encoder, buffer, commandOut, ++sequence, ALICE, 0,
                new SpotPlaceOrder(7, null, Side.BID, 1_000_000, 5_000_000, null, TimeInForce.GTC, false, false, -1));
            send(engine, encoder, buffer, commandOut, ++sequence, BOB, 0,
                new SpotPlaceOrder(7, null, Side.ASK, 1_000_000, 2_000_000, null, TimeInForce.IOC, false, false, -1));
        }
    }

    private static long send(
        final Engine engine,
        final ActionCommandEncoder encoder,
        final ExpandableArrayBuffer buffer,
        final JournalAppender commands,
        final long sequence,
        final Address account,
        final long nonce,
        final Action action)
    {
        final byte[] digest = new byte[32];
        digest[31] = (byte)sequence;
        final int length = encoder.encode(sequence, 1_763_000_000_000L + sequence, 1,
            new ActionPayload(account, nonce, null, 1_763_000_000_000L, action), digest, SignerMatch.ACCOUNT_RAW,
            account.toBytes(), new byte[20], buffer, 0);
        commands.append(buffer, 0, length);
        engine.onCommand(buffer, 0, length);
        return sequence;
    }

    @Test
    void dumpPrintsEveryRecordAndReplayFindsTheSameEvents()
    {
        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands"), dir.resolve("events"));

        final CliRun dump = CliRun.of("journal", "dump", dir.resolve("events").toString(), "--from-sequence", "7");
        assertEquals(0, dump.exitCode(), dump.err());
        assertTrue(dump.out().contains("\"type\":\"Trade\""), dump.out());
        assertTrue(dump.out().lines().allMatch(line -> line.contains("\"sequence\":7")), dump.out());

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(), dir.resolve("events").toString(),
            "--operator", OPERATOR.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().startsWith("replayed 7 commands"), replay.out());
    }

    @Test
    void replayUnderAnotherConfigurationShowsTheFirstDivergence()
    {
        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands"), dir.resolve("events"));
        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(), dir.resolve("events").toString(),
            "--operator", BOB.toString());
        assertEquals(1, replay.exitCode(), replay.out());
        assertTrue(replay.out().contains("first divergence at command index"), replay.out());
        assertTrue(replay.out().contains("NOT_OPERATOR"), replay.out());
    }

    @Test
    void filtersTimelineBookAndDiff()
    {
        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands"), dir.resolve("events"));

        final CliRun bob = CliRun.of("journal", "dump", dir.resolve("events").toString(), "--account", BOB.toString());
        assertEquals(0, bob.exitCode(), bob.err());
        assertTrue(bob.out().lines().allMatch(line -> line.contains(BOB.toString())), bob.out());
        assertTrue(bob.out().contains("\"type\":\"Trade\""), bob.out());
        final CliRun timed = CliRun.of("journal", "dump", dir.resolve("commands").toString(), "--from-time", "1763000000006",
            "--market", "7");
        assertEquals(2, timed.out().lines().count(), timed.out());

        // Alice's bid: its id is the digest the test gave command 6
        final String aliceOrder = "0x" + "00".repeat(31) + "06";
        final CliRun timeline = CliRun.of("journal", "timeline", dir.resolve("commands").toString(), dir.resolve("events").toString(),
            "--order", aliceOrder);
        assertEquals(0, timeline.exitCode(), timeline.err());
        final java.util.List<String> lines = timeline.out().lines().toList();
        assertTrue(lines.get(0).contains("\"type\":\"PlaceOrder\""), timeline.out());
        assertTrue(lines.stream().anyMatch(line -> line.contains("\"type\":\"OrderRested\"")), timeline.out());
        assertTrue(lines.stream().anyMatch(line -> line.contains("\"type\":\"Trade\"")), timeline.out());

        final CliRun before = CliRun.of("journal", "book", dir.resolve("commands").toString(), "--market", "7", "--at", "6",
            "--operator", OPERATOR.toString());
        assertEquals(0, before.exitCode(), before.err());
        assertEquals("{\"market\":7,\"book\":0,\"side\":\"Bid\",\"depth\":0,\"price\":1000000,\"qty\":5000000,\"orders\":1}",
            before.out().trim());
        final CliRun after = CliRun.of("journal", "book", dir.resolve("commands").toString(), "--market", "7", "--at", "7",
            "--operator", OPERATOR.toString());
        assertTrue(after.out().contains("\"qty\":3000000"), after.out());

        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands2"), dir.resolve("events2"));
        assertEquals(0, CliRun.of("journal", "diff", dir.resolve("events").toString(), dir.resolve("events2").toString()).exitCode());
        run(new EngineConfig().operator(BOB), dir.resolve("commands3"), dir.resolve("events3"));
        final CliRun diff = CliRun.of("journal", "diff", dir.resolve("events").toString(), dir.resolve("events3").toString());
        assertEquals(1, diff.exitCode(), diff.out());
        assertTrue(diff.out().startsWith("journals differ at record 0"), diff.out());
    }
}
