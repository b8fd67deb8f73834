package io.venue.transport.ws;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The private endpoint's auth (spec 5.7): the first message must be an auth with a valid token within the deadline,
 * a token is never taken from the query string or a header, and a stream whose grant is revoked ends.
 */
class WsAuthTest
{
    private WsFixture fixture;

    @AfterEach
    void close() throws Exception
    {
        fixture.close();
    }

    @Test
    void aValidTokenIsAcknowledgedWithItsAccountAndPrivateRequestsCarryIt() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final WsClient client = fixture.connect(WsGateway.PRIVATE_PATH);
        assertTrue(client.next().contains("\"endpoint\":\"private\""));
        client.send("{\"method\":\"auth\",\"id\":42,\"token\":\"" + fixture.token(60_000) + "\"}");
        assertEquals("{\"type\":\"ack\",\"id\":42,\"account\":\"" + WsFixture.ACCOUNT + "\"}",
            client.await(m -> m.contains("\"type\":\"ack\"")));
        client.send("{\"method\":\"subscribe\",\"id\":43,\"channels\":[\"fills\"]}");
        client.await(m -> m.contains("\"id\":43"));
        client.send("{\"method\":\"resend\",\"id\":44,\"channel\":\"fills\",\"fromSeq\":10,\"toSeq\":500}");
        client.await(m -> m.contains("\"id\":44"));
        assertTrue(fixture.feed.requests.contains("subscribe " + WsFixture.ACCOUNT + " [fills] []"),
            fixture.feed.requests.toString());
        assertTrue(fixture.feed.requests.contains("resend " + WsFixture.ACCOUNT + " fills 10..500"),
            fixture.feed.requests.toString());
        client.send("{\"method\":\"auth\",\"id\":45,\"token\":\"" + fixture.token(60_000) + "\"}");
        assertTrue(client.await(m -> m.contains("\"id\":45")).contains("ALREADY_AUTHENTICATED"));
        assertEquals(0, fixture.ws.counters().closes(WsCloses.AUTH_FAILED));
    }

    @Test
    void aPrivateConnectionThatSendsNothingIsClosedAtTheAuthDeadline() throws Exception
    {
        fixture = new WsFixture(ws -> ws.authDeadlineMs(300));
        final WsClient client = fixture.connect(WsGateway.PRIVATE_PATH);
        assertEquals("4401 AUTH_TIMEOUT", client.awaitClose());
        assertTrue(client.messages.stream().anyMatch(m -> m.contains("\"code\":\"AUTH_TIMEOUT\"")));
        assertTrue(fixture.metrics().contains("venue_ws_auth_failures_total 1"), fixture.metrics());
        // a public connection has no auth deadline
        final WsClient open = fixture.connectPublic();
        open.next();
        Thread.sleep(600);
        open.send("{\"method\":\"ping\",\"id\":1}");
        open.await(m -> m.contains("\"type\":\"pong\""));
    }

    @Test
    void aBadExpiredOrUngrantedTokenIsAnErrorAndClose4401() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final String valid = fixture.token(60_000);
        final String forged = valid.substring(0, valid.length() - 2) + (valid.endsWith("AA") ? "AB" : "AA");
        final String expired = fixture.tokens.issue(WsFixture.ACCOUNT, WsFixture.KEY_ID,
            System.currentTimeMillis() - 1);
        final String ungranted = fixture.tokens.issue(WsFixture.ACCOUNT, "key-revoked",
            System.currentTimeMillis() + 60_000);
        fixture.revoked.add("key-revoked");
        for (final String token : new String[] {forged, expired, ungranted, "spws1.x.y", "not-a-token"})
        {
            final WsClient client = fixture.connect(WsGateway.PRIVATE_PATH);
            client.next();
            client.send("{\"method\":\"auth\",\"id\":7,\"token\":\"" + token + "\"}");
            final String error = client.await(m -> m.contains("\"type\":\"error\""));
            assertTrue(error.contains("\"id\":7") && error.contains("\"code\":\"AUTH_FAILED\""), error);
            assertEquals("4401 AUTH_FAILED", client.awaitClose());
        }
        assertEquals(5, fixture.ws.counters().closes(WsCloses.AUTH_FAILED));
        assertTrue(fixture.feed.requests.isEmpty());
    }

    @Test
    void anythingButAuthFirstIsRefused() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final WsClient client = fixture.connect(WsGateway.PRIVATE_PATH);
        client.next();
        client.send("{\"method\":\"subscribe\",\"id\":3,\"channels\":[\"fills\"]}");
        assertTrue(client.await(m -> m.contains("\"type\":\"error\"")).contains("AUTH_REQUIRED"));
        assertEquals("4401 AUTH_REQUIRED", client.awaitClose());
        assertTrue(fixture.feed.requests.isEmpty(), "nothing reached the feed");
        // the closed connection is removed from the feed
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (fixture.feed.removed.isEmpty())
        {
            assertTrue(System.nanoTime() < deadline, "the feed was not told of the close within 10 s");
            fixture.feed.settle();
        }
    }

    @Test
    void aRevokedGrantEndsAnOpenPrivateStream() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final WsClient revokedClient = fixture.connectPrivate();
        final WsClient publicClient = fixture.connectPublic();
        publicClient.next();
        Thread.sleep(200);
        assertTrue(!revokedClient.closed.isDone(), "open while granted");
        fixture.revoked.add(WsFixture.KEY_ID);
        assertEquals("4403 GRANT_REVOKED", revokedClient.awaitClose());
        assertTrue(revokedClient.messages.stream().anyMatch(m -> m.contains("\"code\":\"GRANT_REVOKED\"")));
        publicClient.send("{\"method\":\"ping\",\"id\":9}");
        publicClient.await(m -> m.contains("\"type\":\"pong\""));
    }

    @Test
    void aTokenInTheQueryStringOrAHeaderIsRefusedAtTheHandshake() throws Exception
    {
        fixture = new WsFixture(ws ->
        {
        });
        final String token = fixture.token(60_000);
        final String[][] attempts = {
            {WsGateway.PRIVATE_PATH + "?token=" + token, ""},
            {WsGateway.PRIVATE_PATH + "?t=" + token, ""},
            {WsGateway.PRIVATE_PATH, "Authorization: Bearer " + token + "\r\n"},
            {WsGateway.PRIVATE_PATH, "Sec-WebSocket-Protocol: " + token + "\r\n"},
            {WsGateway.PUBLIC_PATH + "?token=x", ""},
        };
        for (final String[] attempt : attempts)
        {
            final RawWs raw = fixture.raw(0);
            final String head = raw.upgrade(attempt[0], attempt[1]);
            assertTrue(head.startsWith("HTTP/1.1 400"), head);
            assertTrue(raw.body(head).contains("\"code\":\"TOKEN_NOT_ACCEPTED_HERE\""));
        }
        assertEquals(0, fixture.ws.counters().closes(WsCloses.AUTH_FAILED));
    }
}
