package io.venue.transport.ws;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The limits of spec 6 and 8.3 on loopback: subscriptions, markets and control messages close 4409; a message over
 * the inbound limit 1009, a binary one 1003; a busy feed is an error that changes nothing; a client that stops reading
 * is warned, then closed 4408, while another keeps receiving every frame.
 */
class WsLimitsTest
{
    private WsFixture fixture;

    @AfterEach
    void close() throws Exception
    {
        fixture.close();
    }

    private static String subscribe(final int id, final String... channels)
    {
        return "{\"method\":\"subscribe\",\"id\":" + id + ",\"channels\":[\"" + String.join("\",\"", channels) +
            "\"]}";
    }

    @Test
    void oneSubscriptionOverTheLimitCloses4409() throws Exception
    {
        fixture = new WsFixture(ws -> ws.subscriptions(3, 16));
        final WsClient client = fixture.connectPublic();
        client.send(subscribe(1, "book.1", "book.2"));
        client.await(m -> m.contains("\"id\":1"));
        client.send(subscribe(2, "book.1", "book.3"));
        client.await(m -> m.contains("\"id\":2"));
        client.send(subscribe(3, "book.4"));
        assertEquals("4409 LIMIT_EXCEEDED", client.awaitClose());
        assertTrue(client.messages.stream().anyMatch(m -> m.contains("over 3 subscriptions")),
            client.messages.toString());
        assertEquals(2, fixture.feed.requests.size(), "the one over the limit never reached the feed");
        assertEquals(1, fixture.ws.counters().closes(WsCloses.LIMIT_EXCEEDED));
    }

    @Test
    void unsubscribingAndRefusedChannelsGiveTheirPlaceBack() throws Exception
    {
        fixture = new WsFixture(ws -> ws.subscriptions(2, 16));
        final WsClient client = fixture.connectPublic();
        client.send(subscribe(1, "book.1", "book.2"));
        client.await(m -> m.contains("\"id\":1"));
        client.send("{\"method\":\"unsubscribe\",\"id\":2,\"channels\":[\"book.2\"]}");
        client.await(m -> m.contains("\"id\":2"));
        client.send(subscribe(3, "unknown.9"));
        assertTrue(client.await(m -> m.contains("\"id\":3")).contains("UNKNOWN_CHANNEL"));
        client.send(subscribe(4, "book.3"));
        assertTrue(client.await(m -> m.contains("\"id\":4")).contains("\"type\":\"ack\""));
        assertFalse(client.closed.isDone());
    }

    @Test
    void marketsOverThePublicLimitClose4409ButNotOnPrivate() throws Exception
    {
        fixture = new WsFixture(ws -> ws.subscriptions(32, 2));
        final WsClient client = fixture.connectPublic();
        client.send(subscribe(1, "book.1", "book.1.YES", "trades.1.NO", "bbo.2", "status"));
        client.await(m -> m.contains("\"id\":1"));
        client.send(subscribe(2, "trades.3"));
        assertEquals("4409 LIMIT_EXCEEDED", client.awaitClose());
        assertTrue(client.messages.stream().anyMatch(m -> m.contains("over 2 markets")));
        final WsClient privateClient = fixture.connectPrivate();
        privateClient.send(subscribe(2, "book.1", "book.2", "book.3", "fills"));
        assertTrue(privateClient.await(m -> m.contains("\"id\":2")).contains("\"type\":\"ack\""));
    }

    @Test
    void controlMessagesOverTheWindowClose4409() throws Exception
    {
        fixture = new WsFixture(ws -> ws.controlMessages(5, 60_000));
        final WsClient client = fixture.connectPublic();
        for (int i = 1; i <= 5; i++)
        {
            client.send("{\"method\":\"ping\",\"id\":" + i + "}");
            final int id = i;
            client.await(m -> m.contains("\"id\":" + id));
        }
        client.send("{\"method\":\"ping\",\"id\":6}");
        assertEquals("4409 LIMIT_EXCEEDED", client.awaitClose());
        assertTrue(client.messages.stream().noneMatch(m -> m.contains("\"id\":6")));
    }

