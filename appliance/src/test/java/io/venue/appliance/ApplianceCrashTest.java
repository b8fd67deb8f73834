package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.testing.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole appliance process killed with SIGKILL, after 100 to 400 answers, while clients keep 32 signed submits in
 * flight (so its sequencer
 * journals several commands an excerpt and its engine writes their events together), restarted each time: every
 * answer a client got names a command the journal holds, with the same digest, and each restart's recovery, which
 * compares the events already journaled with a replay of the commands, succeeds.
 */
class ApplianceCrashTest
{
    private static final int KILLS = 3;

    @TempDir
    Path folder;

    @AfterEach
    void stop() throws InterruptedException
    {
        ChildJvm.stopAll();
    }

    @Test
    void everyAnsweredCommandIsJournaledAfterKillsUnderLoad() throws Exception
    {
        final Path config = Files.writeString(folder.resolve("node.properties"),
            "demo=true\nhttp.port=0\nedge.ip.exempt=127.0.0.1\ndata.dir=node\n");
        final Path data = folder.resolve("node");
        final Map<Long, String> answered = new ConcurrentHashMap<>();
        final SplittableRandom random = new SplittableRandom(11);
        long nonce = 1;
        for (int kill = 0; kill < KILLS; kill++)
        {
            final ChildJvm child = ChildJvm.start(ApplianceMain.class, "--config", config.toString());
            final VenueHttp http = new VenueHttp(VenueHttp.servingUrl(child));
            final Secp256k1KeyPair demo = VenueHttp.key(data.resolve("keys").resolve("demo-account.key"));
            final Semaphore inFlight = new Semaphore(32);
            // killed after a random number of answers (not a fixed time: a cold JVM on a loaded machine answers slowly)
            final int killAfter = random.nextInt(100, 400);
            final AtomicInteger answersThisRun = new AtomicInteger();
            final long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (answersThisRun.get() < killAfter && System.nanoTime() < giveUpAt)
            {
                if (!inFlight.tryAcquire(10, TimeUnit.MILLISECONDS))
                {
                    continue;
                }
                final byte[] body = VenueHttp.body(demo, demo.address(), nonce++,
                    new SpotPlaceOrder(DemoVenue.SPOT_MARKET, null, Side.BID,
                    (40_000 + nonce % 100) * DemoVenue.UNIT, 10_000, null, TimeInForce.GTC, false, false, -1),
                    PreimageMode.RAW);
                final CompletableFuture<HttpResponse<String>> sent = http.postAsync("/api/v1/trading/actions", body);
                sent.whenComplete((answer, failure) ->
                {
                    inFlight.release();
                    if (answer != null && record(answer.body(), answered))
                    {
                        answersThisRun.incrementAndGet();
                    }
                });
            }
            child.process.destroyForcibly();
            assertTrue(child.process.waitFor(30, TimeUnit.SECONDS));
        }
        // a last start recovers (its recovery compares the journaled events with the replay), then stops cleanly
        final ChildJvm last = ChildJvm.start(ApplianceMain.class, "--config", config.toString());
        VenueHttp.servingUrl(last);
        last.process.toHandle().destroy();
        assertTrue(last.process.waitFor(60, TimeUnit.SECONDS));
        last.awaitLine("stopped cleanly", 5);

        final Map<Long, String> journaled = new HashMap<>();
        final Map<Long, Integer> commandsPerExcerpt = new HashMap<>();
        final RecordPrinter printer = new RecordPrinter();
        try (Journal commands = Journal.openReadOnly(data.resolve("journal").resolve("commands"));
            JournalTailer tailer = commands.tailer())
        {
            while (tailer.read((buffer, offset, length, index) ->
            {
                commandsPerExcerpt.merge(index, 1, Integer::sum);
                record(printer.print(buffer, offset, length), journaled);
            }))
            {
                // to the end
            }
        }
        assertTrue(answered.size() >= 3 * 100, "answers before the kills: " + answered.size());
        System.out.println(
            "appliance crash test: " + answered.size() + " answers, " + journaled.size() + " commands journaled, " +
            commandsPerExcerpt.values().stream().filter(n -> n > 1).count() +
            " excerpts of several commands (the largest " +
            commandsPerExcerpt.values().stream().mapToInt(Integer::intValue).max().orElse(0) + ")");
        for (final Map.Entry<Long, String> answer : answered.entrySet())
        {
            assertEquals(answer.getValue(), journaled.get(answer.getKey()),
                "the answered command of sequence " + answer.getKey());
        }
    }

    /**
     * Keeps the sequence and digest a text names, if it names both: an answer about a command (accepted or refused by
     * the engine), or a journaled command as printed.
     */
    private static boolean record(final String json, final Map<Long, String> into)
    {
        final String sequence = VenueHttp.field(json, "sequence");
        final String digest = VenueHttp.field(json, "digest");
        if (sequence == null || digest == null)
        {
            return false;
        }
        into.put(Long.parseLong(sequence), digest);
        return true;
    }
}
