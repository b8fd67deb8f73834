package io.venue.transport.http;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the HTTP lane counts for the operator's metrics since it started: answers by status, and MM window refusals
 * by the window that refused. Written by every I/O thread (atomic adds), read by the metrics route.
 */
public final class LaneCounters
{
    /** The MM windows' scopes, in the order {@link #mmRefusalsBy} reports them. */
    public static final String[] MM_SCOPES = {"account", "account_cancels", "api_key", "ip", "market", "shard", "builder_plan"};

    private static final int STATUSES = 600;

    private final AtomicLongArray responses = new AtomicLongArray(STATUSES);
    private final AtomicLongArray mmRefusals = new AtomicLongArray(MM_SCOPES.length);

    void response(final int status)
    {
        if (status >= 0 && status < STATUSES)
        {
            responses.incrementAndGet(status);
        }
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
        text.family("venue_mm_window_refusals_total", "counter", "MM requests refused by a full window (spec 8.2), by window");
        for (int i = 0; i < MM_SCOPES.length; i++)
        {
            text.sample("venue_mm_window_refusals_total", "scope", MM_SCOPES[i], mmRefusals.get(i));
        }
    }
}
