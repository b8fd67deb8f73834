package io.venue.transport.http;

import io.venue.entry.Answer;
import io.venue.entry.EntryCore;
import io.venue.entry.PendingRequests;
import io.venue.entry.PreJournalRefusals;
import io.venue.entry.admission.EdgeThrottle;
import io.venue.journal.sbe.RequestRejectReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway on loopback with Java's HttpClient, its submitter and answers driven by the test: an answer handed to
 * {@link PendingRequests} reaches the client with its headers, a full queue is 503, and a submit nobody answers
 * gets 504 after the configured time.
 */
class HttpGatewayTest
{
    private final ConcurrentLinkedQueue<Long> offered = new ConcurrentLinkedQueue<>();
    /** How many times the gateway has read the exchange info: a GET of it has been handled. */
    private final AtomicInteger infoReads = new AtomicInteger();
    private final PendingRequests pending = new PendingRequests(0);
    private final PreJournalRefusals refusals = new PreJournalRefusals(64 * 1024);
    private boolean accepting = true;
    private volatile long backlog;
    private EdgeThrottle throttle;
    private HttpGateway gateway;
    private final HttpClient client = HttpClient.newHttpClient();

    private void start(final long timeoutMs)
    {
        final EntryCore entry = new EntryCore(new EntryCore.Context().answerTimeoutMs(timeoutMs)
            .submitter((prebatched, connection, correlation, body, offset, length) ->
            {
                if (accepting)
                {
                    offered.add(correlation);
                }
                return accepting;
            })
            .pending(pending).refusals(refusals).shardBusyAbove(5, () -> backlog).edgeThrottle(throttle));
        gateway = HttpGateway.start(new HttpGateway.Context().port(0).entry(entry)
            .exchangeInfo(() ->
            {
                infoReads.incrementAndGet();
                return "{}";
            }).connectivity(() -> "{}").actionStatus(digest -> null).nonceStatus(account -> "{}"));
    }

    @AfterEach
    void stop()
    {
        if (gateway != null)
        {
            gateway.close();
        }
    }

