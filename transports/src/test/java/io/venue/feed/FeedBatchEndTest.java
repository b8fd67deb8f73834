package io.venue.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feed ends a subscriber's batch at the end of each duty cycle, after every frame of the cycle (all the commands it
 * read), and never leaves a frame without a batch end after it.
 */
class FeedBatchEndTest
{
    private static final String END = "END";

    @TempDir
    Path folder;

    /** Frames as their channel and seq, answers as ANSWER, batch ends as END, in the order they came. */
    private static final class Log implements FeedSubscriber
    {
        final List<String> calls = new ArrayList<>();

        @Override
        public synchronized void onFrame(final FeedFrame frame)
        {
            calls.add(frame.channel() + "#" + frame.seq());
        }

        @Override
        public synchronized void onAnswer(final byte[] json)
        {
            calls.add("ANSWER");
        }

        @Override
        public synchronized void onBatchEnd()
        {
            calls.add(END);
        }
    }

    @Test
    void oneBatchEndPerCycleAfterAllItsCommandsFrames()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script);
            assertTrue(feed.endsBatches());
            final Log log = new Log();
            assertTrue(feed.subscribe(log, null, 1, List.of("book.1"), null));
            feed.doWork();
            assertEquals(List.of("ANSWER", "book.1#0", END), log.calls, "the ack, the snapshot, the end");
            log.calls.clear();

            for (int i = 0; i < 3; i++)
            {
                script.command(5_000 + i).delta(1, 0, 0, 100_000 - i, 1_000 + i).commit();
            }
            feed.doWork();
            assertEquals(List.of("book.1#1", "book.1#2", "book.1#3"), log.calls.subList(0, 3),
                "three commands read in one cycle: their frames, then the batch's end");
            assertTrue(log.calls.size() > 3 && log.calls.subList(3, log.calls.size()).stream().allMatch(END::equals),
                "only ends after the frames: " + log.calls);
            log.calls.clear();
            assertEquals(0, feed.doWork());
            assertEquals(List.of(), log.calls, "no frame, no batch end");
        }
    }

    @Test
    void aCycleBoundedToOneExcerptEndsABatchPerCommand()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.excerptsPerCycle(1));
            final Log log = new Log();
            FeedHarness.subscribe(feed, new Recorder(), null, 9, List.of("book.1"), null);
            assertTrue(feed.subscribe(log, null, 1, List.of("book.1"), null));
            FeedHarness.pump(feed);
            log.calls.clear();
            for (int i = 0; i < 2; i++)
            {
                script.command(5_000 + i).delta(1, 0, 0, 100_000 - i, 1_000 + i).commit();
            }
            FeedHarness.pump(feed);
            assertEquals(List.of("book.1#1", END, "book.1#2", END), log.calls);
        }
    }
}
