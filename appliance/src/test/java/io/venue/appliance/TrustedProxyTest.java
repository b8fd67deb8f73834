package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;

import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A local proxy at 127.0.0.1 (http.trusted.proxies) names its clients by PROXY v2 headers: the edge throttle counts
 * each named client apart, and the same header from a peer that is no trusted proxy closes its connection unanswered.
 */
class TrustedProxyTest
{
    @TempDir
    Path folder;

    private Appliance appliance;
    private Secp256k1KeyPair demo;
    private long nonce;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeIpRate(1).edgeIpBurst(2)
            .httpTrustedProxies(Set.of(InetAddress.getByName("127.0.0.1"))),
            new PrintStream(log, true, StandardCharsets.UTF_8));
        demo = VenueHttp.key(appliance.demoAccountKeyFile());
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    @Test
    void aProxiedClientIsThrottledByItsOwnAddress() throws Exception
    {
        final InetAddress proxied = InetAddress.getByName("203.0.113.7");
        boolean limited = false;
        for (int i = 0; i < 10 && !limited; i++)
        {
            limited = "429".equals(submit("127.0.0.1", proxied));
        }
        assertTrue(limited, "the proxied client's edge bucket empties");
        // another client behind the same proxy has a bucket of its own
        final String other = submit("127.0.0.1", InetAddress.getByName("203.0.113.8"));
        assertNotEquals("429", other);
        assertNotEquals("", other);
    }

    @Test
    void aProxyHeaderFromAnUntrustedPeerIsClosedUnanswered() throws Exception
    {
        assertEquals("", submit("127.0.0.2", InetAddress.getByName("203.0.113.7")));
        assertNotEquals("", submit("127.0.0.2", null), "the untrusted peer's own requests are served");
    }

    /** A signed submit from {@code from}, behind a PROXY header naming {@code client} (null: none); its status. */
    private String submit(final String from, final InetAddress client) throws IOException
    {
        final SpotPlaceOrder bid = new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, 40_000 * UNIT, 10_000, null,
            TimeInForce.GTC, false, false, -1);
        final byte[] body = VenueHttp.body(demo, demo.address(), ++nonce, bid, PreimageMode.RAW);
        final byte[] head = ("POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
            "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), URI.create(appliance.baseUrl()).getPort(),
            InetAddress.getByName(from), 0))
        {
            socket.setSoTimeout(10_000);
            if (client != null)
            {
                socket.getOutputStream().write(proxyHeader(client));
            }
            socket.getOutputStream().write(head);
            socket.getOutputStream().write(body);
            final String line = statusLine(socket.getInputStream());
            return line.startsWith("HTTP/1.1 ") ? line.substring(9, 12) : line;
        }
    }

    /** A PROXY v2 header (PROXY command, TCP over IPv4) naming {@code client}, as HAProxy sends it. */
    private static byte[] proxyHeader(final InetAddress client)
    {
        final byte[] signature = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
        return ByteBuffer.allocate(28).put(signature)
            .put((byte)0x21).put((byte)0x11).putShort((short)12).put(client.getAddress()).put(new byte[] {127, 0, 0, 1})
            .putShort((short)40_000).putShort((short)8080).array();
    }

    private static String statusLine(final InputStream in)
    {
        final StringBuilder line = new StringBuilder();
        try
        {
            for (int b = in.read(); b >= 0 && b != '\r'; b = in.read())
            {
                line.append((char)b);
            }
        }
        catch (final IOException reset)
        {
            // a reset is a close too
        }
        return line.toString();
    }
}