    @Test
    void aBusyFeedIsAnErrorThatChangesNothing() throws Exception
    {
        fixture = new WsFixture(ws -> ws.subscriptions(2, 16));
        final WsClient client = fixture.connectPublic();
        fixture.feed.busy.set(true);
        for (int i = 1; i <= 3; i++)
        {
            client.send(subscribe(i, "book.1", "book.2"));
            final int id = i;
            final String error = client.await(m -> m.contains("\"id\":" + id));
            assertTrue(error.contains("\"type\":\"error\"") && error.contains("FEED_BUSY"), error);
        }
        fixture.feed.busy.set(false);
        client.send(subscribe(4, "book.1", "book.2"));
        assertTrue(client.await(m -> m.contains("\"id\":4")).contains("\"type\":\"ack\""), "no place was taken");
    }

    @Test
    void aMessageOverTheLimitCloses1009EvenInFragments() throws Exception
    {
        fixture = new WsFixture(ws -> ws.maxInboundBytes(1_024));
        final WsClient whole = fixture.connectPublic();
        whole.next();
        whole.send("{\"method\":\"ping\",\"id\":1,\"pad\":\"" + "x".repeat(1_100) + "\"}");
        assertEquals("1009 MESSAGE_TOO_BIG", whole.awaitClose());
        assertTrue(whole.messages.stream().anyMatch(m -> m.contains("\"code\":\"MESSAGE_TOO_BIG\"")));

        final RawWs fragments = fixture.raw(0);
        assertTrue(fragments.upgrade(WsGateway.PUBLIC_PATH, "").startsWith("HTTP/1.1 101"));
        fragments.read();
        // a message within the limit in three fragments is one message
        fragments.send(RawWs.TEXT, false, "{\"method\":".getBytes(StandardCharsets.UTF_8));
        fragments.send(RawWs.CONTINUATION, false, "\"ping\",".getBytes(StandardCharsets.UTF_8));
        fragments.send(RawWs.CONTINUATION, true, "\"id\":77}".getBytes(StandardCharsets.UTF_8));
        assertTrue(fragments.readUntil("pong").text().contains("\"id\":77"));
        for (int i = 0; i < 3; i++)
        {
            fragments.send(i == 0 ? RawWs.TEXT : RawWs.CONTINUATION, false, new byte[400]);
        }
        final RawWs.Frame close = fragments.readToClose();
        assertNotNull(close);
        assertEquals(1009, close.closeCode());
        assertEquals(2, fixture.ws.counters().closes(WsCloses.MESSAGE_TOO_BIG));
    }

