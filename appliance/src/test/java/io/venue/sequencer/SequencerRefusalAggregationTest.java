package io.venue.sequencer;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.CreateAsset;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.JournalEventSink;
import io.venue.entry.ConnectionAddresses;
import io.venue.entry.PreJournalRefusals;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedDecoder;
import io.venue.journal.sbe.RequestsRejectedSummaryDecoder;
import io.venue.signing.ActionSigner;
import io.venue.testing.JournalFolders;
import io.venue.verifier.VerifierPool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flood of refusals from one connection costs the command journal a bounded number of records (issue 23, "journal
 * growth from refusals"), while every request is still answered and every refusal is in its own record or counted in
 * exactly one summary: the real verifier pool, sequencer and command journal in a temporary folder.
 */
class SequencerRefusalAggregationTest
{
    private static final long CHAIN_ID = 8453;
    private static final Address CONTRACT = Address.of("0x" + "5e".repeat(20));
    private static final int THRESHOLD = 16;
    private static final long WINDOW_MS = 1_000;
    private static final long FLOODER = 7;
    private static final long HONEST = 8;

    @TempDir
    Path folder;

    private final AtomicLong clock = new AtomicLong(1_763_000_000_000L);
    private final Map<Long, Long> journaledAnswers = new HashMap<>();
    private final Map<Long, RequestRejectReason> countedAnswers = new HashMap<>();
    private final List<Long> summariesTold = new ArrayList<>();

    private final SequencerListener listener = new SequencerListener()
    {
        public void onSequenced(final long connectionId, final long correlationId, final long sequence,
            final long index)
        {
            journaledAnswers.put(correlationId, sequence);
        }

        public void onRejected(final long connectionId, final long correlationId, final long sequence,
            final long index)
        {
            if (correlationId == 0)
            {
                summariesTold.add(sequence);
            }
            else
            {
                assertEquals(null, journaledAnswers.put(correlationId, sequence), "told twice: " + correlationId);
            }
        }

        @Override
        public void onRefusalCounted(final long connectionId, final long correlationId, final long timestampMs,
            final RequestRejectReason reason, final byte[] account, final byte[] digest, final String detail)
        {
            assertEquals(null, countedAnswers.put(correlationId, reason), "answered twice: " + correlationId);
            assertTrue(detail.startsWith("{"), "the canonical JSON, as its record would have held: " + detail);
        }
    };

    @Test
    void aFloodOfBadSignaturesFromOneConnectionCostsAFewRecordsAndEveryRefusalIsAnsweredAndCounted() throws Exception
    {
        final int flood = 10_000;
        final byte[] bad = badSignature();
        final Path commandsFolder = folder.resolve("commands");
        try (Journal commands = Journal.open(commandsFolder);
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(1).chainId(CHAIN_ID).verifyingContract(CONTRACT)))
        {
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), clock::get, listener, 1, 0, 64)
                .aggregatesRefusals(new RefusalAggregator(THRESHOLD, WINDOW_MS, 64), null);
            long correlation = 0;
            for (int i = 0; i < flood; i++)
            {
                offer(pool, sequencer, FLOODER, ++correlation, bad);
                if (i == flood / 2)
                {
                    // an honest client's occasional refusal, on another connection, in the middle of the flood
                    offer(pool, sequencer, HONEST, ++correlation, bad);
                }
            }
            final long requests = correlation;
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (journaledAnswers.size() + countedAnswers.size() < requests)
            {
                sequencer.doWork();
                assertTrue(System.nanoTime() < deadline, "answered " + journaledAnswers.size() + " + " +
                    countedAnswers.size() + " of " + requests);
            }
            // the window is still open: the count waits
            sequencer.doWork();
            assertEquals(List.of(), summariesTold);
            clock.addAndGet(WINDOW_MS);
            assertEquals(1, sequencer.doWork(), "the window over, its summary is journaled");
            assertEquals(1, summariesTold.size());

            assertEquals(THRESHOLD + 1, journaledAnswers.size(), "the flood's first ones and the honest one");
            assertEquals(flood - THRESHOLD, countedAnswers.size());
            final Set<Long> everyAnswer = new HashSet<>(journaledAnswers.keySet());
            everyAnswer.addAll(countedAnswers.keySet());
            assertEquals(requests, everyAnswer.size(), "every request answered once");
            assertTrue(countedAnswers.values().stream().allMatch(r -> r == RequestRejectReason.BAD_SIGNATURE));
        }

        final List<byte[]> records = JournalFolders.records(commandsFolder);
        assertEquals(THRESHOLD + 2, records.size(), "records for " + flood + " refusals");
        final long bytes = records.stream().mapToLong(r -> r.length + Journal.FRAME_HEADER).sum();
        System.out.printf("command journal per refused request, %,d bad signatures from one connection: %.2f bytes " +
            "(%,d bytes of records and frames)%n", flood + 1, bytes / (double)(flood + 1), bytes);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final RequestRejectedDecoder rejected = new RequestRejectedDecoder();
        final RequestsRejectedSummaryDecoder summary = new RequestsRejectedSummaryDecoder();
        final Map<Long, Integer> rejectedBy = new HashMap<>();
        long summarized = 0;
        for (final byte[] record : records)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(record);
            header.wrap(buffer, 0);
            if (header.templateId() == RequestRejectedDecoder.TEMPLATE_ID)
            {
                rejected.wrapAndApplyHeader(buffer, 0, header);
                assertEquals(RequestRejectReason.BAD_SIGNATURE, rejected.reason());
                rejectedBy.merge(rejected.connectionId(), 1, Integer::sum);
                assertEquals(rejected.sequence(), journaledAnswers.get(rejected.correlationId()));
            }
            else
            {
                assertEquals(RequestsRejectedSummaryDecoder.TEMPLATE_ID, header.templateId());
                summary.wrapAndApplyHeader(buffer, 0, header);
                assertEquals(FLOODER, summary.connectionId());
                assertEquals(RequestRejectReason.BAD_SIGNATURE, summary.reason());
                assertEquals(countedAnswers.keySet().stream().mapToLong(Long::longValue).min().orElseThrow(),
                    summary.firstCorrelationId());
                assertEquals(countedAnswers.keySet().stream().mapToLong(Long::longValue).max().orElseThrow(),
                    summary.lastCorrelationId());
                assertEquals(summariesTold.get(0), summary.sequence());
                summarized += summary.count();
                final String line = new RecordPrinter().print(buffer, 0, record.length);
                assertTrue(line.contains("\"type\":\"RequestsRejectedSummary\"") &&
                    line.contains("\"count\":" + summary.count()), line);
            }
        }
        assertEquals(Map.of(FLOODER, THRESHOLD, HONEST, 1), rejectedBy);
        assertEquals(flood - THRESHOLD, summarized, "nothing lost: every refusal in a record or in the count");
        assertNoEvents(commandsFolder, THRESHOLD + 2);
    }

    @Test
    void aFullTableOfSourcesEvictsOneAndJournalsItsCountFirst() throws Exception
    {
        final Path commandsFolder = folder.resolve("commands");
        final Map<Long, Integer> offered = new HashMap<>();
        final RefusalAggregator aggregator = new RefusalAggregator(2, WINDOW_MS, 3);
        try (Journal commands = Journal.open(commandsFolder);
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(1).chainId(CHAIN_ID).verifyingContract(CONTRACT)))
        {
            final PreJournalRefusals refusals = new PreJournalRefusals(1 << 20);
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), clock::get, listener, 1, 0, 64)
                .refusals(refusals).aggregatesRefusals(aggregator, null);
            long correlation = 0;
            // a stranger opens connection after connection, each refused 10 times by the edge throttle
            for (long connection = 1; connection <= 50; connection++)
            {
                for (int i = 0; i < 10; i++)
                {
                    refusals.offer(connection, ++correlation, RequestRejectReason.EDGE_RATE_LIMITED.value(), "edge");
                    offered.merge(connection, 1, Integer::sum);
                }
                while (sequencer.doWork() > 0)
                {
                    // until the ring is empty
                }
                assertTrue(aggregator.entries() <= 3, "entries: " + aggregator.entries());
            }
            assertEquals(47, aggregator.evictions());
            // the lane answered these itself: the sequencer tells nobody of a counted one
            assertEquals(Map.of(), countedAnswers);
            // the node drains: the three sources still held are journaled though their windows are still open
            assertEquals(0, sequencer.doWork());
            sequencer.flushRefusalCounts();
            assertEquals(3, sequencer.doWork(), "the three sources still held, journaled at the drain");
        }

        final Map<Long, Long> journaledBy = new HashMap<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final RequestRejectedDecoder rejected = new RequestRejectedDecoder();
        final RequestsRejectedSummaryDecoder summary = new RequestsRejectedSummaryDecoder();
        final List<byte[]> records = JournalFolders.records(commandsFolder);
        final Set<Long> summaryOf = new HashSet<>();
        for (final byte[] record : records)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(record);
            header.wrap(buffer, 0);
            if (header.templateId() == RequestRejectedDecoder.TEMPLATE_ID)
            {
                rejected.wrapAndApplyHeader(buffer, 0, header);
                journaledBy.merge(rejected.connectionId(), 1L, Long::sum);
            }
            else
            {
                summary.wrapAndApplyHeader(buffer, 0, header);
                assertEquals(8, summary.count());
                assertEquals(RequestRejectReason.EDGE_RATE_LIMITED, summary.reason());
                assertTrue(summaryOf.add(summary.connectionId()), "one summary per connection");
                journaledBy.merge(summary.connectionId(), summary.count(), Long::sum);
            }
        }
        // 2 records and 1 summary per connection
        assertEquals(150, records.size());
        for (final Map.Entry<Long, Integer> entry : offered.entrySet())
        {
            assertEquals(entry.getValue().longValue(), journaledBy.get(entry.getKey()),
                "nothing lost from connection " + entry.getKey());
        }
        assertNoEvents(commandsFolder, 150);
    }

    @Test
    void aClientOpeningAConnectionPerRequestIsOneSourceByItsAddress() throws Exception
    {
        final Path commandsFolder = folder.resolve("commands");
        final ConnectionAddresses addresses = new ConnectionAddresses(1 << 16);
        final InetAddress stranger = InetAddress.getByName("203.0.113.9");
        final InetAddress other = InetAddress.getByName("2001:db8::7");
        final int perAddress = 2_000;
        try (Journal commands = Journal.open(commandsFolder);
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(1).chainId(CHAIN_ID).verifyingContract(CONTRACT)))
        {
            final PreJournalRefusals refusals = new PreJournalRefusals(1 << 20);
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), clock::get, listener, 1, 0, 64)
                .refusals(refusals).aggregatesRefusals(new RefusalAggregator(THRESHOLD, WINDOW_MS, 64), addresses);
            long correlation = 0;
            long connection = 100;
            for (int i = 0; i < perAddress; i++)
            {
                // each request on a connection of its own, from one of two addresses
                addresses.record(++connection, stranger);
                refusals.offer(connection, ++correlation, RequestRejectReason.BODY_TOO_LARGE.value(), "big");
                addresses.record(++connection, other);
                refusals.offer(connection, ++correlation, RequestRejectReason.BODY_TOO_LARGE.value(), "big");
            }
            // and one connection whose address nobody recorded: its own source
            for (int i = 0; i < THRESHOLD + 5; i++)
            {
                refusals.offer(HONEST, ++correlation, RequestRejectReason.BODY_TOO_LARGE.value(), "big");
            }
            while (sequencer.doWork() > 0)
            {
                // until the ring is empty
            }
            clock.addAndGet(WINDOW_MS);
            sequencer.doWork();
        }

        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final RequestsRejectedSummaryDecoder summary = new RequestsRejectedSummaryDecoder();
        final Map<String, Long> countedBy = new HashMap<>();
        final Map<String, Long> lastConnectionOf = new HashMap<>();
        int rejected = 0;
        final List<byte[]> records = JournalFolders.records(commandsFolder);
        for (final byte[] record : records)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(record);
            header.wrap(buffer, 0);
            if (header.templateId() == RequestRejectedDecoder.TEMPLATE_ID)
            {
                rejected++;
                continue;
            }
            summary.wrapAndApplyHeader(buffer, 0, header);
            final byte[] source = new byte[ConnectionAddresses.LENGTH];
            summary.getSourceAddress(source, 0, source.length);
            final String key = Arrays.equals(source, new byte[source.length]) ? "connection " + summary.connectionId() :
                InetAddress.getByAddress(source).getHostAddress();
            assertEquals(null, countedBy.put(key, summary.count()), "one summary per source: " + key);
            lastConnectionOf.put(key, summary.connectionId());
            final String line = new RecordPrinter().print(buffer, 0, record.length);
            assertTrue(line.contains("\"sourceAddress\":\"0x"), line);
        }
        // an IPv4 address is kept as ::ffff:a.b.c.d, which Java reads back as the IPv4 address
        assertEquals(Map.of("203.0.113.9", (long)perAddress - THRESHOLD, "2001:db8:0:0:0:0:0:7",
            (long)perAddress - THRESHOLD, "connection " + HONEST, 5L), countedBy);
        assertEquals(3 * THRESHOLD, rejected, "each source's first ones on their own");
        assertEquals(3 * THRESHOLD + 3, records.size());
        assertEquals(100 + 2L * perAddress - 1, lastConnectionOf.get("203.0.113.9"), "the last one's connection");
        assertEquals(100 + 2L * perAddress, lastConnectionOf.get("2001:db8:0:0:0:0:0:7"));
    }

    @Test
    void aNewWindowJournalsTheFirstOnesOnTheirOwnAgain() throws Exception
    {
        final Path commandsFolder = folder.resolve("commands");
        try (Journal commands = Journal.open(commandsFolder);
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(1).chainId(CHAIN_ID).verifyingContract(CONTRACT)))
        {
            final PreJournalRefusals refusals = new PreJournalRefusals(1 << 20);
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), clock::get, listener, 1, 0, 64)
                .refusals(refusals).aggregatesRefusals(new RefusalAggregator(3, WINDOW_MS, 16), null);
            long correlation = 0;
            for (int window = 0; window < 4; window++)
            {
                for (int i = 0; i < 10; i++)
                {
                    refusals.offer(FLOODER, ++correlation, RequestRejectReason.QUEUE_LIMIT.value(), "queue");
                    // and one other reason from the same connection, counted apart
                    refusals.offer(FLOODER, ++correlation, RequestRejectReason.SHARD_BUSY.value(), "busy");
                }
                sequencer.doWork();
                clock.addAndGet(WINDOW_MS);
            }
            sequencer.doWork();
        }
        final List<String> lines = new ArrayList<>();
        final RecordPrinter printer = new RecordPrinter();
        for (final byte[] record : JournalFolders.records(commandsFolder))
        {
            lines.add(printer.print(new UnsafeBuffer(record), 0, record.length));
        }
        // each window, each reason: 3 records and a summary of 7
        assertEquals(4 * 2 * 4, lines.size(), String.join("\n", lines));
        assertEquals(8, lines.stream().filter(l -> l.contains("\"count\":7")).count(), String.join("\n", lines));
        assertEquals(4 * 3, lines.stream().filter(l -> l.contains("\"type\":\"RequestRejected\"") &&
            l.contains("\"reason\":\"QUEUE_LIMIT\"")).count());
    }

    /** The engine reads past every refusal record, summaries included: no events, every sequence applied. */
    private static void assertNoEvents(final Path commandsFolder, final long lastSequence) throws Exception
    {
        try (Journal commands = Journal.openReadOnly(commandsFolder);
            Journal events = Journal.open(commandsFolder.resolveSibling("events"));
            JournalTailer tailer = commands.tailer())
        {
            final Engine engine = new Engine(new EngineConfig(), new JournalEventSink(events.appender()));
            while (tailer.read((buffer, offset, length, index) ->
                assertTrue(engine.onCommand(buffer, offset, length), "applied")))
            {
                // to the end
            }
            assertEquals(lastSequence, engine.lastSequence());
        }
        assertEquals(0, JournalFolders.records(commandsFolder.resolveSibling("events")).size());
    }

    private static void offer(final VerifierPool pool, final Sequencer sequencer, final long connection,
        final long correlation, final byte[] body)
    {
        while (!pool.offer(connection, correlation, body, 0, body.length))
        {
            // the verifier's ring is full: take its results
            sequencer.doWork();
        }
    }

    /** A signed action whose 65 signature bytes cannot be a signature: refused BAD_SIGNATURE by the verifier. */
    private static byte[] badSignature()
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final ActionSigner signer = new ActionSigner(CHAIN_ID, CONTRACT, key);
        final ActionPayload payload = new ActionPayload(key.address(), 1, null, 1_763_000_000_000L,
            new CreateAsset(9, "BAD"));
        final String good = new String(CanonicalJson.signedActionBody(signer.sign(payload, PreimageMode.RAW)),
            StandardCharsets.US_ASCII);
        final String broken = good.substring(0, good.indexOf("\"bytes\":[") + 9) + "255,".repeat(64) + "27]}}";
        return broken.getBytes(StandardCharsets.US_ASCII);
    }
}
