package io.venue.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.venue.feed.FeedHarness.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Resuming inside the window gives exactly the missed frames; a cursor the window cannot serve, a snapshot. */
class FeedResumeTest
{
    @TempDir
    Path folder;

    private static void commands(final EventScript script, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final long n = script.sequence();
            script.command(10_000 + n).delta(1, 0, (int)(n % 2), 100_000 + 10_000 * (n % 7), 1_000 * (n % 5))
                .trade(1, 0, n, 1, n + 1_000, 2, 100_000, 1_000, 0, 0).commit();
        }
    }

    private static Map<String, Object> json(final String text)
    {
        return TestJson.object(text);
    }

    @Test
    void aCursorInsideTheWindowGetsTheMissedFramesThenLiveWithNoDuplicateAndNoHole()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.windowFrames(8));
            final Recorder always = new Recorder();
            FeedHarness.subscribe(feed, always, null, 1, List.of("book.1"), null);
            commands(script, 20);
            pump(feed);

            final Recorder back = new Recorder();
            final Map<String, Object> ack = FeedHarness.subscribe(feed, back, null, 2, List.of("book.1"),
                Map.of("book.1", new Feed.Cursor(feed.epoch(), 15)));
            assertEquals(Map.of("book.1", "resumed"), ack.get("channels"));
            final Map<String, Object> gap = json(back.all.get(1));
            assertEquals("gap_fill", gap.get("type"));
            assertEquals(16L, gap.get("fromSeq"));
            assertEquals(20L, gap.get("toSeq"));
            commands(script, 3);
            pump(feed);

            final List<Long> seqs = new ArrayList<>();
            for (final String frame : back.dataFrames("book.1"))
            {
                seqs.add((Long)json(frame).get("seq"));
            }
            assertEquals(List.of(16L, 17L, 18L, 19L, 20L, 21L, 22L, 23L), seqs);
            final List<String> expected = always.dataFrames("book.1");
            assertEquals(expected.subList(15, 23), back.dataFrames("book.1"));
        }
    }

    @Test
    void aStaleCursorOrAnotherEpochGetsResumeRequiredThenASnapshot()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.windowFrames(8));
            final Recorder always = new Recorder();
            FeedHarness.subscribe(feed, always, null, 1, List.of("book.1"), null);
            commands(script, 20);
            pump(feed);
            final List<String> deltas = always.dataFrames("book.1");
            final Object lastChecksum = json(deltas.get(deltas.size() - 1)).get("checksum");

            final Feed.Cursor[] cursors = {new Feed.Cursor(feed.epoch(), 11), new Feed.Cursor("0123456789abcdef", 18),
                new Feed.Cursor(feed.epoch(), 21), new Feed.Cursor(null, 18), new Feed.Cursor(feed.epoch(), -3)};
            for (final Feed.Cursor cursor : cursors)
            {
                final Recorder late = new Recorder();
                final Map<String, Object> ack = FeedHarness.subscribe(feed, late, null, 2, List.of("book.1"),
                    Map.of("book.1", cursor));
                assertEquals(Map.of("book.1", "resume_required"), ack.get("channels"), cursor.toString());
                final Map<String, Object> notice = json(late.all.get(1));
                assertEquals("resume_required", notice.get("type"));
                assertEquals(13L, notice.get("oldestSeq"), "the window holds 13 to 20");
                assertEquals("snapshot", notice.get("then"));
                final Map<String, Object> snapshot = json(late.all.get(2));
                assertEquals("snapshot", snapshot.get("type"));
                assertEquals(20L, snapshot.get("seq"));
                assertEquals(lastChecksum, snapshot.get("checksum"));
                assertEquals(3, late.all.size());
            }
        }
    }

    @Test
    void aChannelWithoutStateResumesOrGoesLive()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.windowFrames(8));
            final Recorder always = new Recorder();
            FeedHarness.subscribe(feed, always, null, 1, List.of("trades.1", "bbo.1"), null);
            commands(script, 20);
            pump(feed);

            final Recorder stale = new Recorder();
            final Map<String, Object> ack = FeedHarness.subscribe(feed, stale, null, 2, List.of("trades.1"),
                Map.of("trades.1", new Feed.Cursor(feed.epoch(), 2)));
            assertEquals(Map.of("trades.1", "resume_required"), ack.get("channels"));
            assertEquals("live", json(stale.all.get(1)).get("then"));
            assertEquals(2, stale.all.size(), "no snapshot of trades");
            commands(script, 1);
            pump(feed);
            assertEquals(List.of(always.dataFrames("trades.1").get(20)), stale.dataFrames("trades.1"));

            final Recorder fresh = new Recorder();
            final Map<String, Object> freshAck = FeedHarness.subscribe(feed, fresh, null, 3,
                List.of("trades.1", "bbo.1", "status"), null);
            assertEquals(Map.of("trades.1", "live", "bbo.1", "snapshot", "status", "live"),
                freshAck.get("channels"));
            assertEquals(2, fresh.all.size(), "the ack and the bbo snapshot");
            final Map<String, Object> bbo = json(fresh.all.get(1));
            assertEquals("snapshot", bbo.get("type"));
            final List<String> liveBbo = always.dataFrames("bbo.1");
            final Map<String, Object> last = json(liveBbo.get(liveBbo.size() - 1));
            assertEquals(last.get("bid"), bbo.get("bid"));
            assertEquals(last.get("ask"), bbo.get("ask"));
            assertEquals(last.get("seq"), bbo.get("seq"));
        }
    }
}
