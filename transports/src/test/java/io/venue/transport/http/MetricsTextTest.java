package io.venue.transport.http;

import org.junit.jupiter.api.Test;

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
        final MetricsText text = new MetricsText();
        counters.appendTo(text);
        assertEquals("""
            # HELP venue_http_responses_total HTTP answers of the lane by status, since the lane started
            # TYPE venue_http_responses_total counter
            venue_http_responses_total{status="200"} 2
            venue_http_responses_total{status="429"} 1
            # HELP venue_mm_window_refusals_total MM requests refused by a full window (spec 8.2), by window
            # TYPE venue_mm_window_refusals_total counter
            venue_mm_window_refusals_total{scope="account"} 0
            venue_mm_window_refusals_total{scope="account_cancels"} 0
            venue_mm_window_refusals_total{scope="api_key"} 0
            venue_mm_window_refusals_total{scope="ip"} 0
            venue_mm_window_refusals_total{scope="market"} 1
            venue_mm_window_refusals_total{scope="shard"} 0
            venue_mm_window_refusals_total{scope="builder_plan"} 0
            """, text.toString());
    }

    @Test
    void refusesALabelValueThatWouldBreakTheFormat()
    {
        assertThrows(IllegalArgumentException.class, () -> new MetricsText().sample("m", "l", "a\"b", 1));
        assertThrows(IllegalArgumentException.class, () -> new MetricsText().sample("m", "l", "a\nb", 1));
    }
}
