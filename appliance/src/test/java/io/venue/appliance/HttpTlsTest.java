package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
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
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP lane over TLS, against a running appliance on loopback with certificates made at test time: a signed submit
 * answered over HTTPS, the certificate chosen by SNI, plaintext and garbage handshakes closed, bad files refused.
 */
class HttpTlsTest
{
    @TempDir
    Path folder;

    private Appliance appliance;
    private X509Certificate fallback;
    private X509Certificate other;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws Exception
    {
        final Path sni = Files.createDirectory(folder.resolve("sni"));
        fallback = TlsCertificates.make(folder, "venue.test");
        TlsCertificates.make(sni, "a.venue.test");
        other = TlsCertificates.make(sni, "b.venue.test");
        appliance = Appliance.start(new ApplianceContext().dataDir(folder.resolve("data")).httpPort(0)
            .edgeExempt("127.0.0.1").httpHeaderTimeoutMs(1_000)
            .httpTlsCertFile(folder.resolve("venue.test.cert.pem")).httpTlsKeyFile(folder.resolve("venue.test.key.pem"))
            .httpTlsSniDir(sni), new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    /** The WebSocket streams share the lane's TLS: wss:// on the same port, and the bundle names wss URLs. */
    @Test
    void theWebSocketStreamsAreServedOverTheLanesTls() throws Exception
    {
        final HttpClient client = HttpClient.newBuilder().sslContext(TlsCertificates.trusting(fallback)).build();
        try (StreamClient stream = new StreamClient(client, appliance.baseUrl(), "/api/v1/ws/public"))
        {
            assertEquals("session", stream.next(10).get("type"));
            stream.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"]}");
            assertEquals("snapshot", stream.next(StreamClient.channel("book.1"), 10).get("type"));
        }
        assertTrue(appliance.connectivityJson().contains("\"publicUrl\":\"wss://127.0.0.1:" + appliance.httpPort() +
            "/api/v1/ws/public\""), appliance.connectivityJson());
    }

    @Test
    void aSignedSubmitIsAnsweredOverTlsAndTheBundleSaysTls() throws Exception
    {
        assertTrue(appliance.baseUrl().startsWith("https://127.0.0.1:"), appliance.baseUrl());
        final HttpClient client = HttpClient.newBuilder().sslContext(TlsCertificates.trusting(fallback))
            .connectTimeout(Duration.ofSeconds(5)).build();
        final VenueHttp http = new VenueHttp(appliance.baseUrl(), client);
        final HttpResponse<String> bid = http.submit(VenueHttp.key(appliance.demoAccountKeyFile()), 1,
            new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, 50_000 * UNIT, 10_000, null, TimeInForce.GTC, false, false,
                -1));
        assertEquals(200, bid.statusCode(), bid.body());
        assertTrue(bid.body().contains("\"ok\":true"), bid.body());
        final String bundle = http.get("/api/v1/bsl/connectivity").body();
        assertTrue(bundle.contains("\"baseUrl\":\"" + appliance.baseUrl() + "\""), bundle);
        assertTrue(bundle.contains("\"tls\":true,\"sniHosts\":\"a.venue.test,b.venue.test\""), bundle);
    }

    @Test
    void theCertificateIsTheOneTheClientAskedForBySni() throws Exception
    {
        assertEquals("CN=b.venue.test", subject("b.venue.test"));
        assertEquals("CN=a.venue.test", subject("a.venue.test"));
        assertEquals("CN=venue.test", subject(null), "no server name: the default certificate");
        assertEquals("CN=venue.test", subject("unknown.venue.test"), "an unknown name: the default certificate");
        assertTrue(other.getSubjectX500Principal().getName().contains("b.venue.test"));
    }

