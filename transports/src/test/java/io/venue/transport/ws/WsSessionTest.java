package io.venue.transport.ws;

import io.venue.entry.ConnectionIds;
import io.venue.entry.credential.WsTokens;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.transport.http.JsonReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection's session on loopback: the session frame advertises the configured values, heartbeats carry the last
 * seq of each channel written, a client that sends nothing is closed at the idle timeout while pings keep one open,
 * and the lane's connectivity and metrics describe the endpoints.
 */
class WsSessionTest
{
    private WsFixture fixture;

    @AfterEach
    void close() throws Exception
    {
        fixture.close();
    }

    static Map<?, ?> json(final String text) throws JsonReader.JsonException
    {
        return (Map<?, ?>)JsonReader.read(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theSessionFrameAdvertisesTheConfiguredValues() throws Exception
    {
        fixture = new WsFixture(ws -> ws.heartbeatMs(1_234).idleTimeoutMs(4_321).authDeadlineMs(987)
            .subscriptions(7, 3).controlMessages(11, 22_000).maxInboundBytes(4_096).slowConsumer(100_000, 333, 0));
        final WsClient client = fixture.connectPublic();
        final Map<?, ?> session = json(client.next());
        assertEquals("session", session.get("type"));
        assertEquals(1_234L, session.get("heartbeatMs"));
        assertEquals(4_321L, session.get("idleTimeoutMs"));
        assertEquals(987L, session.get("authDeadlineMs"));
        assertEquals(7L, session.get("maxSubscriptionsPerConnection"));
        assertEquals(3L, session.get("publicMaxMarketsPerConnection"));
        assertEquals(11L, session.get("maxControlMessagesPerWindow"));
        assertEquals(22_000L, session.get("controlMessageWindowMs"));
        assertEquals(4_096L, session.get("maxInboundBytes"));
        assertEquals(100_000L, session.get("slowConsumerBytes"));
        assertEquals(333L, session.get("slowConsumerGraceMs"));
        assertEquals(fixture.ws.hardCapBytes(), 800_000L, "the hard cap defaults to 8 times the mark");
        final long serverTime = (Long)session.get("serverTime");
        assertTrue(Math.abs(serverTime - System.currentTimeMillis()) < 60_000, "serverTime is the clock's");
        final long id = Long.parseLong((String)session.get("connectionId"));
        assertEquals(2, ConnectionIds.laneOf(id), "the WebSocket lane's code");
        final Map<?, ?> other = json(fixture.connectPublic().next());
        assertTrue(!session.get("connectionId").equals(other.get("connectionId")), "ids are unique");
    }

    @Test
    void aDrainingNodeClosesItsStreams1001GoingAway() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final WsClient first = fixture.connectPublic();
        final WsClient second = fixture.connectPrivate();
        first.await(m -> m.contains("\"type\":\"session\""));
        fixture.lane.drain();
        first.await(m -> m.contains("\"code\":\"GOING_AWAY\""));
        assertEquals("1001 GOING_AWAY", first.awaitClose());
        assertEquals("1001 GOING_AWAY", second.awaitClose());
    }

    @Test
    void theDefaultsAreTheSpecs() throws Exception
    {
        final WsGateway.Context context = new WsGateway.Context().feed(new ScriptedFeed())
            .tokens(new WsTokens(new byte[32]), (claims, now) -> true).conclude();
        assertEquals(20_000, context.heartbeatMs());
        assertEquals(90_000, context.idleTimeoutMs());
        assertEquals(5_000, context.authDeadlineMs());
        assertEquals(32, context.maxSubscriptions());
        assertEquals(16, context.publicMaxMarkets());
        assertEquals(60, context.maxControlMessages());
        assertEquals(60_000, context.controlWindowMs());
        assertEquals(65_536, context.maxInboundBytes());
        assertEquals(0, context.socketSendBufferBytes(), "the kernel's own send buffer unless set");
        assertThrows(IllegalArgumentException.class, () -> new WsGateway.Context().feed(new ScriptedFeed())
            .tokens(new WsTokens(new byte[32]), (claims, now) -> true).socketSendBufferBytes(-1).conclude());
        fixture = new WsFixture(ws ->
        {
        });
    }

    @Test
    void heartbeatsCarryTheLastSeqOfEachChannel() throws Exception
    {
        fixture = new WsFixture(ws -> ws.heartbeatMs(100));
        final WsClient client = fixture.connectPublic();
        client.await(m -> m.contains("\"type\":\"heartbeat\"") && m.contains("\"lastSeq\":{}"));
        client.send("{\"method\":\"subscribe\",\"id\":5,\"channels\":[\"book.1\",\"trades.1\"]}");
        client.await(m -> m.contains("\"type\":\"ack\"") && m.contains("\"id\":5"));
        for (int seq = 1; seq <= 3; seq++)
        {
            fixture.feed.publish("book.1", seq, false, "{\"channel\":\"book.1\",\"seq\":" + seq + "}");
        }
        fixture.feed.publish("trades.1", 9, false, "{\"channel\":\"trades.1\",\"seq\":9}");
        client.await(m -> m.contains("\"seq\":9"));
        final Map<?, ?> heartbeat = json(client.await(m -> m.contains("\"type\":\"heartbeat\"")));
        assertEquals(Map.of("book.1", 3L, "trades.1", 9L), heartbeat.get("lastSeq"));
        assertNotNull(heartbeat.get("serverTime"));
    }

    @Test
    void aClientThatSendsNothingIsClosedAtTheIdleTimeoutAndPingsKeepOneOpen() throws Exception
    {
        fixture = new WsFixture(ws -> ws.idleTimeoutMs(1_500));
        final WsClient silent = fixture.connectPublic();
        final WsClient pinging = fixture.connectPublic();
        final long start = System.nanoTime();
        int pings = 0;
        while (!silent.closed.isDone())
        {
            pinging.send("{\"method\":\"ping\",\"id\":" + ++pings + "}");
            pinging.await(m -> m.contains("\"type\":\"pong\""));
            Thread.sleep(50);
            assertTrue(System.nanoTime() - start < 10_000_000_000L, "the silent client is still open after 10 s");
        }
        assertEquals("4000 IDLE_TIMEOUT", silent.awaitClose());
        assertTrue(silent.messages.stream().anyMatch(m -> m.contains("\"code\":\"IDLE_TIMEOUT\"")));
        // the WebSocket ping control frame counts as activity too, and is answered with a pong of its payload
        final long pingsFrom = System.nanoTime();
        for (int i = 0; System.nanoTime() - pingsFrom < 3_000_000_000L; i++)
        {
            pinging.socket.sendPing(ByteBuffer.wrap(("p" + i).getBytes(StandardCharsets.US_ASCII)))
                .get(10, TimeUnit.SECONDS);
            final String expected = "PONG p" + i;
            pinging.await(expected::equals);
            Thread.sleep(50);
        }
        assertTrue(!pinging.closed.isDone(), "pings kept it open past the idle timeout");
        assertEquals(1, fixture.ws.counters().closes(WsCloses.IDLE_TIMEOUT));
    }

    @Test
    void theLaneDescribesTheEndpointsAndCountsThem() throws Exception
    {
        fixture = new WsFixture(ws -> ws.heartbeatMs(60_000));
        final WsClient client = fixture.connectPublic();
        client.next();
        final ConnectivityEntry entry = fixture.lane.connectivity().stream().filter(e -> e.name().equals("ws"))
            .findFirst().orElseThrow();
        assertEquals("ws://127.0.0.1:" + fixture.port() + "/api/v1/ws/public", entry.fields().get("publicUrl"));
        assertEquals("ws://127.0.0.1:" + fixture.port() + "/api/v1/ws/private", entry.fields().get("privateUrl"));
        assertEquals(32L, entry.fields().get("maxSubscriptionsPerConnection"));
        // a frame is counted once the socket has taken it, which may come just after the client read it
        String metrics = fixture.metrics();
        for (int i = 0; i < 200 && !metrics.contains("venue_ws_frames_out_total 1"); i++)
        {
            Thread.sleep(50);
            metrics = fixture.metrics();
        }
        assertTrue(metrics.contains("venue_ws_connections_total 1"), metrics);
        assertTrue(metrics.contains("venue_ws_connections_open 1"), metrics);
        assertTrue(metrics.contains("venue_ws_frames_out_total 1"), metrics);
    }
}
