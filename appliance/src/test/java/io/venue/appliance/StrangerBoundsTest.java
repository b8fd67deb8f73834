package io.venue.appliance;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.Blake3;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.entry.RefusalDetails;
import io.venue.journal.queue.Journal;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedDecoder;
import io.venue.journal.sbe.RequestsRejectedSummaryDecoder;
import io.venue.signing.ActionSigner;
import io.venue.testing.JournalFolders;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a stranger's refused requests cost the node (issue 23, "memory and journals a stranger can exhaust"): the
 * answers kept for the status route stay within their byte budget under a flood of large refused batches, also after a
 * restart; a refusal whose text would overflow the journal's field (65,534 bytes) is answered and journaled capped; and
 * a refused request costs the command journal about a kilobyte however large the body was.
 */
class StrangerBoundsTest
{
    private static final long PRICE = 50_000 * UNIT;
    private static final long QTY = 10_000;
    private static final int LEGS = 1_000;
    private static final String SUBMIT = "/api/v1/trading/actions";

    @TempDir
    Path folder;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private Appliance appliance;
    private VenueHttp http;

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private void open(final ApplianceContext context) throws Exception
    {
        // these tests send faster than the edge throttle allows one address; the throttle has its own test
        appliance = Appliance.start(context.dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
    }

    /** A 1,000-leg batch for {@code account}, signed by {@code signer}: about 150 KB of canonical JSON. */
    private static ActionPayload batch(final Address account, final long nonce)
    {
        final List<BatchLeg> legs = new ArrayList<>(LEGS);
        for (int i = 0; i < LEGS; i++)
        {
            legs.add(new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, PRICE - i * UNIT, QTY, null, TimeInForce.GTC,
                false, false, -1));
        }
        return new ActionPayload(account, nonce, null, System.currentTimeMillis(), new Batch(legs));
    }

    private static byte[] signed(final Secp256k1KeyPair signer, final ActionPayload payload)
    {
        final ActionSigner s = new ActionSigner(ApplianceContext.DEMO_CHAIN_ID, ApplianceContext.DEMO_CONTRACT, signer);
        return CanonicalJson.signedActionBody(s.sign(payload, PreimageMode.RAW));
    }

    /** The heap still used after collections: what is retained. */
    private static long retainedHeap() throws InterruptedException
    {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++)
        {
            System.gc();
            Thread.sleep(50);
            least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    private static void refused(final HttpResponse<String> response, final int status, final String code)
    {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(code, field(response.body(), "code"), response.body());
    }

    @Test
    void aFloodOfLargeSignerRefusalsLeavesTheRetainedHeapFlatAndTheVenueServing() throws Exception
    {
        final long budget = 4L << 20;
        open(new ApplianceContext().keptAnswersBytes(budget));
        final Secp256k1KeyPair demo = VenueHttp.key(appliance.demoAccountKeyFile());
        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        // warm: the classes, the journals' first pages, the HTTP client's connections
        flood(stranger, 20, 0);
        final long before = retainedHeap();
        final String lastDigest = flood(stranger, 400, 20);
        final long after = retainedHeap();
        // generous: twice the budget and 16 MiB for whatever else moved; the unbounded table held 400 × ~170 KB here
        final long bound = 2 * budget + (16L << 20);
        System.out.printf("retained heap: %,d bytes before 400 refused 1,000-leg batches, %,d after (bound %,d)%n",
            before, after, bound);
        assertTrue(after - before < bound, "the retained heap grew by " + (after - before) + " bytes");

        // the status route has the answer, its canonical JSON kept as a head and the whole one's length
        final HttpResponse<String> status = http.get(SUBMIT + "/" + lastDigest);
        assertEquals(200, status.statusCode(), status.body());
        assertTrue(status.body().contains("\"code\":\"UNAUTHORIZED_SIGNER\""), status.body());
        assertNotNull(field(status.body(), "canonicalJsonPrefix"), status.body());
        assertTrue(Long.parseLong(field(status.body(), "canonicalJsonBytes")) > 100_000, status.body());
        assertTrue(status.body().length() < 4096, "the kept answer is small: " + status.body().length() + " chars");

        // an honest client is served
        final HttpResponse<String> honest = http.submit(demo, 1, new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, PRICE,
            QTY, null, TimeInForce.GTC, false, false, -1));
        assertEquals(200, honest.statusCode(), honest.body());

        // a restart rebuilds the kept answers from the journal: within the budget again
        appliance.close();
        appliance = null;
        open(new ApplianceContext().keptAnswersBytes(budget));
        // the responder reads the journal's last commands again at start: once it has, the last answer is there
        final long deadline = System.nanoTime() + 60_000_000_000L;
        HttpResponse<String> again = http.get(SUBMIT + "/" + lastDigest);
        while (again.statusCode() == 404 && System.nanoTime() < deadline)
        {
            Thread.sleep(50);
            again = http.get(SUBMIT + "/" + lastDigest);
        }
        assertEquals(200, again.statusCode(), again.body());
        assertNotNull(field(again.body(), "canonicalJsonPrefix"), again.body());
        final long restarted = retainedHeap();
        System.out.printf("retained heap: %,d bytes after a restart on that journal%n", restarted);
        assertTrue(restarted - before < bound, "a restart holds " + (restarted - before) +
            " bytes more than before the flood");
    }

