package io.venue.loadgen;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load client against a plain socket peer on loopback, which checks each request's bytes and answers as told. */
class HttpLoadClientTest
{
    private record Request(String head, String body)
    {
        String header(final String name)
        {
            for (final String line : head.split("\r\n"))
            {
                if (line.toLowerCase(Locale.ROOT).startsWith(name.toLowerCase(Locale.ROOT) + ":"))
                {
                    return line.substring(name.length() + 1).trim();
                }
            }
            return null;
        }
    }

    @Test
    void sendsOneRequestAtATimePerConnectionAndReadsEachAnswer() throws Exception
    {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final CompletableFuture<List<Request>> seen = CompletableFuture.supplyAsync(() ->
            {
                try (Socket socket = server.accept())
                {
                    final Request first = read(socket.getInputStream());
                    // the second is not sent before the first is answered
                    socket.setSoTimeout(300);
                    assertTrue(nothingWaits(socket.getInputStream()), "a second request in flight");
                    socket.setSoTimeout(0);
                    answer(socket.getOutputStream(), 200, "{\"ok\":true,\"code\":\"ok\"}");
                    final Request second = read(socket.getInputStream());
                    answer(socket.getOutputStream(), 429, "{\"ok\":false,\"code\":\"rate_limited\"}");
                    return List.of(first, second);
                }
                catch (final IOException ex)
                {
                    throw new AssertionError(ex);
                }
            });
            final List<String> answers = new CopyOnWriteArrayList<>();
            final CountDownLatch done = new CountDownLatch(2);
            try (HttpLoadClient client = new HttpLoadClient(
                "http://127.0.0.1:" + server.getLocalPort() + "/api/v1/trading/actions", 1))
            {
                client.submit(0, "{\"a\":1}".getBytes(StandardCharsets.UTF_8), (status, code, error) ->
                {
                    answers.add(status + " " + code + " " + error);
                    done.countDown();
                });
                client.submit(0, "{\"b\":2}".getBytes(StandardCharsets.UTF_8),
                    Map.of("Content-Type", "application/x-compact",
                    "SVC-Nonce", "7"), (status, code, error) ->
                {
                    answers.add(status + " " + code + " " + error);
                    done.countDown();
                });
                assertTrue(done.await(10, TimeUnit.SECONDS));
            }
            assertEquals(List.of("200 ok null", "429 rate_limited null"), answers);
            final List<Request> requests = seen.get(10, TimeUnit.SECONDS);
            assertTrue(requests.get(0).head().startsWith("POST /api/v1/trading/actions HTTP/1.1\r\n"),
                requests.get(0).head());
            assertEquals("application/json", requests.get(0).header("Content-Type"));
            assertEquals("127.0.0.1:" + server.getLocalPort(), requests.get(0).header("Host"));
            assertEquals("{\"a\":1}", requests.get(0).body());
            assertEquals("application/x-compact", requests.get(1).header("Content-Type"),
                "a given Content-Type replaces JSON's");
            assertEquals("7", requests.get(1).header("SVC-Nonce"));
            assertEquals(1, requests.get(1).head().split("(?i)content-type:").length - 1);
            assertEquals("{\"b\":2}", requests.get(1).body());
        }
    }

    @Test
    void aConnectionClosedByThePeerFailsWhatWaitsOnIt() throws Exception
    {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            CompletableFuture.runAsync(() ->
            {
                try (Socket socket = server.accept())
                {
                    read(socket.getInputStream());
                }
                catch (final IOException ex)
                {
                    throw new AssertionError(ex);
                }
            });
            final List<Throwable> errors = new CopyOnWriteArrayList<>();
            final List<Integer> statuses = new CopyOnWriteArrayList<>();
            final CountDownLatch done = new CountDownLatch(3);
            try (HttpLoadClient client = new HttpLoadClient("http://127.0.0.1:" + server.getLocalPort() + "/x", 1))
            {
                for (int i = 0; i < 2; i++)
                {
                    client.submit(0, new byte[] {'{', '}'}, (status, code, error) ->
                    {
                        statuses.add(status);
                        errors.add(error);
                        done.countDown();
                    });
                }
                assertTrue(waitFor(done, 2));
                // and a request after the close is refused at once
                client.submit(0, new byte[] {'{', '}'}, (status, code, error) ->
                {
                    statuses.add(status);
                    errors.add(error);
                    done.countDown();
                });
                assertTrue(done.await(10, TimeUnit.SECONDS));
            }
            assertEquals(3, errors.size());
            errors.forEach(error -> assertNotNull(error, "every request waiting on a closed connection fails"));
            assertEquals(List.of(0, 0, 0), statuses, "none of them has an HTTP status");
            assertEquals("the connection is closed", errors.get(2).getMessage(),
                "the one after the close is refused as such");
        }
    }

    private static boolean waitFor(final CountDownLatch latch, final int remainingDone) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (latch.getCount() > 3 - remainingDone && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        return latch.getCount() == 3 - remainingDone;
    }

    private static boolean nothingWaits(final InputStream in) throws IOException
    {
        try
        {
            return in.read() < 0;
        }
        catch (final SocketTimeoutException quiet)
        {
            return true;
        }
    }

    private static Request read(final InputStream in) throws IOException
    {
        final ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n"))
        {
            final int b = in.read();
            if (b < 0)
            {
                throw new IOException("closed in a request's head");
            }
            head.write(b);
        }
        final Request request = new Request(head.toString(StandardCharsets.US_ASCII), "");
        final byte[] body = in.readNBytes(Integer.parseInt(request.header("Content-Length")));
        return new Request(request.head(), new String(body, StandardCharsets.UTF_8));
    }

    private static void answer(final OutputStream out, final int status, final String body) throws IOException
    {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " X\r\ncontent-type: application/json\r\ncontent-length: " +
            bytes.length + "\r\n\r\n") .getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
    }
}
