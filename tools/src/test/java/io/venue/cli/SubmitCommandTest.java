package io.venue.cli;

import io.venue.appliance.Appliance;
import io.venue.appliance.ApplianceContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The banner's copy-paste command, {@code venue sign place ... --submit URL}, against a real appliance on loopback. */
class SubmitCommandTest
{
    @TempDir
    Path folder;

    private Appliance appliance;

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0), new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    private CliRun place(final String url, final String nonce)
    {
        return CliRun.of("sign", "place", "--key-file", appliance.demoAccountKeyFile().toString(), "--nonce", nonce,
            "--market", "1", "--side", "Bid", "--price", "50000000000", "--qty", "10000", "--submit", url);
    }

    @Test
    void placesAnOrderAndReportsRefusals()
    {
        final CliRun placed = place(appliance.baseUrl(), "1");
        assertEquals(0, placed.exitCode(), placed.err());
        assertTrue(placed.err().contains("HTTP 200"), placed.err());
        assertTrue(placed.out().contains("{\"ok\":true,\"sequence\":7,"), placed.out());

        final CliRun replayed = place(appliance.baseUrl(), "1");
        assertEquals(1, replayed.exitCode());
        assertTrue(replayed.out().contains("\"code\":\"nonce_replayed\""), replayed.out());
    }

    @Test
    void anUnreachableApplianceIsAClearFailure()
    {
        final CliRun run = place("http://127.0.0.1:1", "1");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("could not submit to http://127.0.0.1:1/api/v1/trading/actions"), run.err());
    }
}
