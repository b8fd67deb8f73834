package io.venue.entry;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Refusals cross from the lanes to the sequencer in order, and a full ring counts what it could not take. */
class PreJournalRefusalsTest
{
    @Test
    void refusalsArriveInOrderAndOverflowIsCounted()
    {
        final PreJournalRefusals refusals = new PreJournalRefusals(1024);
        final List<String> seen = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            refusals.offer(7, i, 4, "edge throttle " + i);
        }
        final long dropped = refusals.notJournaled();
        int read;
        while ((read = refusals.poll((connection, correlation, reason, detail) ->
            seen.add(connection + " " + correlation + " " + reason + " " + detail), 10)) > 0)
        {
            assertEquals(true, read <= 10);
        }
        assertEquals(100, seen.size() + dropped, "every refusal is either delivered or counted");
        assertEquals(true, dropped > 0, "1 KiB holds fewer than 100");
        for (int i = 0; i < seen.size(); i++)
        {
            assertEquals("7 " + i + " 4 edge throttle " + i, seen.get(i));
        }
        final PreJournalRefusals roomy = new PreJournalRefusals(64 * 1024);
        roomy.offer(1, 2, 4, "x".repeat(5_000));
        assertEquals(1, roomy.poll((connection, correlation, reason, detail) ->
        {
            assertEquals(1024, detail.getBytes(StandardCharsets.UTF_8).length, "detail capped");
            assertEquals(5_000, RefusalDetails.fullBytes(detail), "the cut says how long the detail was");
        }, 1));
    }
}
