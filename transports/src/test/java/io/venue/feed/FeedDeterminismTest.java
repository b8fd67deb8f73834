package io.venue.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.venue.feed.FeedHarness.PRIVATE;
import static io.venue.feed.FeedHarness.PUBLIC;
import static io.venue.feed.FeedHarness.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames are a function of the journals alone: a second feed, started after the fact on the same events grouped
 * into other excerpts, rebuilds and resends exactly the frames a live subscriber of the first received.
 */
class FeedDeterminismTest
{
    @TempDir
    Path folder;

    private static Map<String, Feed.Cursor> fromStart(final String epoch, final List<String> channels)
    {
        final Map<String, Feed.Cursor> cursors = new HashMap<>();
        for (final String channel : channels)
        {
            cursors.put(channel, new Feed.Cursor(epoch, 0));
        }
        return cursors;
    }

    @Test
    void aFeedRebuiltFromTheJournalsSendsTheFramesALiveSubscriberReceived()
    {
        try (EventScript live = new EventScript(folder.resolve("a"));
            EventScript other = new EventScript(folder.resolve("b")))
        {
            FeedHarness.listMarkets(live);
            final MarketFeed feedA = FeedHarness.feed(live);
            final Recorder publicA = new Recorder();
            FeedHarness.subscribe(feedA, publicA, null, 1, PUBLIC, null);
            final Recorder[] privateA = new Recorder[5];
            for (int a = 1; a <= 4; a++)
            {
                privateA[a] = new Recorder();
                FeedHarness.subscribe(feedA, privateA[a], EventScript.accountHex(a), 2, PRIVATE, null);
            }
            FeedHarness.randomStream(live, 5, 2_000, new Random(1), 1, () -> pump(feedA));

            // the same events, other excerpts, and a feed that starts only once they are all written
            FeedHarness.listMarkets(other);
            FeedHarness.randomStream(other, 5, 2_000, new Random(2), 9, () -> { });
            final MarketFeed feedB = FeedHarness.feed(other);
            assertEquals(feedA.epoch(), feedB.epoch(), "the epoch comes from the journal");
            assertEquals(16, feedA.epoch().length());

            final Recorder publicB = new Recorder();
            final Map<String, Object> ack = FeedHarness.subscribe(feedB, publicB, null, 3, PUBLIC,
                fromStart(feedB.epoch(), PUBLIC));
            int frames = 0;
            for (final String channel : PUBLIC)
            {
                assertEquals("resumed", ((Map<?, ?>)ack.get("channels")).get(channel), channel);
                final List<String> expected = publicA.dataFrames(channel);
                // the live subscriber came after the listings' status frame (seq 1); the rebuilt feed resends it
                final List<String> rebuilt = publicB.dataFrames(channel);
                sameFrames(expected, rebuilt.subList(rebuilt.size() - expected.size(), rebuilt.size()), channel);
                oneFramePerCommand(rebuilt);
                frames += expected.size();
            }
            assertTrue(frames > 2_000, "public frames: " + frames);

            for (int a = 1; a <= 4; a++)
            {
                final Recorder privateB = new Recorder();
                final Map<String, Object> privateAck = FeedHarness.subscribe(feedB, privateB,
                    EventScript.accountHex(a), 4, PRIVATE, fromStart(feedB.epoch(), PRIVATE));
                for (final String channel : PRIVATE)
                {
                    assertEquals("resumed", ((Map<?, ?>)privateAck.get("channels")).get(channel));
                    final List<String> expected = privateA[a].dataFrames(channel);
                    assertFalse(expected.isEmpty(), channel);
                    sameFrames(expected, privateB.dataFrames(channel), channel + " of account " + a);
                    oneFramePerCommand(expected);
                }
            }
            assertEquals(List.of(), FeedHarness.ERRORS);
            feedA.close();
            feedB.close();
        }
    }

    /** The same frames, or the first that differs. */
    private static void sameFrames(final List<String> expected, final List<String> actual, final String what)
    {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
        {
            assertEquals(expected.get(i), actual.get(i), what + " frame " + i);
        }
        assertEquals(expected.size(), actual.size(), what + " frames");
    }

    /** Each frame of a channel is of a later command than the one before, and seq goes up by one from 1. */
    private static void oneFramePerCommand(final List<String> frames)
    {
        long engineSeq = 0;
        long seq = 0;
        for (final String text : frames)
        {
            final Map<String, Object> frame = TestJson.object(text);
            assertTrue((Long)frame.get("engineSeq") > engineSeq, text);
            assertEquals(seq + 1, (long)(Long)frame.get("seq"), text);
            engineSeq = (Long)frame.get("engineSeq");
            seq = (Long)frame.get("seq");
        }
    }

    @Test
    void aNewJournalHasAnotherEpoch()
    {
        try (EventScript first = new EventScript(folder.resolve("a"));
            EventScript second = new EventScript(folder.resolve("b")))
        {
            first.command(1_000).market(1, false).commit();
            second.command(1_000).market(2, false).commit();
            final MarketFeed a = FeedHarness.feed(first);
            final MarketFeed b = FeedHarness.feed(second);
            assertNotEquals(a.epoch(), b.epoch());
            final MarketFeed again = FeedHarness.feed(first);
            assertEquals(a.epoch(), again.epoch());
            a.close();
            b.close();
            again.close();
        }
    }
}
