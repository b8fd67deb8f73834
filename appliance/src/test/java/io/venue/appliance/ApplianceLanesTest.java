package io.venue.appliance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The appliance with its lanes from {@code lanes} (the default, http): the lane is started by the node, serves the
 * connectivity bundle as before on loopback, and is drained and closed with the node.
 */
class ApplianceLanesTest
{
    @TempDir
    Path folder;

    @Test
    void theHttpLaneServesTheBundleAndClosesWithTheNode() throws Exception
    {
        final int port;
        try (Appliance appliance = Appliance.start(
            new ApplianceContext().dataDir(folder).httpPort(0).lanes(List.of("http")),
            new PrintStream(OutputStream.nullOutputStream())))
        {
            port = appliance.httpPort();
            assertTrue(port > 0);
            final String expected = "{\"ok\":true,\"http\":{\"baseUrl\":\"http://127.0.0.1:" + port +
                "\",\"submitRoute\":" + "\"/api/v1/trading/actions\",\"mmReplaceRoute\":\"/api/v1/mm/orders/" +
                "replace\",\"adminRoute\":\"/api/v1/admin/actions\"," +
                "\"tls\":false},\"bsl\":{\"orderEntryRoute\":\"/api/v1/bsl/orders/compact\",\"resultMode\":\"ack\"," +
                "\"responseMode\":" +
                "\"detailed\",\"schema\":\"venue-bsl.xml, schema 4, version 1\"}," +
                "\"ws\":{\"publicUrl\":\"ws://127.0.0.1:" + port + "/api/v1/ws/public\",\"privateUrl\":" +
                "\"ws://127.0.0.1:" + port + "/api/v1/ws/private\",\"tokenRoute\":\"/api/v1/ws/token\"," +
                "\"heartbeatMs\":20000,\"idleTimeoutMs\":90000,\"authDeadlineMs\":5000," +
                "\"maxSubscriptionsPerConnection\":32,\"publicMaxMarketsPerConnection\":16," +
                "\"maxControlMessagesPerWindow\":60,\"controlMessageWindowMs\":60000,\"maxInboundBytes\":65536," +
                "\"slowConsumerBytes\":4194304,\"slowConsumerGraceMs\":5000}," +
                "\"actionSigning\":{\"chainId\":8453," +
                "\"verifyingContract\":" +
                "\"0x" + "5e".repeat(20) + "\",\"digest\":\"blake3-v2\",\"scheme\":\"EcdsaSecp256k1\"}," +
                "\"schemas\":{\"route\":\"/api/v1/public/schemas\",\"byteOrder\":\"littleEndian\"}}";
            assertEquals(expected, appliance.connectivityJson());
            assertTrue(get(port, "/api/v1/bsl/connectivity").endsWith("\r\n\r\n" + expected));
        }
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(5_000);
            socket.getOutputStream()
                .write("GET /api/v1/bsl/connectivity HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(-1, socket.getInputStream().read(), "nothing serves once the node closed");
        }
        catch (final IOException refused)
        {
            // refused: nothing listens any more
        }
    }

    /** One GET on a new connection that asks to be closed after the answer. */
    private static String get(final int port, final String path) throws Exception
    {
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
