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
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing of the HTTP lane with seeded random input: mutated signed bodies, random bytes, bodies at and past the body
 * limit, random paths and raw request heads on a socket. Every answer is a JSON error below 500 (a body over the limit
 * a 413, one within it never), every raw request well-formed HTTP/1.1 gets one well-formed answer of the class its
 * route gives, the process keeps serving, and nothing reaches an account: afterwards the demo account's nonce 1 is
 * still free.
 * <p>
 * Each run draws its own seed and prints it; {@code -Dvenue.fuzz.seed=N} repeats a run (every failure names the seed).
 */
class HttpFuzzTest
{
    private static final long SEED = seed();
    /** The appliance's default body limit (http.max.body.bytes). */
    private static final int BODY_LIMIT = 512 * 1024;

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

    private static long seed()
    {
        final String fixed = System.getProperty("venue.fuzz.seed", "");
        final long seed = fixed.isEmpty() ? new SecureRandom().nextLong() : Long.parseLong(fixed);
        System.out.println("HttpFuzzTest seed " + seed + " (repeat with -Dvenue.fuzz.seed=" + seed + ")");
        return seed;
    }

    private static SpotPlaceOrder bid()
    {
        return new SpotPlaceOrder(DemoVenue.SPOT_MARKET, null, Side.BID, 49_000 * DemoVenue.UNIT, 10_000, null,
            TimeInForce.GTC, false, false, -1);
    }

