package io.venue.cli;

import io.venue.appliance.Appliance;
import io.venue.appliance.ApplianceContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code venue loadgen} against a real appliance on loopback, at a gentle rate: every action answered ok, JSON and
 * plot written.
 */
class LoadgenCommandTest
{
    @TempDir
    Path folder;

    @Test
    void fundsSignsSendsAndReports() throws Exception
    {
        try (Appliance appliance = Appliance.start(new ApplianceContext().dataDir(folder.resolve("data")).httpPort(0)
            .edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream())))
        {
            final Path json = folder.resolve("results.json");
            final Path plot = folder.resolve("latency.png");
            final CliRun run = CliRun.of("loadgen", "--url", appliance.baseUrl(), "--operator-key",
                appliance.operatorKeyFile().toString(), "--accounts", "10", "--rates", "200", "--duration", "1",
                "--warmup", "0.5", "--ceiling", "4", "--ceiling-actions", "300", "--connections", "4",
                "--out", json.toString(), "--plot", plot.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("funded 10 traders"), run.out());
            final String results = Files.readString(json);
            // 1.5 s at 200/s, of which 1 s measured; 300 in the ceiling run, minus its warm-up; nothing refused
            assertTrue(results.matches(
                "(?s).*\\{\"mode\":\"fixed\",\"targetRate\":200,\"concurrency\":0,\"seconds\":1\\.\\d{3}," +
                "\"sent\":300,\"answered\":200,.*"), results);
            assertTrue(results.contains("\"ok\":200,\"failed\":0,\"refused\":{}"), results);
            assertTrue(results.contains("{\"mode\":\"ceiling\",\"targetRate\":0,\"concurrency\":4,"), results);
            final BufferedImage image = ImageIO.read(plot.toFile());
            assertNotNull(image, "a readable PNG");
            // PercentilePlot's size
            assertEquals(900, image.getWidth());
            assertEquals(560, image.getHeight());
        }
    }

    @Test
    void sendsCompactRequestsThroughInstitutionalAgents() throws Exception
    {
        try (Appliance appliance = Appliance.start(new ApplianceContext().dataDir(folder.resolve("data")).httpPort(0)
            .edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream())))
        {
            final Path json = folder.resolve("compact.json");
            final CliRun run = CliRun.of("loadgen", "--url", appliance.baseUrl(), "--operator-key",
                appliance.operatorKeyFile().toString(), "--accounts", "4", "--rates", "400", "--duration", "1",
                "--warmup", "0.5", "--compact", "20", "--ceiling", "2", "--ceiling-actions", "400", "--connections",
                "4", "--out", json.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("made 4 institutional agents"), run.out());
            final String results = Files.readString(json);
            // 400 orders a second in requests of 20: 20 requests a second, 30 sent, 20 measured, every order accepted
            assertTrue(
                results.startsWith("{\"url\":\"" + appliance.baseUrl() + "\",\"traders\":4,\"ordersPerRequest\":20,"),
                results);
            assertTrue(results.matches(
                "(?s).*\\{\"mode\":\"fixed\",\"targetRate\":20,\"concurrency\":0,\"seconds\":1\\.\\d{3}," +
                "\"sent\":30,\"answered\":20,\"answeredPerSecond\":[\\d.]+,\"ok\":20,\"failed\":0," +
                "\"refused\":\\{\\}.*"), results);
            assertTrue(results.contains("{\"mode\":\"ceiling\",\"targetRate\":0,\"concurrency\":2,"), results);
        }
    }

    @Test
    void sendsCompactRequestsOverBslTcpSessions() throws Exception
    {
        try (Appliance appliance = Appliance.start(new ApplianceContext().dataDir(folder.resolve("data")).httpPort(0)
            .bslTcpPort(0).lanes(List.of("http", "bsl-tcp")).edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream())))
        {
            final Path json = folder.resolve("bsl-tcp.json");
            final CliRun run = CliRun.of("loadgen", "--url", appliance.baseUrl(), "--operator-key",
                appliance.operatorKeyFile().toString(), "--accounts", "4", "--rates", "400", "--duration", "1",
                "--warmup", "0.5", "--compact", "20", "--ceiling", "2", "--ceiling-actions", "400",
                "--bsl-tcp", "127.0.0.1:" + appliance.bslTcpPort(), "--out", json.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            final String results = Files.readString(json);
            // the same shape as over HTTP: every order of every measured request accepted, over the sessions
            assertTrue(results.matches(
                "(?s).*\\{\"mode\":\"fixed\",\"targetRate\":20,\"concurrency\":0,\"seconds\":1\\.\\d{3}," +
                "\"sent\":30,\"answered\":20,\"answeredPerSecond\":[\\d.]+,\"ok\":20,\"failed\":0," +
                "\"refused\":\\{\\}.*"), results);
            assertTrue(results.contains("{\"mode\":\"ceiling\",\"targetRate\":0,\"concurrency\":2,"), results);
            assertTrue(results.contains("\"failed\":0"), results);
            // the requests went over the lane: a session logged in per trader for each run (the fixed rate, the
            // ceiling), and every request of both taken as an Orders message (30 and 20)
            final String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(appliance.baseUrl() + "/api/v1/admin/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("\nvenue_bsltcp_logins_total 8\n"), metrics);
            assertTrue(metrics.contains("\nvenue_bsltcp_requests_total 50\n"), metrics);
        }
    }
}