    private HttpResponse<String> submit() throws Exception
    {
        return client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/trading/actions"))
            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void awaitOffered()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (offered.isEmpty())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("no submit reached the submitter within 10 s");
            }
            Thread.onSpinWait();
        }
    }

    /** Waits until the gateway has handled {@code count} GETs of the exchange info. */
    private void awaitInfoReads(final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (infoReads.get() < count)
        {
            assertTrue(System.nanoTime() - deadline < 0,
                "the exchange info was read " + infoReads.get() + " times in 10 s, not " + count);
            Thread.sleep(1);
        }
    }

    /** Sends {@code requests} on a new connection and reads every answer until the gateway closes it. */
    private String exchange(final String requests) throws IOException
    {
        try (Socket socket = new Socket("127.0.0.1", gateway.port()))
        {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
            return readToClose(socket);
        }
    }

    private static String readToClose(final Socket socket) throws IOException
    {
        return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    }

    /** Journals the first request offered as sequence 1 and answers it ok. */
    private void answerFirstOffered()
    {
        pending.onSequenced(offered.poll(), 1);
        pending.complete(1, new Answer.Builder().accepted(1, 0).digest(new byte[32]).build());
    }

    @Test
    void anAnswerReachesItsRequestWithTheLimiterHeaders() throws Exception
    {
        start(10_000);
        final Thread responder = new Thread(() ->
        {
            awaitOffered();
            pending.onSequenced(offered.poll(), 1);
            pending.complete(1, new Answer.Builder().accepted(1, 0).digest(new byte[32]).rate(50, 49, 20).build());
        });
        responder.start();
        final HttpResponse<String> answer = submit();
        responder.join();
        assertEquals(200, answer.statusCode());
        assertEquals(
            "{\"ok\":true,\"sequence\":1,\"digest\":\"0x" + "0".repeat(64) + "\",\"trades\":0}", answer.body());
        assertEquals("49", answer.headers().firstValue("x-ratelimit-remaining").orElse(null));
        assertEquals("20", answer.headers().firstValue("x-ratelimit-reset-ms").orElse(null));
        assertTrue(answer.headers().firstValue("date").isPresent());
        assertEquals(0, pending.waiting());
    }

    @Test
    void pipelinedRequestsAreAnsweredInTheirOrder() throws Exception
    {
        start(10_000);
        try (Socket socket = new Socket("127.0.0.1", gateway.port()))
        {
            socket.setSoTimeout(5_000);
            // a submit and a read sent together: the read is ready first, but its answer must come second
            socket.getOutputStream()
                .write(("POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}" +
                "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            awaitOffered();
            // the read's answer is ready before the submit's
            awaitInfoReads(1);
            answerFirstOffered();
            final InputStream in = socket.getInputStream();
            final StringBuilder text = new StringBuilder();
            final byte[] chunk = new byte[4096];
            while (text.indexOf("{}") < 0)
            {
                final int read = in.read(chunk);
                if (read < 0)
                {
                    break;
                }
                text.append(new String(chunk, 0, read, StandardCharsets.US_ASCII));
            }
            final int submitAnswer = text.indexOf("{\"ok\":true,\"sequence\":1,");
            final int readAnswer = text.lastIndexOf("{}");
            assertTrue(submitAnswer > 0 && readAnswer > submitAnswer, text.toString());
        }
    }

    @Test
    void headAnswersAsGetWithoutTheBodyAndTheAbsoluteFormIsItsPath() throws Exception
    {
        start(10_000);
        final String text = exchange("HEAD /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\n\r\n" +
            "GET HTTP://127.0.0.1:" + gateway.port() + "/api/v1/public/exchange-info?x=1 HTTP/1.1\r\nHost: x\r\n\r\n" +
            "HEAD /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\n\r\n" +
            "POST /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        final String[] answers = text.split("(?=HTTP/1\\.1 )");
        assertEquals(4, answers.length, text);
        assertTrue(answers[0].startsWith("HTTP/1.1 200") && answers[0].contains("content-length: 2\r\n") &&
            answers[0].endsWith("\r\n\r\n"), "HEAD: GET's headers, no body: " + answers[0]);
        assertTrue(answers[1].startsWith("HTTP/1.1 200") && answers[1].endsWith("\r\n\r\n{}"), answers[1]);
        assertTrue(answers[2].startsWith("HTTP/1.1 405") && answers[2].contains("allow: POST\r\n"), answers[2]);
        assertTrue(answers[3].startsWith("HTTP/1.1 405") && answers[3].contains("allow: GET, HEAD\r\n"), answers[3]);
    }

    @Test
    void theOriginFormOfAnyAbsoluteTargetIsItsPathAndQuery()
    {
        final SplittableRandom random = new SplittableRandom(11);
        final String chars = "abz09-._~%/?=&:@!$'()*+,;";
        for (int i = 0; i < 10_000; i++)
        {
            final StringBuilder rest = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--)
            {
                rest.append(chars.charAt(random.nextInt(chars.length())));
            }
            final String origin = "/" + rest;
            assertEquals(origin, Routes.originForm(origin), "an origin form is left as it is");
            final String host = random.nextBoolean() ? "venue.example:8080" : "127.0.0.1";
            final String scheme = random.nextBoolean() ? "http://" : "HTTPS://";
            assertEquals(origin, Routes.originForm(scheme + host + origin));
            final String query = "?" + rest.toString().replace("/", "").replace("?", "");
            assertEquals("/" + query, Routes.originForm(scheme + host + query), "an empty path is /");
        }
        assertEquals("/", Routes.originForm("http://host"));
        assertEquals("*", Routes.originForm("*"));
    }

    @Test
    void requestsAfterAClosingAnswerAreNotExecuted() throws Exception
    {
        start(10_000);
        final String text = exchange(
            "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" +
            "POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
        assertTrue(text.startsWith("HTTP/1.1 200") && text.indexOf("HTTP/1.1", 5) < 0,
            "one answer, then closed: " + text);
        // both were read together: a submit wrongly taken after the closing answer would be offered at once (this
        // window lets that mistake show)
        Thread.sleep(100);
        assertTrue(offered.isEmpty(), "the submit after the closing answer was never offered");
    }

    @Test
    void requestsReadAfterAClosingRequestAreNotExecutedWhileAnEarlierAnswerWaits() throws Exception
    {
        start(10_000);
        try (Socket socket = new Socket("127.0.0.1", gateway.port()))
        {
            socket.setSoTimeout(5_000);
            final String submit = "POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
            socket.getOutputStream()
                .write((submit + "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" +
                submit).getBytes(StandardCharsets.US_ASCII));
            awaitOffered();
            // all three are read while the first waits for its answer: the closing read is handled, and the submit
            // after it would be offered at once (a window for that mistake to show)
            awaitInfoReads(1);
            Thread.sleep(100);
            assertEquals(1, offered.size(), "only the submit before the closing request was offered");
            answerFirstOffered();
            final String text = readToClose(socket);
            assertEquals(2, text.split("HTTP/1.1 ", -1).length - 1, "two answers, then closed: " + text);
        }
    }

    @Test
    void aFullQueueIs503WithRetryAfter() throws Exception
    {
        start(10_000);
        accepting = false;
        final HttpResponse<String> answer = submit();
        assertEquals(503, answer.statusCode());
        assertTrue(answer.body().contains("\"code\":\"QUEUE_LIMIT\""), answer.body());
        assertEquals("1", answer.headers().firstValue("retry-after").orElse(null));
        assertEquals(0, pending.waiting(), "nothing left registered");
        final StringBuilder journaled = new StringBuilder();
        refusals.poll(
            (connection, correlation, reason, detail) -> journaled.append(reason).append(' ').append(detail), 10);
        assertEquals(RequestRejectReason.QUEUE_LIMIT.value() + " the verifier queue is full", journaled.toString(),
            "the refusal goes to be journaled");
    }

    @Test
    void aShardFarBehindTheJournalRefusesEarlyWithShardBusy() throws Exception
    {
        start(10_000);
        accepting = false; // were it offered, the answer would be QUEUE_LIMIT
        backlog = 6;
        final HttpResponse<String> busy = submit();
        assertEquals(503, busy.statusCode());
        assertTrue(busy.body().contains("\"code\":\"SHARD_BUSY\""), busy.body());
        assertEquals("1", busy.headers().firstValue("retry-after").orElse(null));
        final StringBuilder journaled = new StringBuilder();
        refusals.poll(
            (connection, correlation, reason, detail) -> journaled.append(reason).append(' ').append(detail), 10);
        assertEquals(RequestRejectReason.SHARD_BUSY.value() + " the shard is 6 commands behind the journal",
            journaled.toString());
        backlog = 5;
        assertTrue(submit().body().contains("\"code\":\"QUEUE_LIMIT\""),
            "at the threshold the request goes on to the pool");
    }

    @Test
    void aBodyOverTheLimitIs413AndGoesToBeJournaled() throws Exception
    {
        start(10_000);
        final HttpResponse<String> answer = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/trading/actions"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[513 * 1024])).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(413, answer.statusCode());
        assertTrue(offered.isEmpty(), "never offered for verification");
        final StringBuilder journaled = new StringBuilder();
        refusals.poll(
            (connection, correlation, reason, detail) -> journaled.append(reason).append(' ').append(detail), 10);
        assertEquals(RequestRejectReason.BODY_TOO_LARGE.value() + " a body over 524288 bytes on " +
            "/api/v1/trading/actions", journaled.toString());
    }

    @Test
    void oversizedSubmitsPassTheEdgeThrottleAndOnlyWritesAreJournaled() throws Exception
    {
        // the throttle's clock stands still: no token comes back while the ten are sent, however long that takes
        final long now = System.nanoTime();
        throttle = new EdgeThrottle(1, 5, Set.of(), () -> now);
        start(10_000);
        final List<Integer> statuses = new ArrayList<>();
        for (final String target : List.of("POST /api/v1/trading/actions",
            "GET /api/v1/trading/actions/0x" + "ab".repeat(32)))
        {
            for (int i = 0; i < (target.startsWith("POST") ? 10 : 1); i++)
            {
                final String answer = exchange(
                    target + " HTTP/1.1\r\nHost: x\r\nContent-Length: 600000\r\nConnection: close\r\n\r\n");
                statuses.add(Integer.parseInt(answer.substring(9, 12)));
            }
        }
        // a burst of 5, then one a second
        final long passed = statuses.subList(0, 10).stream().filter(status -> status == 413).count();
        assertEquals(5, passed, statuses.toString());
        assertEquals(10 - passed, statuses.subList(0, 10).stream().filter(status -> status == 429).count(),
            statuses.toString());
        assertEquals(413, statuses.get(10), "a read over the limit is refused too: " + statuses);
        final List<Integer> reasons = new ArrayList<>();
        refusals.poll((connection, correlation, reason, detail) -> reasons.add(reason), 100);
        assertEquals(passed, reasons.stream().filter(reason -> reason == RequestRejectReason.BODY_TOO_LARGE.value())
            .count(), "only the oversized submits the throttle let through are journaled as such: " + reasons);
    }

    @Test
    void anExpectationIsAnsweredInItsTurnAndAnnouncedOversizeIsJournaled() throws Exception
    {
        start(10_000);
        final StringBuilder journaled = new StringBuilder();
        try (Socket socket = new Socket("127.0.0.1", gateway.port()))
        {
            socket.setSoTimeout(5_000);
            socket.getOutputStream()
                .write(("POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}" +
                "GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n" +
                "POST /api/v1/trading/actions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " +
                "600000\r\n" + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            awaitOffered();
            // the two after it are handled while it waits: the read, and the oversized submit's refusal goes to
            // be journaled
            awaitInfoReads(1);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (refusals.poll(
                (connection, correlation, reason, detail) -> journaled.append(reason).append(' ').append(detail), 10) ==
                0)
            {
                assertTrue(System.nanoTime() - deadline < 0, "the oversized submit was not refused within 10 s");
                Thread.sleep(1);
            }
            answerFirstOffered();
            final String text = readToClose(socket);
            final int first = text.indexOf("HTTP/1.1 200");
            final int second = text.indexOf("HTTP/1.1 200", first + 1);
            final int third = text.indexOf("HTTP/1.1 413");
            assertTrue(first == 0 && text.indexOf("{\"ok\":true,\"sequence\":1}") < second && second < third, text);
        }
        refusals.poll(
            (connection, correlation, reason, detail) -> journaled.append(reason).append(' ').append(detail), 10);
        assertEquals(RequestRejectReason.BODY_TOO_LARGE.value() + " a body over 524288 bytes on " +
            "/api/v1/trading/actions", journaled.toString());
    }

    @Test
    void aSubmitNobodyAnswersTimesOutWith504AndALateAnswerIsDropped() throws Exception
    {
        start(300);
        final long start = System.nanoTime();
        final HttpResponse<String> answer = submit();
        final long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(504, answer.statusCode());
        assertTrue(answer.body().contains("\"code\":\"TIMEOUT\""), answer.body());
        assertTrue(answer.body().contains("GET /api/v1/trading/actions/{digest}"), answer.body());
        assertTrue(waitedMs >= 300, "not before the deadline: " + waitedMs);
        // the decision arrives late: nothing more is written on the connection, and the entry is gone
        pending.onSequenced(offered.poll(), 1);
        pending.complete(1, new Answer.Builder().accepted(1, 0).build());
        assertEquals(0, pending.waiting());
        assertEquals(404,
            client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/x")).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode(), "the connection still serves");
        try (Socket socket = new Socket("127.0.0.1", gateway.port()))
        {
            socket.setSoTimeout(5_000);
            socket.getOutputStream()
                .write("GET /api/%zz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            final byte[] statusLine = new byte[12];
            assertEquals(12, socket.getInputStream().readNBytes(statusLine, 0, 12));
            assertEquals("HTTP/1.1 400", new String(statusLine, StandardCharsets.US_ASCII),
                "a path that does not decode is a 400, not a dropped connection");
        }
        final HttpResponse<String> wrongMethod = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/trading/actions")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(405, wrongMethod.statusCode());
        assertEquals("POST", wrongMethod.headers().firstValue("allow").orElse(null));
    }
}
