package io.venue.cli;

import io.venue.appliance.Appliance;
import io.venue.appliance.ApplianceContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code venue ws-fanout} against a real appliance on loopback while {@code venue loadgen} sends orders: with either
 * client (the light one-thread non-blocking one, and Java's WebSocket client), every reading subscriber receives every
 * frame of book.1 and trades.1 in order (no seq gap), and the frames counted are the subscribers' share of what the
 * orders made.
 */
class WsFanoutCommandTest
{
    @TempDir
    Path folder;

    @Test
    void theLightClientCountsEveryFrameWithNoGap() throws Exception
    {
        fanout("nio");
    }

    @Test
    void javasClientCountsEveryFrameWithNoGap() throws Exception
    {
        fanout("java");
    }

    private void fanout(final String client) throws Exception
    {
        try (Appliance appliance = Appliance.start(new ApplianceContext().dataDir(folder.resolve("data")).httpPort(0)
            .edgeExempt("127.0.0.1"), new PrintStream(OutputStream.nullOutputStream())))
        {
            final String ws = appliance.baseUrl().replaceFirst("^http", "ws") + "/api/v1/ws/public";
            final CompletableFuture<CliRun> fanout = CompletableFuture.supplyAsync(() -> CliRun.of("ws-fanout",
                "--url", ws, "--client", client, "--subscribers", "6", "--stalled", "1", "--duration", "6"));
            Thread.sleep(1_500); // connected and subscribed
            final CliRun load = CliRun.of("loadgen", "--url", appliance.baseUrl(), "--operator-key",
                appliance.operatorKeyFile().toString(), "--accounts", "10", "--rates", "100", "--duration", "1",
                "--warmup", "0.5", "--connections", "2");
            assertEquals(0, load.exitCode(), load.out() + load.err());
            final CliRun run = fanout.get(60, TimeUnit.SECONDS);
            assertEquals(0, run.exitCode(), run.out() + run.err());
            final Matcher delivered = Pattern.compile("frames delivered ([\\d,]+) \\(.*seq gaps 0, distinct frames " +
                "([\\d,]+)").matcher(run.out());
            assertTrue(delivered.find(), run.out());
            final long frames = Long.parseLong(delivered.group(1).replace(",", ""));
            final long distinct = Long.parseLong(delivered.group(2).replace(",", ""));
            // 150 bids, each a book frame at least; every one of the 5 readers got each distinct frame
            assertTrue(distinct >= 150, run.out());
            assertEquals(5 * distinct, frames, run.out());
        }
    }
}
