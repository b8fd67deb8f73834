package io.venue.transport.http;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import io.venue.codec.MetricsText;
import io.venue.entry.mm.MmWindows;

/**
 * What the HTTP lane counts for the operator's metrics since it started: answers by status, MM window refusals by the
 * window that refused ({@link MmWindows#SCOPES}), how long the trading route's submits took inside the lane, the
 * connections open, refused over a cap ({@link ConnectionLimits}) and closed by a deadline
 * ({@link ConnectionDeadlines}).
 * Written by every I/O thread (striped adders, so the threads do not contend on one counter), read by the metrics
 * route.
 */
public final class LaneCounters
{
    /**
     * Upper bounds of the submit latency buckets, in microseconds: from the whole request read to its answer handed to
     * the socket (the answers of a connection go out in request order, so a submit waits for those before it).
     */
    public static final long[] SUBMIT_LATENCY_BOUNDS_US = {100, 250, 500, 1_000, 2_000, 5_000, 10_000, 25_000,
        50_000, 100_000};

    private static final int STATUSES = 600;
    private final LongAdder[] submitLatency = adders(SUBMIT_LATENCY_BOUNDS_US.length + 1);
    private final LongAdder submitLatencySumUs = new LongAdder();
    private final LongAdder[] responses = adders(STATUSES);
    private final LongAdder[] mmRefusals = adders(MmWindows.SCOPES.length);
    /** The lane's open connections: the count the global cap is checked against. */
    final AtomicInteger openConnections = new AtomicInteger();
    private final LongAdder refusedOverAddress = new LongAdder();
    private final LongAdder refusedOverTotal = new LongAdder();
    private final LongAdder[] closedByDeadline = adders(ConnectionDeadlines.Reason.values().length);

    private static LongAdder[] adders(final int count)
    {
        final LongAdder[] adders = new LongAdder[count];
        for (int i = 0; i < count; i++)
        {
            adders[i] = new LongAdder();
        }
        return adders;
    }

    void response(final int status)
    {
        if (status >= 0 && status < STATUSES)
        {
            responses[status].increment();
        }
    }

    void submitAnswered(final long latencyNs)
    {
        final long us = Math.max(0, latencyNs / 1_000);
        int bucket = 0;
        while (bucket < SUBMIT_LATENCY_BOUNDS_US.length && us > SUBMIT_LATENCY_BOUNDS_US[bucket])
        {
            bucket++;
        }
        submitLatency[bucket].increment();
        submitLatencySumUs.add(us);
    }

    void mmRefusal(final String scope)
    {
        for (int i = 0; i < MmWindows.SCOPES.length; i++)
        {
            if (MmWindows.SCOPES[i].equals(scope))
            {
                mmRefusals[i].increment();
                return;
            }
        }
    }

    void connectionRefused(final boolean overAddress)
    {
        (overAddress ? refusedOverAddress : refusedOverTotal).increment();
    }

    void closedByDeadline(final ConnectionDeadlines.Reason reason)
    {
        closedByDeadline[reason.ordinal()].increment();
    }

    /** Writes the counters in the Prometheus text format; statuses never answered are left out. */
    public void appendTo(final MetricsText text)
    {
        text.family("venue_http_responses_total", "counter",
            "HTTP answers of the lane by status, since the lane started");
        for (int status = 0; status < STATUSES; status++)
        {
            final long count = responses[status].sum();
            if (count > 0)
            {
                text.sample("venue_http_responses_total", "status", String.valueOf(status), count);
            }
        }
        text.family("venue_http_submit_latency_us", "histogram",
            "Trading-route submits by the microseconds from the whole " +
            "request read to its answer handed to the socket, since the lane started");
        long cumulative = 0;
        for (int i = 0; i <= SUBMIT_LATENCY_BOUNDS_US.length; i++)
        {
            cumulative += submitLatency[i].sum();
            text.sample("venue_http_submit_latency_us_bucket", "le",
                i < SUBMIT_LATENCY_BOUNDS_US.length ? String.valueOf(SUBMIT_LATENCY_BOUNDS_US[i]) : "+Inf", cumulative);
        }
        text.sample("venue_http_submit_latency_us_sum", submitLatencySumUs.sum());
        text.sample("venue_http_submit_latency_us_count", cumulative);
        text.family("venue_mm_window_refusals_total", "counter",
            "MM requests refused by a full window (spec 8.2), by window");
        for (int i = 0; i < MmWindows.SCOPES.length; i++)
        {
            text.sample("venue_mm_window_refusals_total", "scope", MmWindows.SCOPES[i], mmRefusals[i].sum());
        }
        text.family("venue_http_connections_open", "gauge", "HTTP connections open now");
        text.sample("venue_http_connections_open", openConnections.get());
        text.family("venue_http_connections_refused_total", "counter",
            "HTTP connections refused at accept over a cap, by cap");
        text.sample("venue_http_connections_refused_total", "cap", "address", refusedOverAddress.sum());
        text.sample("venue_http_connections_refused_total", "cap", "total", refusedOverTotal.sum());
        text.family("venue_http_connections_timed_out_total", "counter",
            "HTTP connections closed by a read deadline, by what the client had not sent in time");
        for (final ConnectionDeadlines.Reason reason : ConnectionDeadlines.Reason.values())
        {
            text.sample("venue_http_connections_timed_out_total", "deadline", reason.name().toLowerCase(Locale.ROOT),
                closedByDeadline[reason.ordinal()].sum());
        }
    }
}
