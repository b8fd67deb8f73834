package io.venue.transport.http;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the HTTP lane counts for the operator's metrics since it started: answers by status, MM window refusals by the
 * window that refused, and how long the trading route's submits took inside the lane. Written by every I/O thread
 * (atomic adds), read by the metrics route.
 */
public final class LaneCounters
{
    /** The MM windows' scopes, in the order {@link #mmRefusalsBy} reports them. */
    public static final String[] MM_SCOPES = MmWindows.SCOPES;

    /**
     * Upper bounds of the submit latency buckets, in microseconds: from the whole request read to its answer handed to
     * the socket (the answers of a connection go out in request order, so a submit waits for those before it).
     */
    public static final long[] SUBMIT_LATENCY_BOUNDS_US = {100, 250, 500, 1_000, 2_000, 5_000, 10_000, 25_000, 50_000, 100_000};

    private static final int STATUSES = 600;
    private final AtomicLongArray submitLatency = new AtomicLongArray(SUBMIT_LATENCY_BOUNDS_US.length + 1);
    private final java.util.concurrent.atomic.AtomicLong submitLatencySumUs = new java.util.concurrent.atomic.AtomicLong();

    private final AtomicLongArray responses = new AtomicLongArray(STATUSES);
    private final AtomicLongArray mmRefusals = new AtomicLongArray(MM_SCOPES.length);

    void response(final int status)
    {
        if (status >= 0 && status < STATUSES)
        {
            responses.incrementAndGet(status);
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
        submitLatency.incrementAndGet(bucket);
        submitLatencySumUs.addAndGet(us);
    }

    void mmRefusal(final String scope)
    {
        for (int i = 0; i < MM_SCOPES.length; i++)
        {
            if (MM_SCOPES[i].equals(scope))
            {
                mmRefusals.incrementAndGet(i);
                return;
            }
        }
    }

    /** Answers with this HTTP status so far. */
    public long responses(final int status)
    {
        return status >= 0 && status < STATUSES ? responses.get(status) : 0;
    }

    /** MM requests refused by the window of {@link #MM_SCOPES}{@code [scope]}. */
    public long mmRefusalsBy(final int scope)
    {
        return mmRefusals.get(scope);
    }

    /** Writes the counters in the Prometheus text format; statuses never answered are left out. */
    public void appendTo(final MetricsText text)
    {
        text.family("venue_http_responses_total", "counter", "HTTP answers of the lane by status, since the lane started");
        for (int status = 0; status < STATUSES; status++)
        {
            final long count = responses.get(status);
            if (count > 0)
            {
                text.sample("venue_http_responses_total", "status", String.valueOf(status), count);
            }
        }
        text.family("venue_http_submit_latency_us", "histogram", "Trading-route submits by the microseconds from the whole " +
            "request read to its answer handed to the socket, since the lane started");
        long cumulative = 0;
        for (int i = 0; i <= SUBMIT_LATENCY_BOUNDS_US.length; i++)
        {
            cumulative += submitLatency.get(i);
            text.sample("venue_http_submit_latency_us_bucket", "le",
                i < SUBMIT_LATENCY_BOUNDS_US.length ? String.valueOf(SUBMIT_LATENCY_BOUNDS_US[i]) : "+Inf", cumulative);
        }
        text.sample("venue_http_submit_latency_us_sum", submitLatencySumUs.get());
        text.sample("venue_http_submit_latency_us_count", cumulative);
        text.family("venue_mm_window_refusals_total", "counter", "MM requests refused by a full window (spec 8.2), by window");
        for (int i = 0; i < MM_SCOPES.length; i++)
        {
            text.sample("venue_mm_window_refusals_total", "scope", MM_SCOPES[i], mmRefusals.get(i));
        }
    }
}
