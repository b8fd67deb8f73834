package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.testing.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The run command's process: {@link ApplianceMain} in its own JVM prints its banner, answers over HTTP, stops
 * cleanly on SIGTERM (what Ctrl-C's SIGINT also triggers), and a restart on the same folder carries on.
 */
class ApplianceProcessTest
{
    @TempDir
    Path folder;

    @AfterEach
    void stop() throws InterruptedException
    {
        ChildJvm.stopAll();
    }

    @Test
    void startsStopsCleanlyAndRecovers() throws Exception
    {
        final Path data = folder.resolve("data");
        ChildJvm child = ChildJvm.start(ApplianceMain.class, "--data", data.toString(), "--port", "0");
        String url = VenueHttp.servingUrl(child);
        final String firstUrl = url;
        // the banner goes on after the serving line: read to its last line before looking through it
        child.awaitLine("Ctrl-C stops it cleanly", 30);
        assertTrue(child.lines.stream().anyMatch(l -> l.contains("--submit " + firstUrl)),
            "the banner gives a copy-paste order: " +
            child.lines);

        final Secp256k1KeyPair demo = VenueHttp.key(data.resolve("keys").resolve("demo-account.key"));
        final SpotPlaceOrder bid = new SpotPlaceOrder(DemoVenue.SPOT_MARKET, null, Side.BID, 49_000 * DemoVenue.UNIT,
            10_000, null, TimeInForce.GTC, false, false, -1);
        HttpResponse<String> answer = new VenueHttp(url).submit(demo, 1, bid);
        assertEquals(200, answer.statusCode(), answer.body());

        // SIGTERM through the handle: Process.destroy() would also close our end of the child's output
        child.process.toHandle().destroy();
        assertTrue(child.process.waitFor(60, TimeUnit.SECONDS));
        child.awaitLine("stopped cleanly", 5);

        child = ChildJvm.start(ApplianceMain.class, "--data", data.toString(), "--port", "0");
        url = VenueHttp.servingUrl(child);
        assertTrue(
            child.lines.stream().map(ChildJvm::message).anyMatch(l -> l.startsWith("recovered: 0 commands replayed")),
            String.join("\n", child.lines));
        assertTrue(child.lines.stream().map(ChildJvm::message).noneMatch(l -> l.startsWith("demo venue set up")),
            "the set-up runs once");
        answer = new VenueHttp(url).submit(demo, 1, bid);
        assertEquals("nonce_replayed", VenueHttp.field(answer.body(), "code"), answer.body());
    }

    @Test
    void badArgumentsExitWithUsage() throws Exception
    {
        final ChildJvm child = ChildJvm.start(ApplianceMain.class, "--bogus");
        assertTrue(child.process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, child.process.exitValue());
        child.awaitLine("usage: venue-appliance", 5);
    }
}
