package io.venue.sequencer;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.engine.Engine;
import io.venue.engine.EngineAgent;
import io.venue.engine.EngineConfig;
import io.venue.engine.JournalEventSink;
import io.venue.entry.Answer;
import io.venue.entry.PendingRequests;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.responder.ReadModels;
import io.venue.responder.RecentAnswers;
import io.venue.responder.Responder;
import io.venue.signing.ActionSigner;
import io.venue.testing.JournalFolders;
import io.venue.verifier.VerifierPool;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real signatures through the whole pipeline built so far: verifier pool (two threads), sequencer, the
 * command journal, the engine agent, the event journal. Every request is answered only after its record
 * is journaled, a refused body is journaled too, and the orders match.
 */
class PipelineTest
{
    private static final long CHAIN_ID = 8453;
    private static final Address CONTRACT = Address.of("0x" + "5e".repeat(20));
    private static final long UNIT = 1_000_000;

    @TempDir
    Path folder;

    private final ConcurrentLinkedQueue<long[]> acks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean paused = new AtomicBoolean();
    private final ConcurrentHashMap<Long, Boolean> outcomes = new ConcurrentHashMap<>();

    @Test
    void signedRequestsAreJournaledAnsweredAndMatched() throws Exception
    {
        final Secp256k1KeyPair operatorKey = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair alice = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair bob = Secp256k1KeyPair.generate(new SecureRandom());
        // named to the verifiers as a delegate of Bob's (the engine does not know her): her raw-mode signatures for Bob
        // are recovered once
        final Secp256k1KeyPair carol = Secp256k1KeyPair.generate(new SecureRandom());
        final byte[] carolAddress = carol.address().toBytes();
        final byte[] bobAddress = bob.address().toBytes();
        final EngineConfig config = new EngineConfig().operator(operatorKey.address());

        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events"));
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(2).chainId(CHAIN_ID).verifyingContract(CONTRACT)
                .delegates((account, signer) -> Arrays.equals(account, bobAddress) &&
                    Arrays.equals(signer, carolAddress))))
        {
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), SystemEpochClock.INSTANCE,
                new SequencerListener()
            {
                public void onSequenced(final long connectionId, final long correlationId, final long sequence,
                    final long index)
                {
                    outcomes.put(correlationId, true);
                    acks.add(new long[]{connectionId, correlationId, sequence});
                }

                public void onRejected(final long connectionId, final long correlationId, final long sequence,
                    final long index)
                {
                    outcomes.put(correlationId, false);
                    acks.add(new long[]{connectionId, correlationId, sequence});
                }
            }, 1, 0, 64).pauseWhen(paused::get);
            final JournalAppender eventOut = events.appender();
            final Engine engine = new Engine(config, new JournalEventSink(eventOut));
            final EngineAgent engineAgent = new EngineAgent(engine, commands.tailer(), 64);
            final AgentRunner sequencerRunner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace,
                null, sequencer);
            final AgentRunner engineRunner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace,
                null, engineAgent);
            AgentRunner.startOnThread(sequencerRunner);
            AgentRunner.startOnThread(engineRunner);
            try
            {
                // the operator lists the market and funds both traders, one request at a time (one connection)
                final ActionSigner operator = new ActionSigner(CHAIN_ID, CONTRACT, operatorKey);
                final Action[] setup = {
                    new CreateAsset(1, "USD"), new CreateAsset(2, "BTC"),
                    new CreateSpotMarket(7, 2, 1, 100, 1000, 1000),
                    new Deposit(alice.address(), 1, 1_000 * UNIT), new Deposit(bob.address(), 2, 100 * UNIT)};
                long correlation = 0;
                for (int i = 0; i < setup.length; i++)
                {
                    submit(pool, 0, ++correlation, operator, operatorKey.address(), i, setup[i]);
                    awaitAcks((int)correlation);
                }

                // the traders send in parallel on their own connections
                final ActionSigner aliceSigner = new ActionSigner(CHAIN_ID, CONTRACT, alice);
                final ActionSigner bobSigner = new ActionSigner(CHAIN_ID, CONTRACT, bob);
                final int orders = 20;
                for (int i = 0; i < orders; i++)
                {
                    submit(pool, 1, ++correlation, aliceSigner, alice.address(), i,
                        new SpotPlaceOrder(7, null, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, -1));
                    submit(pool, 2, ++correlation, bobSigner, bob.address(), i,
                        new SpotPlaceOrder(7, null, Side.ASK, UNIT, UNIT, null, TimeInForce.GTC, false, false, -1),
                        PreimageMode.PERSONAL);
                }
                awaitAcks((int)correlation);
                // Carol signs for Bob, whose agent the engine never saw: journaled with no personal-mode
                // candidate, refused
                submit(pool, 4, ++correlation, new ActionSigner(CHAIN_ID, CONTRACT, carol), bob.address(), 100,
                    new SpotPlaceOrder(7, null, Side.BID, UNIT, UNIT, null, TimeInForce.GTC, false, false, -1));
                awaitAcks((int)correlation);
                // a paused sequencer journals and answers nothing; the request waits in the pool
                paused.set(true);
                final byte[] garbage = "{\"payload\":{}}".getBytes(StandardCharsets.US_ASCII);
                final long garbageCorrelation = ++correlation;
                final long before = sequencer.sequence();
                assertTrue(pool.offer(3, garbageCorrelation, garbage, 0, garbage.length));
                awaitAllVerified(pool);
                // its result waits in the pool: a sequencer that ignored the pause would take it within its longest
                // park (1 ms)
                Thread.sleep(100);
                assertEquals(correlation - 1, acks.size(), "nothing answered while paused");
                assertEquals(before, sequencer.sequence(), "nothing journaled while paused");
                paused.set(false);
                awaitAcks((int)correlation);

                assertEquals(false, outcomes.get(garbageCorrelation), "a refused body is journaled and answered");
                final long lastSequence = sequencer.sequence();
                assertEquals(correlation, lastSequence, "one journal record per request, numbered without gaps");
                final long deadline = System.nanoTime() + 30_000_000_000L;
                while (engineAgent.appliedSequence() != lastSequence && System.nanoTime() < deadline)
                {
                    Thread.sleep(1);
                }
                assertEquals(lastSequence, engineAgent.appliedSequence());
            }
            finally
            {
                sequencerRunner.close();
                engineRunner.close();
            }
        }

        final List<String> eventLines = lines(folder.resolve("events"));
        assertEquals(20, eventLines.stream().filter(l -> l.contains("\"type\":\"Trade\"")).count(),
            String.join("\n", eventLines));
        assertEquals(1, eventLines.stream().filter(l -> l.contains("\"type\":\"ActionRejected\"") &&
            l.contains("UNAUTHORIZED_SIGNER")).count(), String.join("\n", eventLines));
        assertEquals(1, eventLines.stream().filter(l -> l.contains("\"type\":\"ActionRejected\"")).count(),
            String.join("\n", eventLines));
        assertTrue(
            lines(folder.resolve("commands")).stream().anyMatch(l -> l.contains("\"type\":\"RequestRejected\"")));

        // every signed command verifies again from its record (raw and personal signatures, or a raw one alone); a
        // changed one does not
        final SignatureAudit audit = new SignatureAudit(CHAIN_ID, CONTRACT, false);
        final List<byte[]> records = JournalFolders.records(folder.resolve("commands"));
        int verified = 0;
        byte[] placed = null;
        for (final byte[] record : records)
        {
            final SignatureAudit.Verdict verdict = audit.check(new UnsafeBuffer(record), 0, record.length);
            assertNotEquals(SignatureAudit.Verdict.FAILED, verdict, audit.failure());
            assertNotEquals(SignatureAudit.Verdict.NO_SIGNATURE, verdict, "the sequencer keeps every signature");
            if (verdict == SignatureAudit.Verdict.VERIFIED)
            {
                verified++;
            }
            if (placed == null &&
                new UnsafeBuffer(record).getShort(2, ByteOrder.LITTLE_ENDIAN) == PlaceOrderDecoder.TEMPLATE_ID)
            {
                placed = record;
            }
        }
        assertEquals(5 + 40 + 1, verified, "the refused body is the one record without a signed action");
        assertTrue(lines(folder.resolve("commands")).stream().anyMatch(l -> l.contains(carol.address().toString()) &&
            l.contains("\"personalSigner\":\"0x0000000000000000000000000000000000000000\"")),
            "Carol's record has no personal candidate");

        final byte[] repriced = placed.clone();
        new UnsafeBuffer(repriced)
            .putLong(MessageHeaderDecoder.ENCODED_LENGTH + PlaceOrderDecoder.priceEncodingOffset(), 2 * UNIT,
            ByteOrder.LITTLE_ENDIAN);
        assertEquals(SignatureAudit.Verdict.FAILED, audit.check(new UnsafeBuffer(repriced), 0, repriced.length));
        assertTrue(audit.failure().contains("another digest"), audit.failure());

        final byte[] resigned = placed.clone();
        resigned[MessageHeaderDecoder.ENCODED_LENGTH + PlaceOrderDecoder.envelopeEncodingOffset() +
            ActionEnvelopeDecoder.rawSignerEncodingOffset()] ^= 1;
        assertEquals(SignatureAudit.Verdict.FAILED, audit.check(new UnsafeBuffer(resigned), 0, resigned.length));
        assertTrue(audit.failure().contains("raw-mode signer"), audit.failure());
    }

    @Test
    void requestsReadyTogetherAreJournaledAsOneExcerptAndEachIsAnsweredOnlyOnceItIsWritten() throws Exception
    {
        final Secp256k1KeyPair operatorKey = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair alice = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair bob = Secp256k1KeyPair.generate(new SecureRandom());
        final List<String> answeredBeforeJournaled = new CopyOnWriteArrayList<>();
        final PendingRequests pending = new PendingRequests(0);
        final ConcurrentHashMap<Long, Answer> answers = new ConcurrentHashMap<>();
        final AtomicInteger answeredTwice = new AtomicInteger();
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events"));
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(2).chainId(CHAIN_ID).verifyingContract(CONTRACT)))
        {
            final SequencerListener listener = new SequencerListener()
            {
                public void onSequenced(final long connectionId, final long correlationId, final long sequence,
                    final long index)
                {
                    if (commands.lastSequence() < sequence)
                    {
                        answeredBeforeJournaled.add("sequence " + sequence);
                    }
                    pending.onSequenced(correlationId, sequence);
                    acks.add(new long[]{connectionId, correlationId, sequence});
                }

                public void onRejected(final long connectionId, final long correlationId, final long sequence,
                    final long index)
                {
                    onSequenced(connectionId, correlationId, sequence, index);
                }
            };
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), SystemEpochClock.INSTANCE, listener, 1,
                0, 64) .pauseWhen(paused::get);
            final Engine engine = new Engine(new EngineConfig().operator(operatorKey.address()),
                JournalEventSink.heldUntilFlush(events.appender()));
            final EngineAgent engineAgent = new EngineAgent(engine, commands.tailer(), 64);
            final AgentRunner sequencerRunner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace,
                null, sequencer);
            final AgentRunner engineRunner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace,
                null, engineAgent);
            // the responder reads each command and its events from the journals, which hold several commands an excerpt
            final Responder responder = new Responder(commands.tailer(), events.tailer(), pending,
                new ReadModels(100), 64, 50, 1_000, new RecentAnswers(100), 0, Throwable::printStackTrace);
            final AgentRunner responderRunner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace,
                null, responder);
            AgentRunner.startOnThread(sequencerRunner);
            AgentRunner.startOnThread(engineRunner);
            AgentRunner.startOnThread(responderRunner);
            try
            {
                final ActionSigner operator = new ActionSigner(CHAIN_ID, CONTRACT, operatorKey);
                final Action[] setup = {
                    new CreateAsset(1, "USD"), new CreateAsset(2, "BTC"),
                    new CreateSpotMarket(7, 2, 1, 100, 1000, 1000),
                    new Deposit(alice.address(), 1, 1_000 * UNIT), new Deposit(bob.address(), 2, 100 * UNIT)};
                for (int i = 0; i < setup.length; i++)
                {
                    submit(pool, 0, pending.register(response -> { }), operator, operatorKey.address(), i, setup[i]);
                    awaitAcks(i + 1);
                }
                // the engine has applied the set-up before the orders are journaled, so that their events go out on
                // their own
                final long setUpBy = System.nanoTime() + 30_000_000_000L;
                while (engineAgent.appliedSequence() != setup.length)
                {
                    assertTrue(System.nanoTime() - setUpBy < 0,
                        "the set-up was not applied within 30 s: " + engineAgent.appliedSequence());
                    Thread.sleep(1);
                }
                // twelve orders verified while the sequencer waits: one duty cycle takes them all; each ask trades
                paused.set(true);
                final ActionSigner aliceSigner = new ActionSigner(CHAIN_ID, CONTRACT, alice);
                final ActionSigner bobSigner = new ActionSigner(CHAIN_ID, CONTRACT, bob);
                final int requests = 12;
                for (int i = 0; i < requests; i++)
                {
                    final long order = i;
                    final long registered = pending.register(response ->
                    {
                        if (answers.putIfAbsent(order, response) != null)
                        {
                            answeredTwice.incrementAndGet();
                        }
                    });
                    final boolean bid = i % 2 == 0;
                    // all on connection 1, so on one of the pool's two verifiers: verified and journaled in this order
                    submit(pool, 1, registered, bid ? aliceSigner : bobSigner, (bid ? alice : bob).address(), i / 2,
                        new SpotPlaceOrder(7, null, bid ? Side.BID : Side.ASK, UNIT, UNIT, null, TimeInForce.GTC, false,
                            false, -1));
                }
                awaitAllVerified(pool);
                assertEquals(setup.length, acks.size(), "nothing answered while paused");
                paused.set(false);
                awaitAcks(setup.length + requests);
                assertEquals(List.of(), answeredBeforeJournaled, "an answer waits for its record's excerpt");
                final long deadline = System.nanoTime() + 30_000_000_000L;
                final long last = setup.length + requests;
                while (engineAgent.appliedSequence() != last && System.nanoTime() < deadline)
                {
                    Thread.sleep(1);
                }
                assertEquals(last, engineAgent.appliedSequence());
                while (answers.size() < requests && System.nanoTime() < deadline)
                {
                    Thread.sleep(1);
                }
                // each answer is its own command's: its sequence, its trades and its own digest
                final Set<String> digests = new HashSet<>();
                for (long order = 0; order < requests; order++)
                {
                    final Answer answer = answers.get(order);
                    assertTrue(answer != null && answer.accepted(), order + ": " + answer);
                    assertEquals(setup.length + order + 1, answer.sequence, order + ": " + answer);
                    assertEquals(order % 2, answer.trades, answer.toString());
                    assertTrue(digests.add(Hex.to0x(answer.digest)), "digests differ: " + answers);
                }
                assertEquals(0, answeredTwice.get(), "an answer came twice");
            }
            finally
            {
                sequencerRunner.close();
                engineRunner.close();
                responderRunner.close();
            }
            // five set-up commands an excerpt each, then the twelve orders in one
            assertEquals(Map.of(1L, 1L, 2L, 1L, 3L, 1L, 4L, 1L, 5L, 1L, 6L, 12L), excerptSizes(commands));
            // the engine applied them in one duty cycle: the events of the twelve (several each) in one excerpt (it may
            // have applied set-up commands together, when it woke after several were journaled, but not with
            // the orders)
            final Map<Long, Long> eventExcerpts = excerptSizes(events);
            assertEquals(12L, eventExcerpts.get((long)eventExcerpts.size()), eventExcerpts.toString());
            assertEquals(17L, eventExcerpts.values().stream().mapToLong(Long::longValue).sum(),
                eventExcerpts.toString());
        }
    }

    @Test
    void aDutyCycleOverTheSizeBoundIsJournaledAsSeveralExcerptsNumberedWithoutGaps() throws Exception
    {
        final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(new SecureRandom());
        final int requests = 6;
        try (Journal commands = Journal.open(folder.resolve("commands"));
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(1).chainId(CHAIN_ID).verifyingContract(CONTRACT)))
        {
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), SystemEpochClock.INSTANCE,
                new SequencerListener()
            {
                public void onSequenced(final long connectionId, final long correlationId, final long sequence,
                    final long index)
                {
                    acks.add(new long[]{connectionId, correlationId, sequence});
                }

                public void onRejected(final long connectionId, final long correlationId, final long sequence,
                    final long index)
                {
                    onSequenced(connectionId, correlationId, sequence, index);
                }
            }, 1, 0, 64).pauseWhen(paused::get);
            final AgentRunner sequencerRunner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace,
                null, sequencer);
            AgentRunner.startOnThread(sequencerRunner);
            try
            {
                // six batches of 1,000 legs verified while the sequencer waits: more than 256 KiB of commands in
                // one cycle
                paused.set(true);
                final ActionSigner signer = new ActionSigner(CHAIN_ID, CONTRACT, trader);
                final List<BatchLeg> legs = new ArrayList<>();
                for (int leg = 0; leg < 1_000; leg++)
                {
                    legs.add(new SpotPlaceOrder(7, null, Side.BID, UNIT + leg, UNIT, null, TimeInForce.GTC, false,
                        false, -1));
                }
                for (int i = 0; i < requests; i++)
                {
                    submit(pool, 1, i + 1, signer, trader.address(), i, new Batch(legs));
                }
                // each takes a few milliseconds to verify: all six wait in the pool before the sequencer takes any
                awaitAllVerified(pool);
                paused.set(false);
                awaitAcks(requests);
                final List<Long> sequences = acks.stream().map(ack -> ack[2]).toList();
                assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), sequences, "told in order, numbered without gaps");
                assertEquals(requests, sequencer.sequence());
            }
            finally
            {
                sequencerRunner.close();
            }
            final Map<Long, Long> sizes = excerptSizes(commands);
            // a command is about 83 KB: the fourth takes the excerpt past 256 KiB, the last two go out in the next
            assertEquals(Map.of(1L, 4L, 2L, 2L), sizes, "one duty cycle's six commands as two excerpts");
            final long[] largest = {0};
            try (JournalTailer tailer = commands.tailer())
            {
                while (tailer.readExcerpt((buffer, offset, length, index) -> largest[0] = Math.max(largest[0], length)))
                {
                    // to the end
                }
            }
            // an excerpt ends at the first record that takes it to the bound
            assertTrue(largest[0] < JournalAppender.BATCH_COMMIT_BYTES + 200_000,
                "largest excerpt " + largest[0] + " bytes, " + sizes);
        }
    }

    /** For each excerpt (numbered from 1), how many distinct sequences its records carry. */
    private static Map<Long, Long> excerptSizes(final Journal journal)
    {
        final Map<Long, Set<Long>> sequences = new TreeMap<>();
        try (JournalTailer tailer = journal.tailer())
        {
            while (tailer.read((buffer, offset, length, index) ->
                sequences.computeIfAbsent(index, i -> new TreeSet<>()).add(JournalRecords.sequence(buffer, offset))))
            {
                // to the end
            }
        }
        final Map<Long, Long> sizes = new TreeMap<>();
        long number = 0;
        for (final Set<Long> excerpt : sequences.values())
        {
            sizes.put(++number, (long)excerpt.size());
        }
        return sizes;
    }

    private static void submit(
        final VerifierPool pool, final long connection, final long correlation, final ActionSigner signer,
        final Address account, final long nonce, final Action action)
    {
        submit(pool, connection, correlation, signer, account, nonce, action, PreimageMode.RAW);
    }

    private static void submit(
        final VerifierPool pool, final long connection, final long correlation, final ActionSigner signer,
        final Address account, final long nonce, final Action action, final PreimageMode mode)
    {
        final byte[] body = CanonicalJson.signedActionBody(signer.sign(
            new ActionPayload(account, nonce, null, System.currentTimeMillis(), action), mode));
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!pool.offer(connection, correlation, body, 0, body.length))
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError(
                    "the verifier pool refused request " + correlation + " for 30 s: its ring stayed full");
            }
            Thread.onSpinWait();
        }
    }

    /** Waits until the pool has verified every request offered (their results wait in it for the sequencer). */
    private static void awaitAllVerified(final VerifierPool pool) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!pool.allVerified())
        {
            assertTrue(System.nanoTime() - deadline < 0, "the pool had not verified every request offered within 30 s");
            Thread.sleep(1);
        }
    }

    private void awaitAcks(final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (acks.size() < count && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertEquals(count, acks.size(), "every request is answered");
    }

    private static List<String> lines(final Path journalFolder)
    {
        final List<String> lines = new ArrayList<>();
        final RecordPrinter printer = new RecordPrinter();
        try (Journal journal = Journal.openReadOnly(journalFolder))
        {
            final JournalTailer tailer = journal.tailer();
            while (tailer.read((buffer, offset, length, index) -> lines.add(printer.print(buffer, offset, length))))
            {
                // to the end
            }
        }
        return lines;
    }
}
