package io.venue.appliance;

import io.venue.action.ActionPayload;
import io.venue.action.Cancel;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentKind;
import io.venue.auth.OwnerRevokeText;
import io.venue.auth.Scope;
import io.venue.auth.WsTokenText;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.http.OwnerIntents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing of the HTTP lane with seeded random input: mutated signed bodies, random bytes, random paths and raw
 * request heads on a socket. Every answer is a JSON error below 500 (or a closed connection for bytes that are not
 * HTTP), the process keeps serving, and nothing reaches an account: afterwards the demo account's nonce 1 is
 * still free.
 */
class HttpFuzzTest
{
    private static final long SEED = 20261122L;

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair demo;

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream()));
        http = new VenueHttp(appliance.baseUrl());
        demo = VenueHttp.key(appliance.demoAccountKeyFile());
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    private static SpotPlaceOrder bid()
    {
        return new SpotPlaceOrder(DemoVenue.SPOT_MARKET, null, Side.BID, 49_000 * DemoVenue.UNIT, 10_000, null, TimeInForce.GTC,
            false, false, -1);
    }

    @Test
    void mutatedAndRandomBodiesAreRefusedCleanly() throws Exception
    {
        final Random random = new Random(SEED);
        // signed for nonce 1 but never sent whole: a mutation that still verifies would consume nonce 1
        final byte[] valid = VenueHttp.body(demo, demo.address(), 1, bid(), PreimageMode.RAW);
        for (int i = 0; i < 300; i++)
        {
            final byte[] body = i % 3 == 0 ? randomBytes(random, random.nextInt(600)) : mutate(valid, random);
            final HttpResponse<String> answer = http.post("/api/v1/trading/actions", body);
            final String context = "case " + i + " (seed " + SEED + "): " + new String(body, StandardCharsets.ISO_8859_1);
            assertTrue(answer.statusCode() < 500, answer.statusCode() + " " + answer.body() + " for " + context);
            assertTrue(answer.body().startsWith("{\"ok\":false,\"code\":\""), answer.body() + " for " + context);
        }
        stillServingAndUntouched();
    }

    @Test
    void randomPathsAndMethodsGetJsonErrors() throws Exception
    {
        final Random random = new Random(SEED + 1);
        final String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789/-_.%?=&";
        for (int i = 0; i < 200; i++)
        {
            final StringBuilder path = new StringBuilder("/");
            final int length = random.nextInt(40);
            for (int j = 0; j < length; j++)
            {
                path.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            if (i % 4 == 0)
            {
                path.insert(0, "/api/v1");
            }
            final URI uri;
            try
            {
                uri = URI.create(http.baseUrl + path);
            }
            catch (final IllegalArgumentException notAUri)
            {
                continue;
            }
            final HttpResponse<String> answer = http.client.send(HttpRequest.newBuilder(uri)
                .method(i % 2 == 0 ? "GET" : "DELETE", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
            assertTrue(answer.statusCode() == 404 || answer.statusCode() == 405 || answer.statusCode() == 200,
                answer.statusCode() + " for " + path);
            assertTrue(answer.body().startsWith("{\"ok\":"), answer.body());
        }
        stillServingAndUntouched();
    }

    /**
     * Mutated and random bodies on the agent routes and the token route: a 4xx or a decided refusal, never a 5xx or
     * a dropped connection. The intents are signed by a stranger's wallet, so a mutation that still verifies touches no
     * account of the demo.
     */
    @Test
    void mutatedOwnerIntentsAndTokenRequestsAreRefusedCleanly() throws Exception
    {
        final Random random = new Random(SEED + 7);
        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        final long now = System.currentTimeMillis();
        final OwnerRevokeText revoke = OwnerRevokeText.builder().owner(stranger.address()).nonce(5)
            .issuedAtMs(now).chainId(ApplianceContext.DEMO_CHAIN_ID).verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        final String signature = Hex.to0x(new Secp256k1Signer(stranger)
            .sign(Eip191.personalHash(revoke.text()), PreimageMode.RAW));
        final String intent = "{\"userWalletAddress\":\"" + stranger.address() + "\",\"agent\":\"" + stranger.address() +
            "\",\"agentKind\":\"api\",\"scopes\":[\"trade\"],\"policy\":\"\",\"nonce\":5,\"issuedAtMs\":" + now +
            ",\"expiresAtMs\":" + (now + 1000) + ",\"newAgent\":\"" + stranger.address() + "\",\"agentId\":\"spk_0123456789abcdef\"," +
            "\"authorization\":{\"signature\":\"" + signature + "\"},\"signature\":\"" + signature + "\"}";
        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // token texts are taken from then on
        final long issued = System.currentTimeMillis();
        final WsTokenText tokenText = WsTokenText.builder().owner(stranger.address()).nonce(5)
            .issuedAtMs(issued).chainId(ApplianceContext.DEMO_CHAIN_ID).verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        final String token = "{\"account\":\"" + stranger.address() + "\",\"nonce\":5,\"issuedAtMs\":" + issued +
            ",\"signature\":\"" + Hex.to0x(new Secp256k1Signer(stranger)
            .sign(Eip191.personalHash(tokenText.text()), PreimageMode.RAW)) + "\",\"ttlMs\":60000}";
        // the body as signed obtains a token, once
        assertEquals(200, http.post("/api/v1/ws/token", token.getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(400, http.post("/api/v1/ws/token", token.getBytes(StandardCharsets.UTF_8)).statusCode());
        final List<String> routes = List.of("/api/agents/create", "/api/agents/spk_0123456789abcdef/rotate", "/api/agents/revoke",
            "/api/v1/trading/accounts/owner-revoke", "/api/v1/ws/token");
        for (int i = 0; i < 250; i++)
        {
            final String route = routes.get(i % routes.size());
            final byte[] valid = (route.endsWith("token") ? token : intent).getBytes(StandardCharsets.UTF_8);
            final byte[] body = i % 5 == 4 ? randomBytes(random, random.nextInt(300)) : mutate(valid, random);
            final HttpResponse<String> answer = http.post(route, body);
            final String context = route + " case " + i + " (seed " + (SEED + 7) + "): " + new String(body, StandardCharsets.ISO_8859_1);
            assertTrue(answer.statusCode() < 500 || answer.statusCode() == 503, answer.statusCode() + " " + answer.body() + " for " +
                context);
            assertTrue(answer.body().startsWith("{\"ok\":"), answer.body() + " for " + context);
        }
        stillServingAndUntouched();
    }

    /**
     * Mutated and random compact bodies, sent with valid SVC-* headers of an institutional agent over what is sent: a
     * JSON 4xx naming the problem, or orders decided one by one, never a 5xx or a dropped connection. The orders are
     * the demo's, at nonce 2, so whatever a mutation leaves valid never takes nonce 1.
     */
    @Test
    void mutatedCompactOrdersAreRefusedCleanly() throws Exception
    {
        final Random random = new Random(SEED + 13);
        final SvcRequestSigner mm = http.agentCredential(demo, 5, AgentKind.INSTITUTIONAL,
            Scope.QUOTE);
        final ActionSigner signer = new ActionSigner(ApplianceContext.DEMO_CHAIN_ID,
            ApplianceContext.DEMO_CONTRACT, demo);
        long svcNonce = 0;
        for (int i = 0; i < 150; i++)
        {
            final long now = System.currentTimeMillis();
            final byte[] valid = CompactOrders.encode(DemoVenue.SPOT_MARKET, List.of(
                signer.sign(new ActionPayload(demo.address(), 2, null, now, bid()), PreimageMode.RAW),
                signer.sign(new ActionPayload(demo.address(), 3, null, now,
                    new Cancel(new OrderId(new byte[32]))), PreimageMode.RAW)));
            final byte[] body;
            if (i % 5 == 4)
            {
                body = randomBytes(random, random.nextInt(600));
            }
            else if (i % 2 == 0)
            {
                // the length kept, bytes of the orders changed: past the size checks, into the fields
                body = valid.clone();
                for (int changes = 1 + random.nextInt(4); changes > 0; changes--)
                {
                    body[16 + random.nextInt(body.length - 16)] = (byte)random.nextInt(256);
                }
            }
            else
            {
                body = mutate(valid, random);
            }
            final HttpResponse<String> answer = http.svcPost(mm, ++svcNonce, "/api/v1/bsl/orders/compact", body, Map.of());
            final String context = "case " + i + " (seed " + (SEED + 13) + "): " + Hex.to0x(body);
            assertTrue(answer.statusCode() < 500 || answer.statusCode() == 503, answer.statusCode() + " " + answer.body() + " for " +
                context);
            assertTrue(answer.body().startsWith("{\"ok\":"), answer.body() + " for " + context);
        }
        stillServingAndUntouched();
    }

    /** Random SVC-* machine headers on the token route: a JSON 4xx naming the problem, never a 5xx or a dropped connection. */
    @Test
    void randomMachineHeadersGetClearRefusals() throws Exception
    {
        final Random random = new Random(SEED + 11);
        final String[] names = {"SVC-Auth-Version", "SVC-Key", "SVC-Nonce", "SVC-Timestamp", "SVC-Passphrase", "SVC-Signature"};
        final String[] values = {"2", "3", "4", "02", "-1", "spk_0123456789abcdef", "spk_0123456789ABCDEF", "spk_", "18446744073709551615",
            "18446744073709551616", "0", String.valueOf(System.currentTimeMillis()), "spp_" + "0".repeat(32), "0x" + "ab".repeat(32),
            "0x" + "ab".repeat(64), "0x", " 2", "", "\u00e9", "9".repeat(40)};
        for (int i = 0; i < 200; i++)
        {
            final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(http.baseUrl +
                "/api/v1/ws/token")).POST(HttpRequest.BodyPublishers.ofString(i % 3 == 0 ? "" : "{\"ttlMs\":60000}"));
            final StringBuilder context = new StringBuilder("case " + i + ":");
            for (final String name : names)
            {
                if (random.nextInt(5) > 0)
                {
                    final String value = values[random.nextInt(values.length)];
                    try
                    {
                        request.header(name, value);
                        context.append(' ').append(name).append('=').append(value);
                    }
                    catch (final IllegalArgumentException notAHeaderValue)
                    {
                        // the client refuses to send it: nothing to test
                    }
                }
            }
            final HttpResponse<String> answer = http.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(answer.statusCode() >= 400 && answer.statusCode() < 500, answer.statusCode() + " " + answer.body() + " " + context);
            assertTrue(answer.body().startsWith("{\"ok\":false,\"code\":\""), answer.body() + " " + context);
        }
        stillServingAndUntouched();
    }

    /** Every route's prefix and suffix, alone, run together, or with an empty or odd middle: a JSON answer, never a dropped connection. */
    @Test
    void routePrefixesAndSuffixesAloneGetJsonAnswers() throws Exception
    {
        for (final String path : List.of("/api/v1/bsl/accounts/executions", "/api/v1/bsl/accounts//executions",
            "/api/v1/trading/accounts/nonce", "/api/v1/trading/accounts//nonce", "/api/agents//rotate", "/api/agents/rotate",
            "/api/v1/trading/orders/", "/api/v1/trading/actions/", "/api/agents/", "/api/v1/ws/token/",
            "/api/v1/bsl/accounts/0x" + "1".repeat(40) + "/executions/x"))
        {
            for (final String method : List.of("GET", "POST"))
            {
                final HttpResponse<String> answer = http.client.send(HttpRequest.newBuilder(URI.create(http.baseUrl + path))
                    .method(method, HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                assertTrue(answer.statusCode() >= 400 && answer.statusCode() < 500, answer.statusCode() + " " + method + " " + path);
                assertTrue(answer.body().startsWith("{\"ok\":false"), answer.body() + " for " + method + " " + path);
            }
        }
        stillServingAndUntouched();
    }

    @Test
    void rawRequestHeadsNeverBreakTheServer() throws Exception
    {
        final Random random = new Random(SEED + 2);
        final String[] heads = {
            "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST /api/v1/trading/actions HTTP/1.1\r\nContent-Length: 5\r\n\r\n{}",
            "POST /api/v1/trading/actions HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            "POST /api/v1/trading/actions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "GET / HTTP/9.9\r\n\r\n",
            "\u0000\u0001\u0002 / HTTP/1.1\r\n\r\n",
            "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\n" + "X: " + "b".repeat(20_000) + "\r\n\r\n"};
        for (int i = 0; i < 120; i++)
        {
            final byte[] request = i < heads.length ? heads[i].getBytes(StandardCharsets.ISO_8859_1) : i % 2 == 0 ?
                randomBytes(random, 1 + random.nextInt(300)) :
                mutate(heads[random.nextInt(heads.length)].getBytes(StandardCharsets.ISO_8859_1), random);
            final String answer = exchange(request);
            assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 "), "case " + i + ": " + answer);
            if (answer.startsWith("HTTP/1.1 5"))
            {
                throw new AssertionError("case " + i + " got a server error: " + answer);
            }
        }
        stillServingAndUntouched();
    }

    /** Writes the bytes, half-closes, and reads what comes back within a second (empty when the server just closes). */
    private String exchange(final byte[] request) throws Exception
    {
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", appliance.httpPort()), 2_000);
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write(request);
            socket.shutdownOutput();
            final InputStream in = socket.getInputStream();
            final StringBuilder answer = new StringBuilder();
            final byte[] chunk = new byte[4096];
            try
            {
                int read;
                while ((read = in.read(chunk)) > 0)
                {
                    answer.append(new String(chunk, 0, read, StandardCharsets.ISO_8859_1));
                }
            }
            catch (final SocketTimeoutException waitedEnough)
            {
                // a partial request the server still waits on: it answered nothing, which is fine
            }
            catch (final SocketException reset)
            {
                // the server closed a connection that sent garbage
            }
            return answer.toString();
        }
    }

    private void stillServingAndUntouched() throws Exception
    {
        assertEquals(200, http.get("/api/v1/public/exchange-info").statusCode());
        final HttpResponse<String> answer = http.submit(demo, 1, bid());
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().startsWith("{\"ok\":true"), "nonce 1 was still free: " + answer.body());
    }

    private static byte[] randomBytes(final Random random, final int length)
    {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** One to four byte changes, a cut, or a duplicated slice. */
    private static byte[] mutate(final byte[] original, final Random random)
    {
        byte[] bytes = original.clone();
        switch (random.nextInt(3))
        {
            case 0 ->
            {
                final int changes = 1 + random.nextInt(4);
                for (int i = 0; i < changes; i++)
                {
                    final int at = random.nextInt(bytes.length);
                    // never a plain space or tab: whitespace between tokens would leave the same, valid action
                    byte b;
                    do
                    {
                        b = (byte)random.nextInt(256);
                    }
                    while (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == bytes[at]);
                    bytes[at] = b;
                }
            }
            case 1 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
            default ->
            {
                final int from = random.nextInt(bytes.length);
                final int to = from + 1 + random.nextInt(bytes.length - from);
                final byte[] longer = new byte[bytes.length + (to - from)];
                System.arraycopy(bytes, 0, longer, 0, to);
                System.arraycopy(bytes, from, longer, to, bytes.length - from);
                bytes = longer;
            }
        }
        return bytes;
    }
}