    @Test
    void aBinaryMessageCloses1003() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final WsClient client = fixture.connectPublic();
        client.next();
        client.socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get();
        assertEquals("1003 BINARY_NOT_ACCEPTED", client.awaitClose());
        assertTrue(client.messages.stream().anyMatch(m -> m.contains("\"code\":\"BINARY_NOT_ACCEPTED\"")));
    }

    @Test
    void aClientThatStopsReadingIsWarnedThenClosed4408WhileAnotherReceivesEveryFrame() throws Exception
    {
        fixture = new WsFixture(ws -> ws.slowConsumer(256 * 1024, 300, 64L * 1024 * 1024).heartbeatMs(60_000));
        final WsClient reader = fixture.connectPublic();
        reader.send(subscribe(1, "book.1"));
        reader.await(m -> m.contains("\"id\":1"));
        final RawWs stopped = fixture.raw(4 * 1024);
        assertTrue(stopped.upgrade(WsGateway.PUBLIC_PATH, "").startsWith("HTTP/1.1 101"));
        stopped.read();
        stopped.sendText(subscribe(1, "book.1"));
        stopped.readUntil("\"id\":1");
        fixture.feed.settle();
        final String pad = "y".repeat(16 * 1024);
        int seq = 0;
        final long deadline = System.nanoTime() + 20_000_000_000L;
        // publish until the gateway gives up on the client that reads nothing; the reader reads every frame
        while (fixture.ws.counters().closes(WsCloses.SLOW_CONSUMER) == 0)
        {
            assertTrue(System.nanoTime() < deadline, "the stopped client was not closed within 20 s");
            seq++;
            fixture.feed.publish("book.1", seq, false, "{\"channel\":\"book.1\",\"seq\":" + seq + ",\"p\":\"" + pad +
                "\"}");
            final String expected = "\"seq\":" + seq + ",";
            assertTrue(reader.await(m -> m.contains(expected)).contains(expected));
        }
        assertTrue(fixture.metrics().contains("venue_ws_slow_consumer_warnings_total 1"), fixture.metrics());
        for (int more = 0; more < 20; more++)
        {
            seq++;
            fixture.feed.publish("book.1", seq, false, "{\"channel\":\"book.1\",\"seq\":" + seq + "}");
        }
        final String last = "\"seq\":" + seq + "}";
        reader.await(m -> m.contains(last));
        assertTrue(stopped.drainsToEnd(), "the stopped client's connection was closed");
        assertFalse(reader.closed.isDone());
        assertTrue(fixture.ws.counters().closes(WsCloses.SLOW_CONSUMER) == 1);
    }

    @Test
    void overTheHardCapAClientIsClosedAtOnceWithoutWaitingForTheGrace() throws Exception
    {
        fixture = new WsFixture(ws -> ws.slowConsumer(64 * 1024, 600_000, 256 * 1024).heartbeatMs(60_000));
        final RawWs stopped = fixture.raw(4 * 1024);
        assertTrue(stopped.upgrade(WsGateway.PUBLIC_PATH, "").startsWith("HTTP/1.1 101"));
        stopped.read();
        stopped.sendText(subscribe(1, "book.1"));
        stopped.readUntil("\"id\":1");
        final String pad = "w".repeat(16 * 1024);
        final long deadline = System.nanoTime() + 20_000_000_000L;
        int seq = 0;
        while (fixture.ws.counters().closes(WsCloses.SLOW_CONSUMER) == 0)
        {
            assertTrue(System.nanoTime() < deadline, "not closed within 20 s; the grace is 10 minutes");
            fixture.feed.publish("book.1", ++seq, false, "{\"seq\":" + seq + ",\"p\":\"" + pad + "\"}");
            fixture.feed.settle();
        }
        assertTrue(stopped.drainsToEnd());
        assertEquals(1, fixture.ws.counters().closes(WsCloses.SLOW_CONSUMER));
    }

    @Test
    void conflatableFramesAreReplacedWhileOverTheMark() throws Exception
    {
        fixture = new WsFixture(ws -> ws.slowConsumer(64 * 1024, 60_000, 64L * 1024 * 1024).heartbeatMs(60_000));
        final RawWs slow = fixture.raw(4 * 1024);
        assertTrue(slow.upgrade(WsGateway.PUBLIC_PATH, "").startsWith("HTTP/1.1 101"));
        slow.read();
        slow.sendText(subscribe(1, "book.1", "bbo.1"));
        slow.readUntil("\"id\":1");
        final String pad = "z".repeat(16 * 1024);
        final List<Integer> published = new ArrayList<>();
        for (int seq = 1; seq <= 200; seq++)
        {
            fixture.feed.publish("book.1", seq, false, "{\"channel\":\"book.1\",\"seq\":" + seq + ",\"p\":\"" + pad +
                "\"}");
            fixture.feed.publish("bbo.1", seq, true, "{\"channel\":\"bbo.1\",\"seq\":" + seq + "}");
            published.add(seq);
        }
        fixture.feed.settle();
        // now read everything: every book frame arrives, in order; bbo frames were replaced while over the mark
        int book = 0;
        int bbo = 0;
        int lastBbo = 0;
        while (book < 200 || lastBbo < 200)
        {
            final RawWs.Frame frame = slow.read();
            assertNotNull(frame, "closed after book " + book + ", bbo " + lastBbo);
            final String text = frame.text();
            if (text.contains("\"channel\":\"book.1\""))
            {
                assertTrue(text.contains("\"seq\":" + ++book + ","), text.substring(0, 40));
            }
            else if (text.contains("\"channel\":\"bbo.1\""))
            {
                final int seq = Integer.parseInt(text.replaceAll(".*\"seq\":(\\d+)}", "$1"));
                assertTrue(seq > lastBbo, "in order");
                lastBbo = seq;
                bbo++;
            }
        }
        assertTrue(bbo < published.size(), "some bbo frames were conflated: " + bbo);
        assertTrue(fixture.metrics().contains("venue_ws_conflated_frames_total"), fixture.metrics());
    }
}
