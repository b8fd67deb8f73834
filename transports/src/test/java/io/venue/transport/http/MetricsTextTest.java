package io.venue.transport.http;

import org.junit.jupiter.api.Test;
import io.venue.codec.MetricsText;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MetricsTextTest
{
    @Test
    void writesFamiliesAndSamplesInTheTextFormat()
    {
        final LaneCounters counters = new LaneCounters();
        counters.response(200);
        counters.response(200);
        counters.response(429);
        counters.response(999); // outside the status range: not counted, no failure
        counters.mmRefusal("market");
        counters.mmRefusal("no such scope");
        counters.submitAnswered(90_000); // 90 us
        counters.submitAnswered(100_000); // a bound is its own bucket's
        counters.submitAnswered(1_500_000);
        counters.submitAnswered(500_000_000); // past the last bound
        counters.openConnections.set(3);
        counters.connectionRefused(true);
        counters.closedByDeadline(ConnectionDeadlines.Reason.IDLE);
        counters.closedByDeadline(ConnectionDeadlines.Reason.IDLE);
        final MetricsText text = new MetricsText();
        counters.appendTo(text);
        // CHECKSTYLE.OFF: LineLength - the expected text is the metrics route's, line for line
        assertEquals("""
            # HELP venue_http_responses_total HTTP answers of the lane by status, since the lane started
            # TYPE venue_http_responses_total counter
            venue_http_responses_total{status="200"} 2
            venue_http_responses_total{status="429"} 1
            # HELP venue_http_submit_latency_us Trading-route submits by the microseconds from the whole request read to its answer handed to the socket, since the lane started
            # TYPE venue_http_submit_latency_us histogram
            venue_http_submit_latency_us_bucket{le="100"} 2
            venue_http_submit_latency_us_bucket{le="250"} 2
            venue_http_submit_latency_us_bucket{le="500"} 2
            venue_http_submit_latency_us_bucket{le="1000"} 2
            venue_http_submit_latency_us_bucket{le="2000"} 3
            venue_http_submit_latency_us_bucket{le="5000"} 3
            venue_http_submit_latency_us_bucket{le="10000"} 3
            venue_http_submit_latency_us_bucket{le="25000"} 3
            venue_http_submit_latency_us_bucket{le="50000"} 3
            venue_http_submit_latency_us_bucket{le="100000"} 3
            venue_http_submit_latency_us_bucket{le="+Inf"} 4
            venue_http_submit_latency_us_sum 501690
            venue_http_submit_latency_us_count 4
            # HELP venue_mm_window_refusals_total MM requests refused by a full window (spec 8.2), by window
            # TYPE venue_mm_window_refusals_total counter
            venue_mm_window_refusals_total{scope="account"} 0
            venue_mm_window_refusals_total{scope="account_cancels"} 0
            venue_mm_window_refusals_total{scope="api_key"} 0
            venue_mm_window_refusals_total{scope="ip"} 0
            venue_mm_window_refusals_total{scope="market"} 1
            venue_mm_window_refusals_total{scope="shard"} 0
            venue_mm_window_refusals_total{scope="builder_plan"} 0
            # HELP venue_http_connections_open HTTP connections open now
            # TYPE venue_http_connections_open gauge
            venue_http_connections_open 3
            # HELP venue_http_connections_refused_total HTTP connections refused at accept over a cap, by cap
            # TYPE venue_http_connections_refused_total counter
            venue_http_connections_refused_total{cap="address"} 1
            venue_http_connections_refused_total{cap="total"} 0
            # HELP venue_http_connections_timed_out_total HTTP connections closed by a read deadline, by what the client had not sent in time
            # TYPE venue_http_connections_timed_out_total counter
            venue_http_connections_timed_out_total{deadline="header"} 0
            venue_http_connections_timed_out_total{deadline="body"} 0
            venue_http_connections_timed_out_total{deadline="idle"} 2
            """, text.toString());
        // CHECKSTYLE.ON: LineLength
    }

    @Test
    void refusesALabelValueThatWouldBreakTheFormat()
    {
        assertThrows(IllegalArgumentException.class, () -> new MetricsText().sample("m", "l", "a\"b", 1));
        assertThrows(IllegalArgumentException.class, () -> new MetricsText().sample("m", "l", "a\nb", 1));
    }
}
