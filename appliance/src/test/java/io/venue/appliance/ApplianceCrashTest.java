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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    private static final Pattern SEQUENCE = Pattern.compile("\"sequence\":(\\d+)");
    private static final Pattern DIGEST = Pattern.compile("\"digest\":\"(0x[0-9a-f]{64})\"");

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
            final VenueHttp http = new VenueHttp(url(child));
            final Secp256k1KeyPair demo = VenueHttp.key(data.resolve("keys").resolve("demo-account.key"));
            final Semaphore inFlight = new Semaphore(32);
            // killed after a random number of answers (not a fixed time: a cold JVM on a loaded machine answers slowly)
            final int killAfter = random.nextInt(100, 400);
            final java.util.concurrent.atomic.AtomicInteger answersThisRun = new java.util.concurrent.atomic.AtomicInteger();
            final long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (answersThisRun.get() < killAfter && System.nanoTime() < giveUpAt)
            {
                if (!inFlight.tryAcquire(10, TimeUnit.MILLISECONDS))
                {
                    continue;
                }
                final byte[] body = VenueHttp.body(demo, demo.address(), nonce++, new SpotPlaceOrder(DemoVenue.SPOT_MARKET, null, Side.BID,
                    (40_000 + nonce % 100) * DemoVenue.UNIT, 10_000, null, TimeInForce.GTC, false, false, -1), PreimageMode.RAW);
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
        url(last);
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
                final String line = printer.print(buffer, offset, length);
                final Matcher sequence = SEQUENCE.matcher(line);
                final Matcher digest = DIGEST.matcher(line);
                if (sequence.find() && digest.find())
                {
                    journaled.put(Long.parseLong(sequence.group(1)), digest.group(1));
                }
            }))
            {
                // to the end
            }
        }
        assertTrue(answered.size() >= 3 * 100, "answers before the kills: " + answered.size());
        System.out.println("appliance crash test: " + answered.size() + " answers, " + journaled.size() + " commands journaled, " +
            commandsPerExcerpt.values().stream().filter(n -> n > 1).count() + " excerpts of several commands (the largest " +
            commandsPerExcerpt.values().stream().mapToInt(Integer::intValue).max().orElse(0) + ")");
        for (final Map.Entry<Long, String> answer : answered.entrySet())
        {
            assertEquals(answer.getValue(), journaled.get(answer.getKey()), "the answered command of sequence " + answer.getKey());
        }
    }

    /** Keeps an answer that names its command (accepted or refused by the engine): its sequence and digest. */
    private static boolean record(final String body, final Map<Long, String> answered)
    {
        final Matcher sequence = SEQUENCE.matcher(body);
        final Matcher digest = DIGEST.matcher(body);
        if (sequence.find() && digest.find())
        {
            answered.put(Long.parseLong(sequence.group(1)), digest.group(1));
            return true;
        }
        return false;
    }

    private static String url(final ChildJvm child) throws InterruptedException
    {
        return child.awaitLine("venue appliance serving on ", 60).substring("venue appliance serving on ".length());
    }
}
