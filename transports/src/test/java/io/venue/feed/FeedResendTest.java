package io.venue.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.venue.feed.FeedHarness.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Private resend: rebuilt from the event journal through the sparse index, marked resent, within its limits. */
class FeedResendTest
{
    @TempDir
    Path folder;

    /** {@code count} commands, each changing account 1's balance (and every third account 2's, in between). */
    private static void balances(final EventScript script, final int count, final int perExcerpt)
    {
        for (int i = 0; i < count; i++)
        {
            script.command(50_000 + i).balance(1, 1, 1_000 + i, i % 10);
            if (i % 3 == 0)
            {
                script.command(60_000 + i).balance(2, 1, 7, 7);
            }
            if (i % perExcerpt == perExcerpt - 1)
            {
                script.commit();
            }
        }
        script.commit();
    }

    private static Map<String, Object> resend(final MarketFeed feed, final Recorder client, final String account,
        final String channel, final long from, final long to)
    {
        final int answers = client.answers.size();
        assertEquals(true, feed.resend(client, account, 9, channel, from, to));
        pump(feed);
        assertEquals(answers + 1, client.answers.size());
        return client.lastAnswer();
    }

    /** A live frame as a resend writes it. */
    private static String resent(final String live)
    {
        final int ts = live.indexOf(",\"updates\"");
        return live.substring(0, ts) + ",\"resent\":true" + live.substring(ts);
    }

