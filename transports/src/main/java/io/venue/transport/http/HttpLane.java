package io.venue.transport.http;

import io.venue.codec.MetricsText;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.entry.lane.Lane;
import io.venue.transport.tls.ServerTls;
import io.venue.transport.ws.WsGateway;

import java.util.List;

/**
 * The HTTP gateway as a {@link Lane} (named {@value #NAME}): it owns the {@link HttpGateway} it starts from the
 * context it is given, drains and closes it, and describes its routes for the connectivity bundle.
 */
public final class HttpLane implements Lane
{
    public static final String NAME = "http";

    private final HttpGateway.Context context;
    private volatile HttpGateway gateway;
    private boolean closed;

    /** A lane that will serve {@code context} once started. */
    public HttpLane(final HttpGateway.Context context)
    {
        this.context = context;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    /** Binds and starts serving; fails if the address is taken, or the lane started or closed already. */
    @Override
    public synchronized void start()
    {
        if (gateway != null || closed)
        {
            throw new IllegalStateException("the http lane has " + (closed ? "closed" : "started already"));
        }
        gateway = HttpGateway.start(context);
    }

    @Override
    public synchronized void drain()
    {
        if (gateway != null && !closed)
        {
            gateway.drain();
        }
    }

    @Override
    public synchronized void close()
    {
        if (gateway != null && !closed)
        {
            gateway.close();
        }
        closed = true;
    }

    /** The bound port, or -1 before the lane started. */
    public int port()
    {
        final HttpGateway http = gateway;
        return http == null ? -1 : http.port();
    }

    /**
     * Where to send HTTP requests (the bound port once started, the configured one before), and spec 4's BSL
     * order-entry route, which this lane serves: the result mode to expect and the response verbosity (4.1's defaults).
     */
    @Override
    public void appendMetrics(final MetricsText text)
    {
        context.counters.appendTo(text);
        if (context.webSocket != null)
        {
            context.webSocket.counters().appendTo(text);
        }
    }

    @Override
    public List<ConnectivityEntry> connectivity()
    {
        final HttpGateway http = gateway;
        final ServerTls tls = context.tls;
        final ConnectivityEntry.Builder section = ConnectivityEntry.of("http")
            .field("baseUrl", (tls == null ? "http://" : "https://") + context.host + ":" +
                (http == null ? context.port : http.port()))
            .field("submitRoute", "/api/v1/trading/actions").field("mmReplaceRoute", "/api/v1/mm/orders/replace")
            .field("adminRoute", "/api/v1/admin/actions").field("tls", tls != null);
        if (tls != null && !tls.hosts().isEmpty())
        {
            // the names a client may ask for by SNI to get a certificate of their own
            section.field("sniHosts", String.join(",", tls.hosts()));
        }
        final ConnectivityEntry bsl = ConnectivityEntry.of("bsl").field("orderEntryRoute", "/api/v1/bsl/orders/compact")
            .field("resultMode", "ack")
                .field("responseMode", "detailed").field("schema", "venue-bsl.xml, schema 4, version 1").build();
        final WsGateway.Context ws = context.webSocket;
        if (ws == null)
        {
            return List.of(section.build(), bsl);
        }
        // the WebSocket endpoints share this lane's port and TLS; their limits are those the session frame advertises
        final String base = (tls == null ? "ws://" : "wss://") + context.host + ":" +
            (http == null ? context.port : http.port());
        return List.of(section.build(), bsl, ConnectivityEntry.of("ws")
            .field("publicUrl", base + WsGateway.PUBLIC_PATH).field("privateUrl", base + WsGateway.PRIVATE_PATH)
            .field("tokenRoute", "/api/v1/ws/token")
            .field("heartbeatMs", ws.heartbeatMs()).field("idleTimeoutMs", ws.idleTimeoutMs())
            .field("authDeadlineMs", ws.authDeadlineMs())
            .field("maxSubscriptionsPerConnection", (long)ws.maxSubscriptions())
            .field("publicMaxMarketsPerConnection", (long)ws.publicMaxMarkets())
            .field("maxControlMessagesPerWindow", (long)ws.maxControlMessages())
            .field("controlMessageWindowMs", ws.controlWindowMs()).field("maxInboundBytes", (long)ws.maxInboundBytes())
            .field("slowConsumerBytes", ws.slowConsumerBytes()).field("slowConsumerGraceMs", ws.slowConsumerGraceMs())
            .build());
    }
}