    /**
     * Sends {@code count} batches signed by {@code stranger}, each for an account of its own, eight at a time; each is
     * refused UNAUTHORIZED_SIGNER with its whole canonical JSON. Returns the last one's digest.
     */
    private String flood(final Secp256k1KeyPair stranger, final int count, final long nonce) throws Exception
    {
        String digest = null;
        final List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        final List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final ActionPayload payload = batch(Secp256k1KeyPair.generate(new SecureRandom()).address(), nonce + i);
            lengths.add(CanonicalJson.toBytes(payload).length);
            sent.add(http.postAsync(SUBMIT, signed(stranger, payload)));
            if (sent.size() == 8 || i == count - 1)
            {
                for (int j = 0; j < sent.size(); j++)
                {
                    final HttpResponse<String> answer = sent.get(j).get();
                    refused(answer, 401, "UNAUTHORIZED_SIGNER");
                    // the live answer carries the whole canonical JSON: the client sent as much
                    assertNull(field(answer.body(), "canonicalJsonPrefix"));
                    assertTrue(answer.body().length() > lengths.get(j), "the whole canonical JSON in the answer");
                    digest = field(answer.body(), "digest");
                }
                sent.clear();
                lengths.clear();
            }
        }
        return digest;
    }

    @Test
    void aRefusalTooLongForTheJournalsFieldIsAnsweredAndJournaledCapped() throws Exception
    {
        // short, so that a request never answered fails in seconds
        open(new ApplianceContext().answerTimeoutMs(3_000));
        final Secp256k1KeyPair demo = VenueHttp.key(appliance.demoAccountKeyFile());

        // signature bytes that cannot be a signature over a 1,000-leg batch: BAD_SIGNATURE, whose text is the canonical
        // JSON
        final ActionPayload payload = batch(demo.address(), 1);
        final byte[] canonical = CanonicalJson.toBytes(payload);
        assertTrue(canonical.length > 65_534, "the canonical JSON is " + canonical.length + " bytes");
        final String good = new String(signed(demo, payload), StandardCharsets.US_ASCII);
        final String broken = good.substring(0, good.indexOf("\"bytes\":[") + 9) + "255,".repeat(64) + "27]}}";
        final HttpResponse<String> bad = http.post(SUBMIT, broken.getBytes(StandardCharsets.US_ASCII));
        refused(bad, 401, "BAD_SIGNATURE");
        assertEquals(String.valueOf(canonical.length), field(bad.body(), "canonicalJsonBytes"), bad.body());
        assertTrue(bad.body().contains("\"canonicalJsonPrefix\":\"{\\\"account\\\":\\\"" + demo.address()), bad.body());

        // an unknown key of 100 KB: MALFORMED, whose text names the key's path
        final String key = "k".repeat(100_000);
        final String unknown = "{\"payload\":{\"" + key + "\":1}}";
        final HttpResponse<String> malformed = http.post(SUBMIT, unknown.getBytes(StandardCharsets.US_ASCII));
        refused(malformed, 400, "MALFORMED");
        assertTrue(field(malformed.body(), "field").length() <= RefusalDetails.FIELD_BYTES, malformed.body());

        // nothing changed: the demo account's nonce 1 is still free, and the venue answers
        assertEquals(200, http.submit(demo, 1, new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, PRICE, QTY, null,
            TimeInForce.IOC, false, false, -1)).statusCode());
        appliance.close();
        appliance = null;

        final List<String> badSignatures = ApplianceTest.requestRejections(folder, RequestRejectReason.BAD_SIGNATURE);
        assertEquals(1, badSignatures.size(), badSignatures.toString());
        final String detail = badSignatures.get(0).substring("BAD_SIGNATURE: ".length());
        assertTrue(RefusalDetails.utf8Length(detail) <= RefusalDetails.MAX_BYTES, detail);
        assertEquals(canonical.length, RefusalDetails.fullBytes(detail), detail);
        assertEquals(blake3(canonical), RefusalDetails.fullDigest(detail), "the digest of the whole canonical JSON");
        final List<String> malformedRecords = ApplianceTest.requestRejections(folder, RequestRejectReason.MALFORMED);
        assertTrue(malformedRecords.stream().anyMatch(r -> r.contains("kkkk") && RefusalDetails.isCut(r) &&
            RefusalDetails.utf8Length(r) <= RefusalDetails.MAX_BYTES + "MALFORMED: ".length()),
            malformedRecords.toString());
    }

    private static String blake3(final byte[] bytes)
    {
        final Blake3 blake3 = new Blake3();
        blake3.update(bytes, 0, bytes.length);
        final byte[] digest = new byte[Blake3.DIGEST_LENGTH];
        blake3.digest(digest, 0);
        return Hex.to0x(digest);
    }

    /**
     * 10,000 refused requests from one client: journaled one by one ({@code refusals.aggregate.after=0}) each costs the
     * command journal about a kilobyte however large its body; aggregated (the default), each connection's first ones
     * in a window are journaled and the rest counted in summaries, and no refusal is missing from the journal.
     */
    @ParameterizedTest(name = "refusals.aggregate.after={0}")
    @ValueSource(ints = {0, 16})
    void aRefusedRequestCostsTheCommandJournalAtMostAKilobyte(final int aggregateAfter) throws Exception
    {
        open(new ApplianceContext().journalPretouch(false).refusalsAggregateAfter(aggregateAfter));
        final Path commands = folder.resolve("journal").resolve("commands");
        final long recordsBefore = journalBytes(commands);
        final long diskBefore = diskBytes(commands);
        // a stranger's body with an unknown key of 4 KiB: MALFORMED
        final byte[] body = ("{\"payload\":{\"" + "k".repeat(4096) + "\":1}}").getBytes(StandardCharsets.US_ASCII);
        final int requests = 10_000;
        final List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < requests; i++)
        {
            sent.add(http.postAsync(SUBMIT, body));
            if (sent.size() == 16 || i == requests - 1)
            {
                for (final CompletableFuture<HttpResponse<String>> answer : sent)
                {
                    assertEquals(400, answer.get().statusCode());
                    assertEquals("MALFORMED", field(answer.get().body(), "code"), answer.get().body());
                }
                sent.clear();
            }
        }
        // every refusal is in the journal: in a record of its own or counted in a summary once its window is over
        final long deadline = System.nanoTime() + 30_000_000_000L;
        long inJournal = 0;
        while (inJournal < requests)
        {
            assertTrue(System.nanoTime() < deadline, "refusals in the journal: " + inJournal);
            final String metrics = http.get("/api/v1/admin/metrics").body();
            inJournal = metric(metrics, "venue_journaled_refusals_total{reason=\"MALFORMED\"}") +
                metric(metrics, "venue_summarized_refusals_total{reason=\"MALFORMED\"}");
        }
        assertEquals(requests, inJournal);
        appliance.close();
        appliance = null;
        final double perRecord = (journalBytes(commands) - recordsBefore) / (double)requests;
        final double perDisk = (diskBytes(commands) - diskBefore) / (double)requests;
        System.out.printf("command journal per refused request (a 4 KiB unknown key, refusals.aggregate.after=%d): " +
            "%.1f bytes of records, %.1f bytes of disk%n", aggregateAfter, perRecord, perDisk);
        assertTrue(perRecord <= RefusalDetails.MAX_BYTES + 128, "bytes of records per refusal: " + perRecord);
        assertTrue(perDisk <= RefusalDetails.MAX_BYTES + 512, "bytes of disk per refusal: " + perDisk);
        final long summaries = JournalFolders.records(commands).stream()
            .filter(r -> (r[2] & 0xFF | (r[3] & 0xFF) << 8) == RequestsRejectedSummaryDecoder.TEMPLATE_ID).count();
        assertEquals(aggregateAfter == 0, summaries == 0, "summaries: " + summaries);
    }

    /**
     * A stranger who opens a connection for every request is one source, its address: its refusals beyond the first
     * ones of each window are counted into summaries naming the address, whichever connection each came on.
     */
    @Test
    void aClientOpeningAConnectionPerRequestIsCountedByItsAddress() throws Exception
    {
        open(new ApplianceContext().journalPretouch(false));
        final Path commands = folder.resolve("journal").resolve("commands");
        final byte[] body = "{\"payload\":{\"stranger\":1}}".getBytes(StandardCharsets.US_ASCII);
        final byte[] request = ("POST " + SUBMIT + " HTTP/1.1\r\nHost: venue\r\nContent-Type: application/json\r\n" +
            "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n" + new String(body,
            StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII);
        final URI base = URI.create(appliance.baseUrl());
        final int requests = 2_000;
        for (int i = 0; i < requests; i++)
        {
            try (Socket socket = new Socket("127.0.0.1", base.getPort()))
            {
                socket.getOutputStream().write(request);
                final String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertTrue(answer.startsWith("HTTP/1.1 400") && answer.contains("MALFORMED"), answer);
            }
        }
        final long deadline = System.nanoTime() + 30_000_000_000L;
        long inJournal = 0;
        while (inJournal < requests)
        {
            assertTrue(System.nanoTime() < deadline, "refusals in the journal: " + inJournal);
            final String metrics = http.get("/api/v1/admin/metrics").body();
            inJournal = metric(metrics, "venue_journaled_refusals_total{reason=\"MALFORMED\"}") +
                metric(metrics, "venue_summarized_refusals_total{reason=\"MALFORMED\"}");
        }
        assertEquals(requests, inJournal);
        appliance.close();
        appliance = null;

        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final RequestsRejectedSummaryDecoder summary = new RequestsRejectedSummaryDecoder();
        final byte[] loopback = new byte[16];
        loopback[10] = (byte)0xFF;
        loopback[11] = (byte)0xFF;
        loopback[12] = 127;
        loopback[15] = 1;
        long records = 0;
        long counted = 0;
        for (final byte[] record : JournalFolders.records(commands))
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(record);
            header.wrap(buffer, 0);
            if (header.templateId() == RequestRejectedDecoder.TEMPLATE_ID)
            {
                records++;
            }
            else if (header.templateId() == RequestsRejectedSummaryDecoder.TEMPLATE_ID)
            {
                summary.wrapAndApplyHeader(buffer, 0, header);
                final byte[] source = new byte[16];
                summary.getSourceAddress(source, 0, 16);
                assertArrayEquals(loopback, source, "the summary names the client's address");
                counted += summary.count();
            }
        }
        System.out.printf("%,d refused requests, each on a connection of its own: %d RequestRejected records, %,d " +
            "counted in summaries%n", requests, records, counted);
        assertEquals(requests, records + counted, "every refusal in a record or a count");
        // per connection, each would have had a record of its own: by address, 16 a window (1 s)
        assertTrue(records < requests / 10, "records: " + records);
    }

    /** The value of one sample line ("name{label} value") of a metrics text. */
    private static long metric(final String text, final String sample)
    {
        for (final String line : text.split("\n"))
        {
            if (line.startsWith(sample + " "))
            {
                return Long.parseLong(line.substring(sample.length() + 1));
            }
        }
        throw new AssertionError("no sample " + sample + " in\n" + text);
    }

    /** The bytes of the journal's records, each with its 4-byte frame. */
    private static long journalBytes(final Path journal)
    {
        long bytes = 0;
        for (final byte[] record : JournalFolders.records(journal))
        {
            bytes += record.length + Journal.FRAME_HEADER;
        }
        return bytes;
    }

    /** The disk the journal's folder takes (allocated blocks: Chronicle's files are sparse). */
    private static long diskBytes(final Path journal) throws IOException, InterruptedException
    {
        final Process du = new ProcessBuilder("du", "-s", "-B1", journal.toString()).redirectErrorStream(true).start();
        final String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertEquals(0, du.waitFor(), out);
        return Long.parseLong(out.trim().split("\\s+")[0]);
    }
}
