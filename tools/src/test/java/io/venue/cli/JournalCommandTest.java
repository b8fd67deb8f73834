package io.venue.cli;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.appliance.ApplianceConfigFile;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.JournalEventSink;
import io.venue.engine.PersistedEngine;
import io.venue.engine.state.EngineState;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import io.venue.signing.ActionSigner;
import io.venue.snapshot.SnapshotWriter;
import io.venue.verifier.ActionVerifier;
import io.venue.verifier.VerificationResult;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

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
        try (Journal commandJournal = Journal.open(commands); Journal eventJournal = Journal.open(events);
            Engine engine = new Engine(config, new JournalEventSink(eventJournal.appender())))
        {
            final JournalAppender commandOut = commandJournal.appender();
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
            // with several shards the last commands' events are written when they are settled
            engine.drain();
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
        return send(engine, encoder, buffer, commands, sequence, account, nonce, null, action);
    }

    private static long send(
        final Engine engine,
        final ActionCommandEncoder encoder,
        final ExpandableArrayBuffer buffer,
        final JournalAppender commands,
        final long sequence,
        final Address account,
        final long nonce,
        final ClientOrderId clientOrderId,
        final Action action)
    {
        final byte[] digest = new byte[32];
        digest[31] = (byte)sequence;
        final int length = encoder.encode(sequence, 1_763_000_000_000L + sequence, 1,
            new ActionPayload(account, nonce, clientOrderId, 1_763_000_000_000L, action), digest,
            SignerMatch.ACCOUNT_RAW, account.toBytes(), new byte[20], buffer, 0);
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

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().startsWith("replayed 7 commands"), replay.out());
    }

    @Test
    void replayAndBookTakeTheRunsShards()
    {
        run(new EngineConfig().operator(OPERATOR).shards(2).groupCommands(2), dir.resolve("commands"),
            dir.resolve("events"));
        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(),
            "--operator", OPERATOR.toString(), "--shards", "2", "--group-commands", "2");
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().startsWith("replayed 7 commands"), replay.out());
        final CliRun book = CliRun.of("journal", "book", dir.resolve("commands").toString(), "--market", "7", "--at",
            "7", "--operator", OPERATOR.toString(), "--shards", "2");
        assertEquals(0, book.exitCode(), book.out() + book.err());
        assertTrue(book.out().contains("\"side\":\"Bid\",\"depth\":0,\"price\":1000000,\"qty\":3000000"), book.out());
    }

    @Test
    void replayReadsTheRunsConfigurationFile() throws Exception
    {
        // a haircut that leaves Alice's bid out of reach: only an engine under the same settings decides the same
        final Path file = Files.writeString(dir.resolve("venue.properties"), String.join("\n",
            "operators=" + OPERATOR, "engine.shards=2", "engine.group.commands=2", "mm.cross.shard.credit.enabled=true",
            "mm.cross.shard.credit.haircut.ppm=999999", "chain.id=42161", "verifying.contract=0x" + "c0".repeat(20)));
        run(ApplianceConfigFile.read(file).engineConfig(), dir.resolve("commands"), dir.resolve("events"));
        final CliRun dump = CliRun.of("journal", "dump", dir.resolve("events").toString());
        assertTrue(dump.out().contains("CROSS_SHARD_CREDIT_HAIRCUT"), dump.out());

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--config", file.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        final CliRun withoutPolicy = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString(), "--shards", "2",
            "--group-commands", "2");
        assertEquals(1, withoutPolicy.exitCode(), withoutPolicy.out() + withoutPolicy.err());
        assertTrue(withoutPolicy.out().startsWith("first divergence at command index"), withoutPolicy.out());
    }

    @Test
    void replayVerifiesEverySignatureAgainAndFindsAChangedRecord()
    {
        final Secp256k1KeyPair operatorKey = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair alice = Secp256k1KeyPair.generate(new SecureRandom());
        final Address operator = operatorKey.address();
        final ActionVerifier verifier = new ActionVerifier(DeploymentOptions.TEST_CHAIN_ID,
            Address.of(DeploymentOptions.TEST_CONTRACT),
            Secp256k1Recoveries.select().newRecovery(), false, 1 << 16);
        final ActionCommandEncoder encoder = new ActionCommandEncoder();
        final ExpandableArrayBuffer record = new ExpandableArrayBuffer(1024);
        final ExpandableArrayBuffer result = new ExpandableArrayBuffer(4096);
        final List<byte[]> records = new ArrayList<>();
        final Action[] actions = {new CreateAsset(1, "USD"), new CreateAsset(2, "BTC"),
            new CreateSpotMarket(7, 2, 1, 100, 1000, 1000),
            new Deposit(alice.address(), 1, 1_000_000_000),
            new SpotPlaceOrder(7, null, Side.BID, 1_000_000, 5_000_000, null, TimeInForce.GTC, false, false, -1)};
        for (int i = 0; i < actions.length; i++)
        {
            final boolean byAlice = i == actions.length - 1;
            final Secp256k1KeyPair key = byAlice ? alice : operatorKey;
            final byte[] body = CanonicalJson.signedActionBody(
                new ActionSigner(DeploymentOptions.TEST_CHAIN_ID, Address.of(DeploymentOptions.TEST_CONTRACT), key)
                .sign(new ActionPayload(key.address(), byAlice ? 0 : i, null, 1_763_000_000_000L, actions[i]),
                    byAlice ? PreimageMode.PERSONAL : PreimageMode.RAW));
            verifier.verify(body, 0, body.length, 0, 0, result);
            final VerificationResult verified = new VerificationResult().wrap(result, 0);
            final byte[] digest = new byte[32];
            final byte[] raw = new byte[20];
            final byte[] personal = new byte[20];
            final byte[] signature = new byte[65];
            verified.getDigest(digest, 0);
            verified.getRawSigner(raw, 0);
            verified.getPersonalSigner(personal, 0);
            verified.getSignature(signature, 0);
            final int length = encoder.encode(i + 1, 1_763_000_000_000L + i, 1,
                new ActionPayload(key.address(), byAlice ? 0 : i, null, 1_763_000_000_000L, actions[i]), digest,
                SignerMatch.get((short)verified.signerMatch().ordinal()), raw, personal, signature, false, record, 0);
            final byte[] copy = new byte[length];
            record.getBytes(0, copy);
            records.add(copy);
        }
        writeAndRun(new EngineConfig().operator(operator), records, dir.resolve("commands"), dir.resolve("events"));
        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", operator.toString(), "--verify-signatures");
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().contains("5 signatures verified again; 0 records not verified"), replay.out());

        // a journal whose commands keep no signature fails the check unless that is allowed
        run(new EngineConfig().operator(OPERATOR), dir.resolve("unsigned-commands"), dir.resolve("unsigned-events"));
        final CliRun unsigned = CliRun.of("journal", "replay", dir.resolve("unsigned-commands").toString(),
            dir.resolve("unsigned-events").toString(), "--operator", OPERATOR.toString(), "--verify-signatures");
        assertEquals(1, unsigned.exitCode(), unsigned.out());
        assertTrue(unsigned.out().contains("without a kept signature"), unsigned.out());
        final CliRun allowed = CliRun.of("journal", "replay", dir.resolve("unsigned-commands").toString(),
            dir.resolve("unsigned-events").toString(), "--operator", OPERATOR.toString(), "--verify-signatures",
            "--allow-unsigned");
        assertEquals(0, allowed.exitCode(), allowed.out());

        // the same journal with the order's price changed after it was signed (and its events replayed from it)
        final byte[] changed = records.get(4).clone();
        new UnsafeBuffer(changed)
            .putLong(MessageHeaderEncoder.ENCODED_LENGTH + PlaceOrderEncoder.priceEncodingOffset(), 2_000_000,
            ByteOrder.LITTLE_ENDIAN);
        records.set(4, changed);
        writeAndRun(new EngineConfig().operator(operator), records, dir.resolve("changed-commands"),
            dir.resolve("changed-events"));
        final CliRun trusted = CliRun.of("journal", "replay", dir.resolve("changed-commands").toString(),
            dir.resolve("changed-events").toString(), "--operator", operator.toString());
        assertEquals(0, trusted.exitCode(), "without the option the recorded signer is trusted: " + trusted.out());
        final CliRun audited = CliRun.of("journal", "replay", dir.resolve("changed-commands").toString(),
            dir.resolve("changed-events").toString(), "--operator", operator.toString(), "--verify-signatures");
        assertEquals(1, audited.exitCode(), audited.out());
        assertTrue(audited.out().startsWith("signature check failed at command index"), audited.out());
        assertTrue(audited.out().contains("(sequence 5)") && audited.out().contains("another digest"), audited.out());
    }

    private static void writeAndRun(final EngineConfig config, final List<byte[]> records, final Path commands,
        final Path events)
    {
        try (Journal commandJournal = Journal.open(commands); Journal eventJournal = Journal.open(events))
        {
            final JournalAppender commandOut = commandJournal.appender();
            final Engine engine = new Engine(config, new JournalEventSink(eventJournal.appender()));
            for (final byte[] record : records)
            {
                commandOut.append(new UnsafeBuffer(record), 0, record.length);
                engine.onCommand(new UnsafeBuffer(record), 0, record.length);
            }
        }
    }

    @Test
    void replayStartsFromASnapshotAndStopsAtASequence() throws Exception
    {
        final EngineConfig config = new EngineConfig().operator(OPERATOR);
        run(config, dir.resolve("commands"), dir.resolve("events"));
        // a snapshot of the state after command 5, made by replaying the journal into a persisted engine
        final Path snapshot;
        try (Journal commands = Journal.openReadOnly(dir.resolve("commands"));
            PersistedEngine persisted = PersistedEngine.open(new EngineConfig().operator(OPERATOR), (b, o, l) -> { },
                new EngineState.Context().directory(dir.resolve("state"))))
        {
            final JournalTailer tailer = commands.tailer();
            for (int i = 0; i < 5; i++)
            {
                assertTrue(tailer.read((buffer, offset, length, index) -> persisted.engine()
                    .onCommand(buffer, offset, length)));
            }
            persisted.engine().flushState();
            snapshot = SnapshotWriter.write(persisted.state(), dir.resolve("snapshots"));
        }
        final CliRun fromSnapshot = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString(), "--snapshot", snapshot.toString());
        assertEquals(0, fromSnapshot.exitCode(), fromSnapshot.out() + fromSnapshot.err());
        assertTrue(fromSnapshot.out().startsWith("replayed 2 commands after the snapshot at 5,"), fromSnapshot.out());
        final CliRun whole = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString());
        assertEquals(whole.out().substring(whole.out().indexOf("state hash")),
            fromSnapshot.out().substring(fromSnapshot.out().indexOf("state hash")),
            "the same final state either way");

        final CliRun partial = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString(), "--to-sequence", "6");
        assertEquals(0, partial.exitCode(), partial.out());
        assertTrue(partial.out().startsWith("replayed 6 commands,"), partial.out());

        final byte[] bytes = Files.readAllBytes(snapshot);
        bytes[bytes.length - 3] ^= 1;
        final Path damaged = dir.resolve("damaged").resolve(snapshot.getFileName());
        Files.createDirectories(damaged.getParent());
        Files.write(damaged, bytes);
        final CliRun refused = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString(), "--snapshot", damaged.toString());
        assertEquals(2, refused.exitCode(), refused.out());
        assertTrue(refused.out().contains("is damaged"), refused.out());
    }

    /** Every record of a journal, in order. */
    private static List<byte[]> records(final Path journal)
    {
        final List<byte[]> records = new ArrayList<>();
        try (Journal opened = Journal.openReadOnly(journal))
        {
            final JournalTailer tailer = opened.tailer();
            while (tailer.read((buffer, offset, length, index) ->
            {
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                records.add(copy);
            }))
            {
                // to the end
            }
        }
        return records;
    }

    private static void write(final Path journal, final List<byte[]> records)
    {
        try (Journal opened = Journal.open(journal))
        {
            for (final byte[] record : records)
            {
                opened.appender().append(new UnsafeBuffer(record), 0, record.length);
            }
        }
    }

    @Test
    void replaySaysWhichCommandsTheEngineCannotReadAndFails()
    {
        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands"), dir.resolve("events"));
        // Alice's deposit (sequence 4) as a record of another schema version: the live engine skips it too
        final List<byte[]> commands = records(dir.resolve("commands"));
        new UnsafeBuffer(commands.get(3))
            .putShort(6, (short)(MessageHeaderEncoder.SCHEMA_VERSION + 1), ByteOrder.LITTLE_ENDIAN);
        writeAndRun(new EngineConfig().operator(OPERATOR), commands, dir.resolve("foreign-commands"),
            dir.resolve("foreign-events"));

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("foreign-commands").toString(),
            dir.resolve("foreign-events").toString(), "--operator", OPERATOR.toString());
        assertEquals(1, replay.exitCode(), replay.out());
        assertTrue(replay.out().contains("(sequence 4) is not a record the engine reads: skipped"), replay.out());
        assertTrue(replay.out().contains("1 command records the engine cannot read"), replay.out());
    }

    @Test
    void replayToASequenceFindsEventsOfItsCommandsThatTheReplayDidNotProduce()
    {
        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands"), dir.resolve("events"));
        final List<byte[]> events = new ArrayList<>();
        byte[] lastOfSix = null;
        for (final byte[] event : records(dir.resolve("events")))
        {
            final long sequence = new UnsafeBuffer(event)
                .getLong(MessageHeaderEncoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
            if (sequence == 7 && lastOfSix != null)
            {
                events.add(lastOfSix);
                lastOfSix = null;
            }
            events.add(event);
            lastOfSix = sequence == 6 ? event : lastOfSix;
        }
        write(dir.resolve("extra-events"), events);

        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("extra-events").toString(), "--operator", OPERATOR.toString(), "--to-sequence", "6");
        assertEquals(1, replay.exitCode(), replay.out());
        assertTrue(
            replay.out().contains("holds more events than the replay produced (an event of sequence 6, not after 6)"),
            replay.out());
        final CliRun untouched = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", OPERATOR.toString(), "--to-sequence", "6");
        assertEquals(0, untouched.exitCode(), "the next command's events are not extra: " + untouched.out());
    }

    @Test
    void replayUnderAnotherConfigurationShowsTheFirstDivergence()
    {
        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands"), dir.resolve("events"));
        final CliRun replay = CliRun.of("journal", "replay", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--operator", BOB.toString());
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
        final CliRun timed = CliRun.of("journal", "dump", dir.resolve("commands").toString(), "--from-time",
            "1763000000006", "--market", "7");
        assertEquals(2, timed.out().lines().count(), timed.out());

        // Alice's bid: its id is the digest the test gave command 6
        final String aliceOrder = "0x" + "00".repeat(31) + "06";
        final CliRun timeline = CliRun.of("journal", "timeline", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--order", aliceOrder);
        assertEquals(0, timeline.exitCode(), timeline.err());
        final List<String> lines = timeline.out().lines().toList();
        assertTrue(lines.get(0).contains("\"type\":\"PlaceOrder\""), timeline.out());
        assertTrue(lines.stream().anyMatch(line -> line.contains("\"type\":\"OrderRested\"")), timeline.out());
        assertTrue(lines.stream().anyMatch(line -> line.contains("\"type\":\"Trade\"")), timeline.out());

        final CliRun before = CliRun.of("journal", "book", dir.resolve("commands").toString(), "--market", "7", "--at",
            "6", "--operator", OPERATOR.toString());
        assertEquals(0, before.exitCode(), before.err());
        assertEquals("{\"market\":7,\"book\":\"NONE\",\"side\":\"Bid\",\"depth\":0,\"price\":1000000,\"qty\":5000000," +
            "\"orders\":1}", before.out().trim());
        final CliRun after = CliRun.of("journal", "book", dir.resolve("commands").toString(), "--market", "7", "--at",
            "7", "--operator", OPERATOR.toString());
        assertTrue(after.out().contains("\"qty\":3000000"), after.out());

        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands2"), dir.resolve("events2"));
        assertEquals(0,
            CliRun.of("journal", "diff", dir.resolve("events").toString(), dir.resolve("events2").toString())
            .exitCode());
        run(new EngineConfig().operator(BOB), dir.resolve("commands3"), dir.resolve("events3"));
        final CliRun diff = CliRun.of("journal", "diff", dir.resolve("events").toString(),
            dir.resolve("events3").toString());
        assertEquals(1, diff.exitCode(), diff.out());
        assertTrue(diff.out().startsWith("journals differ at record 0"), diff.out());
    }

    @Test
    void timelineShowsEveryCommandThatTouchedTheOrderWithAllItsEvents()
    {
        final ClientOrderId clientId = ClientOrderId.of("0x" + "c1".repeat(16));
        try (Journal commandJournal = Journal.open(dir.resolve("commands"));
            Journal eventJournal = Journal.open(dir.resolve("events"));
            Engine engine = new Engine(new EngineConfig().operator(OPERATOR),
                new JournalEventSink(eventJournal.appender())))
        {
            final JournalAppender out = commandJournal.appender();
            final ActionCommandEncoder encoder = new ActionCommandEncoder();
            final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1024);
            final Action[] operatorActions = {new CreateAsset(1, "USD"), new CreateAsset(2, "BTC"),
                new CreateSpotMarket(7, 2, 1, 100, 1000, 1000), new Deposit(ALICE, 1, 1_000_000_000)};
            for (int i = 0; i < operatorActions.length; i++)
            {
                send(engine, encoder, buffer, out, i + 1, OPERATOR, i, operatorActions[i]);
            }
            send(engine, encoder, buffer, out, 5, ALICE, 0, clientId,
                new SpotPlaceOrder(7, null, Side.BID, 1_000_000, 5_000_000, null, TimeInForce.GTC, false, false, -1));
            send(engine, encoder, buffer, out, 6, ALICE, 1, new CancelByClientOrderId(clientId));
        }
        final String aliceOrder = "0x" + "00".repeat(31) + "05";
        final CliRun timeline = CliRun.of("journal", "timeline", dir.resolve("commands").toString(),
            dir.resolve("events").toString(), "--order", aliceOrder);
        assertEquals(0, timeline.exitCode(), timeline.err());
        final List<String> types = timeline.out().lines()
            .map(line -> line.substring(line.indexOf("\"type\":\"") + 8,
                line.indexOf('"', line.indexOf("\"type\":\"") + 8)))
            .toList();
        assertEquals("PlaceOrder", types.get(0), timeline.out());
        final int cancel = types.indexOf("CancelByClientOrderId");
        assertTrue(cancel > 0,
            "the cancel names only the client order id, yet it touched the order: " + timeline.out());
        assertTrue(types.subList(cancel, types.size()).containsAll(List.of("ActionAccepted", "OrderDone")),
            "the cancel's events follow it: " + timeline.out());
        assertTrue(timeline.out().lines().noneMatch(line -> line.contains("\"type\":\"Deposit\"")),
            "nothing else: " + timeline.out());
    }

    @Test
    void aFilteredDumpStillShowsDamageAndATimeFilterRefusesAnEventJournal()
    {
        run(new EngineConfig().operator(OPERATOR), dir.resolve("commands"), dir.resolve("events"));
        final List<byte[]> commands = records(dir.resolve("commands"));
        new UnsafeBuffer(commands.get(2)).putShort(4, (short)999, ByteOrder.LITTLE_ENDIAN);
        write(dir.resolve("damaged"), commands);
        final CliRun alice = CliRun.of("journal", "dump", dir.resolve("damaged").toString(), "--account",
            ALICE.toString());
        assertEquals(0, alice.exitCode(), alice.err());
        assertTrue(alice.out().lines().anyMatch(line -> line.startsWith("{\"error\":\"WRONG_SCHEMA\"") &&
            line.endsWith(" at journal index " + indexOf(dir.resolve("damaged"), 2))), alice.out());

        final CliRun timed = CliRun.of("journal", "dump", dir.resolve("events").toString(), "--from-time",
            "1763000000006");
        assertEquals(2, timed.exitCode(), timed.out());
        assertTrue(timed.err().contains("events carry no time"), timed.err());
    }

    /** The journal index of the record at {@code position}. */
    private static long indexOf(final Path journal, final int position)
    {
        final long[] found = {-1};
        try (Journal opened = Journal.openReadOnly(journal))
        {
            final JournalTailer tailer = opened.tailer();
            for (int i = 0; i <= position; i++)
            {
                tailer.read((buffer, offset, length, index) -> found[0] = index);
            }
        }
        return found[0];
    }
}