    @Test
    void mutatedAndRandomBodiesAreRefusedCleanly() throws Exception
    {
        final Random random = new Random(SEED);
        // signed for nonce 1 but never sent whole: a mutation that still verifies would consume nonce 1
        final byte[] valid = VenueHttp.body(demo, demo.address(), 1, bid(), PreimageMode.RAW);
        for (int i = 0; i < 300; i++)
        {
            final byte[] body = i % 10 == 9 ? nearTheLimit(valid, random) : i % 3 == 0 ?
                randomBytes(random, random.nextInt(600)) :
                mutate(valid, random);
            final HttpResponse<String> answer = http.post("/api/v1/trading/actions", body);
            final String context = "case " + i + " (seed " + SEED + "): " + shown(body);
            assertTrue(answer.statusCode() < 500, answer.statusCode() + " " + answer.body() + " for " + context);
            assertTrue(answer.body().startsWith("{\"ok\":false,\"code\":\""), answer.body() + " for " + context);
            assertSizeDecided(body, answer, context);
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
            .issuedAtMs(now).chainId(ApplianceContext.DEMO_CHAIN_ID)
            .verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        final String signature = Hex.to0x(new Secp256k1Signer(stranger)
            .sign(Eip191.personalHash(revoke.text()), PreimageMode.RAW));
        final String intent = "{\"userWalletAddress\":\"" + stranger.address() + "\",\"agent\":\"" +
            stranger.address() +
            "\",\"agentKind\":\"api\",\"scopes\":[\"trade\"],\"policy\":\"\",\"nonce\":5,\"issuedAtMs\":" + now +
            ",\"expiresAtMs\":" + (now + 1000) + ",\"newAgent\":\"" + stranger.address() +
            "\",\"agentId\":\"spk_0123456789abcdef\"," +
            "\"authorization\":{\"signature\":\"" + signature + "\"},\"signature\":\"" + signature + "\"}";
        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // token texts are taken from then on
        final long issued = System.currentTimeMillis();
        final WsTokenText tokenText = WsTokenText.builder().owner(stranger.address()).nonce(5)
            .issuedAtMs(issued).chainId(ApplianceContext.DEMO_CHAIN_ID)
            .verifyingContract(ApplianceContext.DEMO_CONTRACT).build();
        final String token = "{\"account\":\"" + stranger.address() + "\",\"nonce\":5,\"issuedAtMs\":" + issued +
            ",\"signature\":\"" + Hex.to0x(new Secp256k1Signer(stranger)
            .sign(Eip191.personalHash(tokenText.text()), PreimageMode.RAW)) + "\",\"ttlMs\":60000}";
        // the body as signed obtains a token, once
        assertEquals(200, http.post("/api/v1/ws/token", token.getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(400, http.post("/api/v1/ws/token", token.getBytes(StandardCharsets.UTF_8)).statusCode());
        final List<String> routes = List.of("/api/agents/create", "/api/agents/spk_0123456789abcdef/rotate",
            "/api/agents/revoke", "/api/v1/trading/accounts/owner-revoke", "/api/v1/ws/token");
        for (int i = 0; i < 250; i++)
        {
            final String route = routes.get(i % routes.size());
            final byte[] valid = (route.endsWith("token") ? token : intent).getBytes(StandardCharsets.UTF_8);
            final byte[] body = i % 25 == 24 ? nearTheLimit(valid, random) : i % 5 == 4 ?
                randomBytes(random, random.nextInt(300)) :
                mutate(valid, random);
            final HttpResponse<String> answer = http.post(route, body);
            final String context = route + " case " + i + " (seed " + (SEED + 7) + "): " + shown(body);
            assertTrue(answer.statusCode() < 500 || answer.statusCode() == 503,
                answer.statusCode() + " " + answer.body() + " for " +
                context);
            assertTrue(answer.body().startsWith("{\"ok\":"), answer.body() + " for " + context);
            assertSizeDecided(body, answer, context);
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
            if (i % 15 == 14)
            {
                body = nearTheLimit(valid, random);
            }
            else if (i % 5 == 4)
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
            final HttpResponse<String> answer = http.svcPost(mm, ++svcNonce, "/api/v1/bsl/orders/compact", body,
                Map.of());
            final String context = "case " + i + " (seed " + (SEED + 13) + "): " +
                Hex.to0x(Arrays.copyOf(body, Math.min(body.length, 2_000))) + " (" + body.length + " bytes)";
            assertTrue(answer.statusCode() < 500 || answer.statusCode() == 503,
                answer.statusCode() + " " + answer.body() + " for " +
                context);
            assertTrue(answer.body().startsWith("{\"ok\":"), answer.body() + " for " + context);
            assertSizeDecided(body, answer, context);
        }
        stillServingAndUntouched();
    }

    /**
     * Random SVC-* machine headers on the token route: a JSON 4xx naming the problem, never a 5xx or a
     * dropped connection.
     */
    @Test
    void randomMachineHeadersGetClearRefusals() throws Exception
    {
        final Random random = new Random(SEED + 11);
        final String[] names = {"SVC-Auth-Version", "SVC-Key", "SVC-Nonce", "SVC-Timestamp", "SVC-Passphrase",
            "SVC-Signature"};
        final String[] values = {"2", "3", "4", "02", "-1", "spk_0123456789abcdef", "spk_0123456789ABCDEF", "spk_",
            "18446744073709551615", "18446744073709551616", "0", String.valueOf(System.currentTimeMillis()),
            "spp_" + "0".repeat(32), "0x" + "ab".repeat(32),
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
            assertTrue(answer.statusCode() >= 400 && answer.statusCode() < 500,
                answer.statusCode() + " " + answer.body() + " " + context);
            assertTrue(answer.body().startsWith("{\"ok\":false,\"code\":\""), answer.body() + " " + context);
        }
        stillServingAndUntouched();
    }

    /**
     * Every route's prefix and suffix, alone, run together, or with an empty or odd middle: a JSON answer, never a
     * dropped connection.
     */
    @Test
    void routePrefixesAndSuffixesAloneGetJsonAnswers() throws Exception
    {
        for (final String path : List.of("/api/v1/bsl/accounts/executions", "/api/v1/bsl/accounts//executions",
            "/api/v1/trading/accounts/nonce", "/api/v1/trading/accounts//nonce", "/api/agents//rotate",
            "/api/agents/rotate",
            "/api/v1/trading/orders/", "/api/v1/trading/actions/", "/api/agents/", "/api/v1/ws/token/",
            "/api/v1/bsl/accounts/0x" + "1".repeat(40) + "/executions/x"))
        {
            for (final String method : List.of("GET", "POST"))
            {
                final HttpResponse<String> answer = http.client.send(
                    HttpRequest.newBuilder(URI.create(http.baseUrl + path))
                    .method(method, HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
                assertTrue(answer.statusCode() >= 400 && answer.statusCode() < 500,
                    answer.statusCode() + " " + method + " " + path);
                assertTrue(answer.body().startsWith("{\"ok\":false"), answer.body() + " for " + method + " " + path);
            }
        }
        stillServingAndUntouched();
    }

    /**
     * Raw bytes on a socket, the client half-closing after them: the fixed heads below, random bytes, and mutations of
     * the heads. Each is judged by {@link RawRequest} before it is sent, and every byte the server sends back must be
     * well-formed HTTP/1.1 answers (status line, headers, the body its content-length says), none a 5xx:
     * <ul>
     * <li>a well-formed request (in the strict subset {@link RawRequest} accepts) that is complete gets an answer,
     * never a bare close: 2xx for a GET or HEAD of the exchange info, 4xx for anything else;</li>
     * <li>an incomplete one (its head or its body cut short by the close) may get a 4xx or a close with no answer: the
     * server cannot answer what it has not received whole;</li>
     * <li>a malformed one (outside the subset: a bad request line or header, a Transfer-Encoding, a line or head over
     * the codec's limits, bytes that are not HTTP) may get an answer below 500 or a close with no answer: Netty's
     * decoder skips bytes it cannot take as a request line and closes at the end of the input without a request to
     * answer.</li>
     * </ul>
     */
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
        for (int i = 0; i < 150; i++)
        {
            final byte[] request = i < heads.length ? heads[i].getBytes(StandardCharsets.ISO_8859_1) : i % 3 == 0 ?
                randomBytes(random, 1 + random.nextInt(300)) : i % 3 == 1 ? wellFormed(random) :
                mutate(heads[random.nextInt(heads.length)].getBytes(StandardCharsets.ISO_8859_1), random);
            final RawRequest judged = RawRequest.judge(request);
            if (i >= heads.length && i % 3 == 1)
            {
                assertEquals(RawRequest.Kind.WELL_FORMED, judged.kind(),
                    "the generator's request judged " + judged + ": " +
                    shown(request));
            }
            // the answer to a HEAD has no body, whatever else the request holds
            final boolean headRequest = new String(request, StandardCharsets.ISO_8859_1).startsWith("HEAD ");
            final String answer = exchange(request, judged.kind() == RawRequest.Kind.WELL_FORMED, headRequest);
            final String context = "case " + i + " (seed " + (SEED + 2) + "), " + judged + ": " +
                shown(request).replace("\r", "\\r").replace("\n", "\\n") + "\nanswered: " + answer;
            final List<Integer> statuses = answers(answer, headRequest, context);
            assertTrue(statuses.stream().allMatch(status -> status < 500), "a server error for " + context);
            switch (judged.kind())
            {
                case WELL_FORMED ->
                {
                    assertTrue(!statuses.isEmpty(), "no answer for " + context);
                    assertEquals(judged.expectedClass(), statuses.get(0) / 100, "the status class for " + context);
                }
                case INCOMPLETE -> assertTrue(statuses.isEmpty() || statuses.get(0) / 100 == 4,
                    "not a 4xx for " + context);
                default ->
                {
                    // malformed: any answer below 500 (checked above), or none
                }
            }
        }
        stillServingAndUntouched();
    }

    /**
     * A well-formed request of a random method to one of a few routes (the exchange info, the submit route, an order's
     * status, unknown paths), with random extra headers and, for a method that sends one, a random printable body.
     */
    private static byte[] wellFormed(final Random random)
    {
        final String[] methods = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"};
        final String[] paths = {"/api/v1/public/exchange-info", "/api/v1/public/exchange-info?x=1&y",
            "/api/v1/trading/actions", "/api/v1/trading/orders/0x" + "ab".repeat(random.nextInt(40)), "/",
            "/api/v1/" + Long.toString(random.nextLong() >>> 1, 36)};
        final String method = methods[random.nextInt(methods.length)];
        final StringBuilder request = new StringBuilder(method).append(' ').append(paths[random.nextInt(paths.length)])
            .append(" HTTP/1.1\r\n");
        if (random.nextInt(4) > 0)
        {
            request.append("Host: venue.example\r\n");
        }
        for (int headers = random.nextInt(4); headers > 0; headers--)
        {
            request.append("X-").append(Long.toString(random.nextLong() >>> 1, 36)).append(": ")
                .append(printable(random, random.nextInt(60))).append("\r\n");
        }
        final String body = method.startsWith("P") ? printable(random, random.nextInt(200)) : "";
        if (!body.isEmpty() || random.nextBoolean())
        {
            request.append("Content-Length: ").append(body.length()).append("\r\n");
        }
        return request.append("\r\n").append(body).toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Visible ASCII with spaces inside, never at either end. */
    private static String printable(final Random random, final int length)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++)
        {
            text.append((char)(i == 0 || i == length - 1 ? 0x21 + random.nextInt(94) : 0x20 + random.nextInt(95)));
        }
        return text.toString();
    }

    /**
     * The statuses of the answers in {@code text}, which must be nothing but well-formed HTTP/1.1 answers one after the
     * other: a status line, header lines, an empty line, then as many bytes as content-length says (none for the answer
     * to a HEAD, the first request being {@code headRequest}).
     */
    private static List<Integer> answers(final String text, final boolean headRequest, final String context)
    {
        final Pattern statusLine = Pattern.compile("HTTP/1\\.1 ([1-5]\\d\\d) [\\x20-\\x7e]*\r\n");
        final Pattern header = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+): ?([\\x20-\\x7e]*)\r\n");
        final List<Integer> statuses = new ArrayList<>();
        int at = 0;
        while (at < text.length())
        {
            final Matcher status = statusLine.matcher(text).region(at, text.length());
            assertTrue(status.lookingAt(), "not a status line at " + at + " for " + context);
            statuses.add(Integer.parseInt(status.group(1)));
            at = status.end();
            long contentLength = -1;
            final Matcher line = header.matcher(text);
            while (!text.startsWith("\r\n", at))
            {
                assertTrue(line.region(at, text.length()).lookingAt(),
                    "not a header line at " + at + " for " + context);
                if (line.group(1).equalsIgnoreCase("content-length"))
                {
                    assertEquals(-1, contentLength, "two content-lengths for " + context);
                    contentLength = Long.parseLong(line.group(2).trim());
                }
                at = line.end();
            }
            at += 2;
            assertTrue(contentLength >= 0, "an answer without content-length for " + context);
            if (!(headRequest && statuses.size() == 1))
            {
                assertTrue(at + contentLength <= text.length(), "an answer's body cut short for " + context);
                at += (int)contentLength;
            }
        }
        return statuses;
    }

    /**
     * What the server may answer to raw request bytes, judged by a strict subset of HTTP/1.1 (RFC 9112): a request line
     * of an upper-case method, an origin-form target of visible characters and HTTP/1.1, within the codec's 4,096
     * bytes; header lines of a token, a colon and visible characters, the head within the codec's 8,192 bytes; at most
     * one Content-Length of digits and no Transfer-Encoding; then the body. Every line ends CRLF.
     */
    private record RawRequest(Kind kind, int expectedClass, String why)
    {
        enum Kind
        {
            WELL_FORMED, INCOMPLETE, MALFORMED
        }

        private static final Pattern REQUEST_LINE =
            Pattern.compile("([A-Z]+) (/[\\x21-\\x7e]*) HTTP/1\\.1");
        private static final Pattern HEADER = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+):([\\x20-\\x7e\t]*)");

        static RawRequest judge(final byte[] bytes)
        {
            final String text = new String(bytes, StandardCharsets.ISO_8859_1);
            final int lineEnd = text.indexOf("\r\n");
            final String requestLine = lineEnd < 0 ? text : text.substring(0, lineEnd);
            final Matcher request = REQUEST_LINE.matcher(requestLine);
            if (requestLine.length() > 4_000 || (lineEnd >= 0 || !couldStartARequest(text)) && !request.matches())
            {
                return malformed("the request line");
            }
            if (lineEnd < 0)
            {
                return new RawRequest(Kind.INCOMPLETE, 0, "the request line cut short");
            }
            final int headEnd = text.indexOf("\r\n\r\n");
            final String headers = headEnd < 0 ? text.substring(lineEnd + 2) : text.substring(lineEnd + 2, headEnd + 2);
            long contentLength = 0;
            boolean hasLength = false;
            int at = 0;
            while (at < headers.length())
            {
                final int end = headers.indexOf("\r\n", at);
                final String field = end < 0 ? headers.substring(at) : headers.substring(at, end);
                final Matcher matched = HEADER.matcher(field);
                if (end >= 0 && !matched.matches() || end < 0 && !HEADER.matcher(field).lookingAt() && !field.isEmpty())
                {
                    return malformed("a header line");
                }
                if (end >= 0)
                {
                    final String name = matched.group(1);
                    final String value = matched.group(2).trim();
                    if (name.equalsIgnoreCase("transfer-encoding"))
                    {
                        return malformed("a Transfer-Encoding");
                    }
                    if (name.equalsIgnoreCase("content-length"))
                    {
                        if (hasLength || !value.matches("\\d{1,9}"))
                        {
                            return malformed("the Content-Length");
                        }
                        hasLength = true;
                        contentLength = Long.parseLong(value);
                    }
                }
                at = end < 0 ? headers.length() : end + 2;
            }
            if (headEnd >= 0 && headEnd + 4 > 8_000)
            {
                return malformed("a head over the codec's limit");
            }
            if (headEnd < 0)
            {
                return text.length() > 8_000 ? malformed("a head over the codec's limit") :
                    new RawRequest(Kind.INCOMPLETE, 0, "the head cut short");
            }
            if (text.length() - (headEnd + 4) < contentLength)
            {
                return new RawRequest(Kind.INCOMPLETE, 0, "the body cut short");
            }
            final String method = request.group(1);
            final String target = request.group(2);
            final int query = target.indexOf('?');
            final String path = query < 0 ? target : target.substring(0, query);
            final boolean read = method.equals("GET") || method.equals("HEAD");
            return new RawRequest(Kind.WELL_FORMED,
                read && "/api/v1/public/exchange-info".equals(decoded(path)) ? 2 : 4,
                method + " " + path);
        }

        private static RawRequest malformed(final String why)
        {
            return new RawRequest(Kind.MALFORMED, 0, why);
        }

        /** Whether bytes with no line end yet could still become a request line. */
        private static boolean couldStartARequest(final String text)
        {
            return text.matches("[A-Z]*( (/[\\x21-\\x7e]*( (H(T(T(P(/(1(\\.(1)?)?)?)?)?)?)?)?)?)?)?");
        }

        /** The path with its %XX escapes decoded, or null when one does not decode (the server answers 400). */
        private static String decoded(final String path)
        {
            try
            {
                return URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
            }
            catch (final IllegalArgumentException notAnEscape)
            {
                return null;
            }
        }

        @Override
        public String toString()
        {
            return kind + " (" + why + ")";
        }
    }

    /**
     * Writes the bytes and reads what comes back. For a well-formed request ({@code firstAnswer}) it keeps its side
     * open and returns the first answer once it is whole (a submit is answered only once journaled, and a connection
     * whose input ends is closed at once, its pending answers with it); otherwise it half-closes and returns all that
     * comes within a second (empty when the server just closes).
     */
    private String exchange(final byte[] request, final boolean firstAnswer, final boolean headRequest) throws Exception
    {
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", appliance.httpPort()), 2_000);
            socket.setSoTimeout(firstAnswer ? 10_000 : 1_000);
            socket.getOutputStream().write(request);
            if (!firstAnswer)
            {
                socket.shutdownOutput();
            }
            final InputStream in = socket.getInputStream();
            final StringBuilder answer = new StringBuilder();
            final byte[] chunk = new byte[4096];
            try
            {
                int read;
                while ((read = in.read(chunk)) > 0)
                {
                    answer.append(new String(chunk, 0, read, StandardCharsets.ISO_8859_1));
                    final int end = firstAnswer ? firstAnswerEnd(answer, headRequest) : -1;
                    if (end >= 0)
                    {
                        return answer.substring(0, end);
                    }
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

    /** Where the first answer in {@code text} ends, or -1 while it is not whole yet. */
    private static int firstAnswerEnd(final CharSequence text, final boolean headRequest)
    {
        final String received = text.toString();
        final int headEnd = received.indexOf("\r\n\r\n");
        if (headEnd < 0)
        {
            return -1;
        }
        final Matcher length = Pattern.compile("(?i)\r\ncontent-length: *(\\d+)\r\n")
            .matcher(received.substring(0, headEnd + 2));
        final long bodyLength = headRequest || !length.find() ? 0 : Long.parseLong(length.group(1));
        return received.length() >= headEnd + 4 + bodyLength ? (int)(headEnd + 4 + bodyLength) : -1;
    }

    private void stillServingAndUntouched() throws Exception
    {
        assertEquals(200, http.get("/api/v1/public/exchange-info").statusCode());
        final HttpResponse<String> answer = http.submit(demo, 1, bid());
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().startsWith("{\"ok\":true"), "nonce 1 was still free: " + answer.body());
    }

    /**
     * A body within 4 KiB of the body limit, on either side of it or at it exactly: random bytes, a mutated valid body
     * padded with spaces, or one JSON string that long (so a decoder reads to the end).
     */
    private static byte[] nearTheLimit(final byte[] valid, final Random random)
    {
        final int pick = random.nextInt(8);
        final int length = pick == 0 ? BODY_LIMIT : pick == 1 ? BODY_LIMIT + 1 :
            BODY_LIMIT - 4_096 + random.nextInt(8_193);
        final byte[] body = new byte[length];
        switch (random.nextInt(3))
        {
            case 0 -> random.nextBytes(body);
            case 1 ->
            {
                final byte[] mutated = mutate(valid, random);
                Arrays.fill(body, (byte)' ');
                System.arraycopy(mutated, 0, body, 0, Math.min(mutated.length, length));
            }
            default ->
            {
                Arrays.fill(body, (byte)'a');
                final byte[] open = "{\"payload\":\"".getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(open, 0, body, 0, open.length);
                body[length - 2] = '"';
                body[length - 1] = '}';
            }
        }
        return body;
    }

    /** A body over the limit is refused as too large (413) whatever it holds; one within it never is. */
    private static void assertSizeDecided(final byte[] body, final HttpResponse<String> answer, final String context)
    {
        if (body.length > BODY_LIMIT)
        {
            assertEquals(413, answer.statusCode(), answer.body() + " for " + context);
            assertTrue(answer.body().startsWith("{\"ok\":false,\"code\":\"BODY_TOO_LARGE\""),
                answer.body() + " for " + context);
        }
        else
        {
            assertTrue(answer.statusCode() != 413, answer.body() + " for " + context);
        }
    }

    /** A body as text for a failure message: its first 2,000 characters and its length. */
    private static String shown(final byte[] body)
    {
        return new String(body, 0, Math.min(body.length, 2_000), StandardCharsets.ISO_8859_1) + " (" +
            body.length + " bytes)";
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