    @Test
    void plaintextToTheTlsPortIsClosedUnanswered() throws Exception
    {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port()))
        {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            final byte[] answer = readToEnd(socket.getInputStream());
            assertTrue(!new String(answer, StandardCharsets.ISO_8859_1).contains("HTTP/1.1"), "no HTTP answer");
        }
    }

    @Test
    void garbageClientHellosCloseTheirConnectionsAndTheLaneGoesOn() throws Exception
    {
        final Random random = new Random(23);
        final long start = System.nanoTime();
        for (int batch = 0; batch < 6; batch++)
        {
            final List<Socket> sockets = new ArrayList<>();
            for (int i = 0; i < 50; i++)
            {
                final byte[] garbage = new byte[1 + random.nextInt(600)];
                random.nextBytes(garbage);
                if (i % 2 == 0 && garbage.length > 5)
                {
                    // half of them look like a handshake record, so the parse goes past the first byte
                    garbage[0] = 0x16;
                    garbage[1] = 0x03;
                    garbage[2] = (byte)(1 + random.nextInt(3));
                    if (garbage.length > 9)
                    {
                        garbage[5] = 0x01;
                    }
                }
                final Socket socket = new Socket(InetAddress.getLoopbackAddress(), port());
                socket.setSoTimeout(5_000);
                socket.getOutputStream().write(garbage);
                sockets.add(socket);
            }
            for (final Socket socket : sockets)
            {
                try (socket)
                {
                    // closed by the handshake's failure, or by the header deadline when it waits for more
                    readToEnd(socket.getInputStream());
                }
            }
        }
        assertTrue(System.nanoTime() - start < 60_000_000_000L, "bounded in time");
        assertEquals("CN=venue.test", subject(null), "the lane still serves TLS");
    }

    @Test
    void aTlsFileThatDoesNotReadIsRefusedAtStart() throws Exception
    {
        final Path bad = Files.writeString(folder.resolve("bad.pem"), "not a certificate");
        final Path key = folder.resolve("venue.test.key.pem");
        final IllegalArgumentException garbage = assertThrows(IllegalArgumentException.class,
            () -> new ApplianceContext().dataDir(folder).httpTlsCertFile(bad).httpTlsKeyFile(key).conclude());
        assertTrue(garbage.getMessage().startsWith("http.tls.cert.file / http.tls.key.file: " + bad),
            garbage.getMessage());
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> new ApplianceContext().dataDir(folder).httpTlsCertFile(folder.resolve("none.pem")).httpTlsKeyFile(key)
                .conclude());
        assertTrue(missing.getMessage().contains("none.pem is not a readable file"), missing.getMessage());
        assertEquals("http.tls.cert.file and http.tls.key.file go together",
            assertThrows(IllegalArgumentException.class,
            () -> new ApplianceContext().dataDir(folder).httpTlsKeyFile(key).conclude()).getMessage());
    }

    private int port()
    {
        return URI.create(appliance.baseUrl()).getPort();
    }

    /** The subject of the certificate the lane shows a client asking for {@code host} by SNI (null: none). */
    private String subject(final String host) throws Exception
    {
        final SSLContext trusting = TlsCertificates.trusting(fallback, other,
            certificate(folder.resolve("sni").resolve("a.venue.test.cert.pem")));
        try (SSLSocket socket = (SSLSocket)trusting.getSocketFactory().createSocket("127.0.0.1", port()))
        {
            socket.setSoTimeout(5_000);
            final SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(host == null ? List.of() : List.of(new SNIHostName(host)));
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return ((X509Certificate)socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        }
    }

    private static X509Certificate certificate(final Path pem) throws Exception
    {
        try (InputStream in = Files.newInputStream(pem))
        {
            return (X509Certificate)CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    private static byte[] readToEnd(final InputStream in)
    {
        final ByteArrayOutputStream read = new ByteArrayOutputStream();
        final byte[] chunk = new byte[4096];
        try
        {
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk))
            {
                read.write(chunk, 0, n);
            }
        }
        catch (final IOException closed)
        {
            // a reset is a close too
        }
        return read.toByteArray();
    }
}
