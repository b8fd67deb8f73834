package io.venue.transport.ws;

import io.venue.codec.MetricsText;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the WebSocket gateway counts for the operator's metrics since it started, appended through the HTTP lane's
 * metrics (the endpoints share its port). Written by the I/O threads and the feed's thread (striped adders), read by
 * the metrics route.
 */
public final class WsCounters
{
    private final LongAdder opened = new LongAdder();
    final AtomicInteger open = new AtomicInteger();
    private final LongAdder framesOut = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private final LongAdder messagesIn = new LongAdder();
    private final LongAdder authFailures = new LongAdder();
    private final LongAdder slowConsumerWarnings = new LongAdder();
    private final LongAdder conflated = new LongAdder();
    private final LongAdder[] closes = new LongAdder[WsCloses.CODES.length];

    WsCounters()
    {
        for (int i = 0; i < closes.length; i++)
        {
            closes[i] = new LongAdder();
        }
    }

    void opened()
    {
        opened.increment();
        open.incrementAndGet();
    }

    void closedConnection()
    {
        open.decrementAndGet();
    }

    /** {@code frames} written whole, of {@code bytes} counted bytes (their JSON text) together. */
    void framesOut(final int frames, final long bytes)
    {
        framesOut.add(frames);
        bytesOut.add(bytes);
    }

    void messageIn()
    {
        messagesIn.increment();
    }

    void authFailure()
    {
        authFailures.increment();
    }

    void slowConsumerWarning()
    {
        slowConsumerWarnings.increment();
    }

    void conflated()
    {
        conflated.increment();
    }

    void closedWith(final int code)
    {
        for (int i = 0; i < WsCloses.CODES.length; i++)
        {
            if (WsCloses.CODES[i] == code)
            {
                closes[i].increment();
                return;
            }
        }
    }

    /** The closes the gateway sent with {@code code} (tests, and the metrics below). */
    public long closes(final int code)
    {
        for (int i = 0; i < WsCloses.CODES.length; i++)
        {
            if (WsCloses.CODES[i] == code)
            {
                return closes[i].sum();
            }
        }
        return 0;
    }

    /** Writes the counters in the Prometheus text format. */
    public void appendTo(final MetricsText text)
    {
        text.family("venue_ws_connections_total", "counter", "WebSocket connections upgraded, since the lane started");
        text.sample("venue_ws_connections_total", opened.sum());
        text.family("venue_ws_connections_open", "gauge", "WebSocket connections open now");
        text.sample("venue_ws_connections_open", open.get());
        text.family("venue_ws_frames_out_total", "counter", "WebSocket frames handed to the sockets");
        text.sample("venue_ws_frames_out_total", framesOut.sum());
        text.family("venue_ws_bytes_out_total", "counter", "WebSocket frame payload bytes handed to the sockets");
        text.sample("venue_ws_bytes_out_total", bytesOut.sum());
        text.family("venue_ws_messages_in_total", "counter", "Whole WebSocket messages read from clients");
        text.sample("venue_ws_messages_in_total", messagesIn.sum());
        text.family("venue_ws_auth_failures_total", "counter",
            "Private connections refused: no auth frame in time, or a bad, expired or ungranted token");
        text.sample("venue_ws_auth_failures_total", authFailures.sum());
        text.family("venue_ws_slow_consumer_warnings_total", "counter", "slow_consumer frames sent");
        text.sample("venue_ws_slow_consumer_warnings_total", slowConsumerWarnings.sum());
        text.family("venue_ws_conflated_frames_total", "counter",
            "Conflatable frames replaced by a newer one of their channel while the connection was over the mark");
        text.sample("venue_ws_conflated_frames_total", conflated.sum());
        text.family("venue_ws_closes_total", "counter", "WebSocket connections closed by the gateway, by close code");
        for (int i = 0; i < WsCloses.CODES.length; i++)
        {
            text.sample("venue_ws_closes_total", "code", String.valueOf(WsCloses.CODES[i]), closes[i].sum());
        }
    }
}