    @Test
    void aResendIsTheLiveFramesMarkedResent()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.indexInterval(16).indexEntries(1_000));
            final Recorder live = new Recorder();
            FeedHarness.subscribe(feed, live, EventScript.accountHex(1), 1, List.of("balances"), null);
            balances(script, 300, 7);
            pump(feed);
            final List<String> frames = live.dataFrames("balances");
            assertEquals(300, frames.size());

            final Recorder client = new Recorder();
            final Map<String, Object> ack = resend(feed, client, EventScript.accountHex(1), "balances", 100, 250);
            assertEquals(Map.of("type", "ack", "id", 9L, "resend", Map.of("ch", "balances", "fromSeq", 100L,
                "toSeq", 250L)), ack);
            final List<String> expected = new ArrayList<>();
            for (final String frame : frames.subList(99, 250))
            {
                expected.add(resent(frame));
            }
            assertEquals(expected, client.all.subList(1, client.all.size()));

            // the last frame alone, and a range starting on an index entry
            client.clear();
            resend(feed, client, EventScript.accountHex(1), "balances", 300, 300);
            assertEquals(List.of(resent(frames.get(299))), client.all.subList(1, client.all.size()));
            client.clear();
            resend(feed, client, EventScript.accountHex(1), "balances", 17, 17);
            assertEquals(List.of(resent(frames.get(16))), client.all.subList(1, client.all.size()));
        }
    }

    /**
     * A feed numbers the frames of an account nobody subscribes to without writing them; resent, and live once a
     * subscriber comes, they are the frames a feed that had a subscriber all along wrote.
     */
    @Test
    void framesNobodyTookAreNumberedAndResentAsASubscriberWouldHaveSeenThem()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed listened = FeedHarness.feed(script, ctx -> ctx.indexInterval(16).indexEntries(1_000));
            final MarketFeed quiet = FeedHarness.feed(script, ctx -> ctx.indexInterval(16).indexEntries(1_000));
            final Recorder all = new Recorder();
            FeedHarness.subscribe(listened, all, EventScript.accountHex(1), 1, List.of("balances"), null);
            balances(script, 100, 7);
            pump(listened);
            pump(quiet);
            final List<String> frames = all.dataFrames("balances");
            assertEquals(100, frames.size());

            final Recorder client = new Recorder();
            resend(quiet, client, EventScript.accountHex(1), "balances", 1, 100);
            final List<String> expected = new ArrayList<>();
            for (final String frame : frames)
            {
                expected.add(resent(frame));
            }
            assertEquals(expected, client.all.subList(1, client.all.size()));

            final Recorder late = new Recorder();
            FeedHarness.subscribe(quiet, late, EventScript.accountHex(1), 2, List.of("balances"), null);
            balances(script, 20, 3);
            pump(listened);
            pump(quiet);
            assertEquals(all.dataFrames("balances").subList(100, 120), late.dataFrames("balances"));
        }
    }

    @Test
    void aPrivateCursorResumesWithTheMissedFrames()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.indexInterval(16).indexEntries(1_000));
            final Recorder live = new Recorder();
            FeedHarness.subscribe(feed, live, EventScript.accountHex(1), 1, List.of("balances"), null);
            balances(script, 100, 5);
            pump(feed);
            final Recorder back = new Recorder();
            final Map<String, Object> ack = FeedHarness.subscribe(feed, back, EventScript.accountHex(1), 2,
                List.of("balances"), Map.of("balances", new Feed.Cursor(feed.epoch(), 60)));
            assertEquals(Map.of("balances", "resumed"), ack.get("channels"));
            assertEquals("{\"type\":\"gap_fill\",\"ch\":\"balances\",\"fromSeq\":61,\"toSeq\":100}", back.all.get(1));
            balances(script, 5, 1);
            pump(feed);
            assertEquals(live.dataFrames("balances").subList(60, 105), back.dataFrames("balances"));

            final Recorder foreign = new Recorder();
            assertEquals(Map.of("balances", "resume_required"), FeedHarness.subscribe(feed, foreign,
                EventScript.accountHex(1), 3, List.of("balances"),
                Map.of("balances", new Feed.Cursor("ffffffffffffffff", 60))).get("channels"));
            assertEquals("{\"type\":\"resume_required\",\"ch\":\"balances\",\"epoch\":\"" + feed.epoch() +
                "\",\"oldestSeq\":1,\"then\":\"live\"}", foreign.all.get(1));
        }
    }

    @Test
    void resendLimits()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.indexInterval(100).indexEntries(100));
            balances(script, 10_250, 500);
            pump(feed);
            final String one = EventScript.accountHex(1);
            final Recorder client = new Recorder();
            assertEquals("INVALID_RANGE", resend(feed, client, one, "balances", 0, 5).get("code"));
            assertEquals("INVALID_RANGE", resend(feed, client, one, "balances", 5, 4).get("code"));
            assertEquals("RANGE_TOO_LARGE", resend(feed, client, one, "balances", 201, 10_201).get("code"));
            assertEquals("RANGE_NOT_AVAILABLE", resend(feed, client, one, "balances", 10_200, 10_251).get("code"));
            assertEquals("RANGE_NOT_AVAILABLE", resend(feed, client, one, "balances", 300, 400).get("code"),
                "older than the index keeps (its entries start at 301)");
            assertEquals("RANGE_NOT_AVAILABLE", resend(feed, client, one, "orders", 1, 1).get("code"));
            assertEquals("NOT_PRIVATE_CHANNEL", resend(feed, client, one, "book.1", 1, 1).get("code"));
            assertEquals("UNKNOWN_CHANNEL", resend(feed, client, one, "balance", 1, 1).get("code"));
            assertEquals("AUTH_REQUIRED", resend(feed, client, null, "balances", 1, 1).get("code"));
            assertEquals("INVALID_ACCOUNT", resend(feed, client, "0x12", "balances", 1, 1).get("code"));
            assertEquals(List.of(), client.frames);

            final Map<String, Object> ack = resend(feed, client, one, "balances", 251 + 50, 10_250);
            assertEquals("ack", ack.get("type"));
            assertEquals(9_950, client.frames.size());
            long seq = 301;
            for (final FeedFrame frame : client.frames)
            {
                assertEquals(seq++, frame.seq());
            }
            assertEquals(List.of(), FeedHarness.ERRORS);
        }
    }

    /**
     * A resend runs on the resends' thread: while one is held up (its client's first frame blocks), the feed's thread
     * goes on publishing live frames, and a resend beyond the ones served at once is refused RESEND_BUSY, changing
     * nothing; once released, the held resend's frames all arrive, in order, marked resent.
     */
    @Test
    void aResendRunsOffTheFeedsThreadSoLiveFramesGoOn() throws Exception
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.indexInterval(16).indexEntries(1_000)
                .resendsAtOnce(1));
            final Recorder live = new Recorder();
            FeedHarness.subscribe(feed, live, EventScript.accountHex(1), 1, List.of("balances"), null);
            balances(script, 200, 7);
            pump(feed);
            final CountDownLatch entered = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final Recorder held = new Recorder()
            {
                @Override
                public void onFrame(final FeedFrame frame)
                {
                    entered.countDown();
                    try
                    {
                        assertTrue(release.await(30, TimeUnit.SECONDS));
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                    super.onFrame(frame);
                }
            };
            assertTrue(feed.resend(held, EventScript.accountHex(1), 9, "balances", 1, 200));
            feed.doWork(); // the ack, and the resend handed over
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the resend started on its own thread");

            balances(script, 50, 5);
            int idle = 0;
            while (idle < 2)
            {
                idle = feed.doWork() == 0 ? idle + 1 : 0;
            }
            assertEquals(250, live.dataFrames("balances").size(), "live frames went on while the resend was held");

            final Recorder second = new Recorder();
            assertTrue(feed.resend(second, EventScript.accountHex(1), 10, "balances", 1, 1));
            feed.doWork();
            assertEquals("RESEND_BUSY", second.lastAnswer().get("code"));
            assertEquals(List.of(), second.frames);

            release.countDown();
            pump(feed);
            final List<String> expected = new ArrayList<>();
            for (final String frame : live.dataFrames("balances").subList(0, 200))
            {
                expected.add(resent(frame));
            }
            assertEquals(expected, held.all.subList(1, held.all.size()));
            assertEquals(List.of(), FeedHarness.ERRORS);
        }
    }
}
