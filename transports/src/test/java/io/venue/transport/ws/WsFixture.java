package io.venue.transport.ws;

import io.venue.codec.MetricsText;
import io.venue.entry.EntryCore;
import io.venue.entry.PendingRequests;
import io.venue.entry.PreJournalRefusals;
import io.venue.entry.credential.WsTokens;
import io.venue.transport.http.HttpGateway;
import io.venue.transport.http.HttpLane;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The HTTP lane with a WebSocket gateway on loopback (port 0), a {@link ScriptedFeed}, a token key and a grant check
 * the test controls (a credential id in {@link #revoked} no longer holds). Timers are short so no test waits long.
 */
final class WsFixture implements AutoCloseable
{
    static final String ACCOUNT = "0x" + "ab".repeat(20);
    static final String KEY_ID = "key-1";

    final ScriptedFeed feed = new ScriptedFeed();
    final WsTokens tokens = new WsTokens(new byte[32]);
    final Set<String> revoked = ConcurrentHashMap.newKeySet();
    final WsGateway.Context ws;
    final HttpGateway.Context http;
    final HttpLane lane;
    private final HttpClient client = HttpClient.newHttpClient();
    private final List<Closeable> opened = new ArrayList<>();

    WsFixture(final Consumer<WsGateway.Context> configure)
    {
        this(configure, http ->
        {
        });
    }

    WsFixture(final Consumer<WsGateway.Context> configure, final Consumer<HttpGateway.Context> configureHttp)
    {
        ws = new WsGateway.Context().heartbeatMs(300).idleTimeoutMs(30_000).authDeadlineMs(10_000)
            .timers(50, 10).feed(feed).tokens(tokens, (claims, now) -> !revoked.contains(claims.apiKeyId()));
        configure.accept(ws);
        final EntryCore entry = new EntryCore(new EntryCore.Context().answerTimeoutMs(10_000)
            .submitter((prebatched, connection, correlation, body, offset, length) -> false)
            .pending(new PendingRequests(0)).refusals(new PreJournalRefusals(64 * 1024)));
        http = new HttpGateway.Context().port(0).entry(entry).exchangeInfo(() -> "{}").connectivity(() -> "{}")
            .actionStatus(digest -> null).nonceStatus(account -> "{}").deadlines(2_000, 2_000, 2_000)
            .connections(100, 100, Set.of()).webSocket(ws);
        configureHttp.accept(http);
        lane = new HttpLane(http);
        lane.start();
    }

    int port()
    {
        return lane.port();
    }

    String token(final long ttlMs)
    {
        return tokens.issue(ACCOUNT, KEY_ID, System.currentTimeMillis() + ttlMs);
    }

    WsClient connect(final String path) throws Exception
    {
        final WsClient client = new WsClient(this.client, URI.create("ws://127.0.0.1:" + port() + path));
        opened.add(client);
        return client;
    }

    WsClient connectPublic() throws Exception
    {
        return connect(WsGateway.PUBLIC_PATH);
    }

    /** A private connection, authenticated with a fresh token; its session frame and ack are read. */
    WsClient connectPrivate() throws Exception
    {
        final WsClient client = connect(WsGateway.PRIVATE_PATH);
        client.await(m -> m.contains("\"type\":\"session\""));
        client.send("{\"method\":\"auth\",\"id\":1,\"token\":\"" + token(60_000) + "\"}");
        client.await(m -> m.contains("\"type\":\"ack\""));
        return client;
    }

    RawWs raw(final int receiveBuffer) throws Exception
    {
        return raw(receiveBuffer, new byte[0]);
    }

    /** A raw connection that first sends {@code preface} (a PROXY v2 header). */
    RawWs raw(final int receiveBuffer, final byte[] preface) throws Exception
    {
        final RawWs raw = new RawWs(port(), receiveBuffer);
        raw.write(preface);
        opened.add(raw);
        return raw;
    }

    String metrics()
    {
        final MetricsText text = new MetricsText();
        lane.appendMetrics(text);
        return text.toString();
    }

    @Override
    public void close() throws IOException
    {
        for (final Closeable closeable : opened)
        {
            closeable.close();
        }
        lane.close();
        feed.close();
    }
}
