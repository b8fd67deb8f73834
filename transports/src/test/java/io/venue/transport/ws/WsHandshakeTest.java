package io.venue.transport.ws;

import io.venue.entry.EntryCore;
import io.venue.entry.PendingRequests;
import io.venue.transport.http.HttpGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The upgrade as the HTTP lane routes it, with raw sockets: only a GET with the WebSocket upgrade on the two paths
 * becomes a WebSocket connection; anything else there is a clear HTTP answer on a connection that stays HTTP, and
 * a lane without the gateway answers 404 as before.
 */
class WsHandshakeTest
{
    private WsFixture fixture;

    @AfterEach
    void close() throws Exception
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    @Test
    void anUpgradeBecomesAWebSocketConnectionAndTheHttpDeadlinesNoLongerApply() throws Exception
    {
        fixture = new WsFixture(ws -> ws.heartbeatMs(200).controlMessages(100_000, 1_000));
        final RawWs raw = fixture.raw(0);
        final String head = raw.upgrade(WsGateway.PUBLIC_PATH, "");
        assertTrue(head.startsWith("HTTP/1.1 101"), head);
        assertTrue(raw.read().text().contains("\"type\":\"session\""));
        // the HTTP idle deadline is 2 s: heartbeats still come after it, answered pings keep the connection
        final long until = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < until)
        {
            raw.sendText("{\"method\":\"ping\",\"id\":1}");
            raw.readUntil("\"type\":\"pong\"");
        }
        assertTrue(raw.readUntil("heartbeat").text().contains("\"type\":\"heartbeat\""));
    }

    @Test
    void otherRequestsOnThePathsAreHttpErrors() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final RawWs raw = fixture.raw(0);
        String head = raw.request("GET " + WsGateway.PUBLIC_PATH + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 426"), head);
        assertTrue(head.toLowerCase().contains("upgrade: websocket"), head);
        assertTrue(raw.body(head).contains("UPGRADE_REQUIRED"));
        head = raw.request("POST " + WsGateway.PRIVATE_PATH + " HTTP/1.1\r\nHost: x\r\ncontent-length: 0\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 405"), head);
        raw.body(head);
        head = raw.upgrade("/api/v1/ws/other", "");
        assertTrue(head.startsWith("HTTP/1.1 404"), head);
        raw.body(head);
        head = raw.request("GET " + WsGateway.PUBLIC_PATH + " HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n" +
            "Connection: Upgrade\r\nSec-WebSocket-Version: 8\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 426"), head);
        raw.body(head);
        // the connection is still HTTP, and can upgrade now
        head = raw.upgrade(WsGateway.PUBLIC_PATH, "");
        assertTrue(head.startsWith("HTTP/1.1 101"), head);
        assertTrue(raw.read().text().contains("\"type\":\"session\""));
    }

    @Test
    void anUpgradeReadAfterARequestThatClosesTheConnectionIsDropped() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final RawWs raw = fixture.raw(0);
        final String head = raw.request("GET /api/v1/public/exchange-info HTTP/1.1\r\nHost: x\r\nConnection: close" +
            "\r\n\r\nGET " + WsGateway.PUBLIC_PATH + " HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n" +
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 200"), head);
        raw.body(head);
        assertTrue(raw.drainsToEnd(), "closed after the answer; the upgrade read after a close is dropped");
        assertEquals(0, fixture.ws.counters().closes(WsCloses.NORMAL));
    }

    @Test
    void behindATrustedProxyTheUpgradeFollowsThePROXYv2Header() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        }, http -> http.trustedProxies(Set.of(InetAddress.getLoopbackAddress())));
        final ByteBuffer header = ByteBuffer.allocate(28)
            .put(new byte[] {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A})
            .put((byte)0x21).put((byte)0x11).putShort((short)12)
            .put(new byte[] {(byte)203, 0, 113, 7}).put(new byte[] {127, 0, 0, 1}).putShort((short)40_000)
            .putShort((short)fixture.port());
        final RawWs raw = fixture.raw(0, header.array());
        final String head = raw.upgrade(WsGateway.PUBLIC_PATH, "");
        assertTrue(head.startsWith("HTTP/1.1 101"), head);
        assertTrue(raw.read().text().contains("\"type\":\"session\""));
        raw.sendText("{\"method\":\"ping\",\"id\":3}");
        assertTrue(raw.readUntil("pong").text().contains("\"id\":3"));
    }

    @Test
    void withoutTheGatewayThePathsAnswer404() throws Exception
    {
        final EntryCore entry = new EntryCore(new EntryCore.Context()
            .submitter((prebatched, connection, correlation, body, offset, length) -> false)
            .pending(new PendingRequests(0)));
        final HttpGateway gateway = HttpGateway.start(new HttpGateway.Context().port(0).entry(entry)
            .exchangeInfo(() -> "{}").connectivity(() -> "{}").actionStatus(digest -> null)
            .nonceStatus(account -> "{}"));
        try (RawWs raw = new RawWs(gateway.port(), 0))
        {
            final String head = raw.upgrade(WsGateway.PRIVATE_PATH, "");
            assertTrue(head.startsWith("HTTP/1.1 404"), head);
            assertTrue(raw.body(head).contains("NOT_FOUND"));
        }
        finally
        {
            gateway.close();
        }
    }
}
