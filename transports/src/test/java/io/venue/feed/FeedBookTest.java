package io.venue.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32;

import static io.venue.feed.FeedHarness.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A client's book built from a snapshot and the deltas after it is the feed's book, checksum by checksum. */
class FeedBookTest
{
    @TempDir
    Path folder;

    /** A client's copy of one book. */
    private static final class ClientBook
    {
        final TreeMap<Long, Long> bids = new TreeMap<>(Comparator.reverseOrder());
        final TreeMap<Long, Long> asks = new TreeMap<>();
        long seq = -1;

        @SuppressWarnings("unchecked")
        void apply(final Map<String, Object> frame)
        {
            if ("snapshot".equals(frame.get("type")))
            {
                bids.clear();
                asks.clear();
            }
            else
            {
                assertEquals(seq + 1, (long)(Long)frame.get("seq"), "deltas follow each other");
            }
            seq = (Long)frame.get("seq");
            side(bids, (List<Object>)frame.get("bids"));
            side(asks, (List<Object>)frame.get("asks"));
            assertEquals(checksum(), (long)(Long)frame.get("checksum"), "the checksum of the client's copy");
        }

        @SuppressWarnings("unchecked")
        private static void side(final TreeMap<Long, Long> levels, final List<Object> changes)
        {
            for (final Object change : changes)
            {
                final List<Object> level = (List<Object>)change;
                final long qty = (Long)level.get(1);
                if (qty == 0)
                {
                    levels.remove((Long)level.get(0));
                }
                else
                {
                    levels.put((Long)level.get(0), qty);
                }
            }
        }

        String text()
        {
            return side(bids) + "|" + side(asks);
        }

        private static String side(final TreeMap<Long, Long> levels)
        {
            final StringBuilder out = new StringBuilder();
            int n = 0;
            for (final Map.Entry<Long, Long> level : levels.entrySet())
            {
                if (n++ == 25)
                {
                    break;
                }
                out.append(n == 1 ? "" : ",").append(level.getKey()).append(':').append(level.getValue());
            }
            return out.toString();
        }

        long checksum()
        {
            final CRC32 crc = new CRC32();
            crc.update(text().getBytes(StandardCharsets.US_ASCII));
            return crc.getValue();
        }

        String levels()
        {
            return "bids=" + bids + " asks=" + asks;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void snapshotPlusDeltasIsTheFeedsBookAndEveryChecksumMatches()
    {
        final List<String> books = List.of("book.1", "book.2.YES", "book.2.NO");
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script);
            final Random grouping = new Random(3);
            // some history before the client comes, then the client, then the rest live
            FeedHarness.randomStream(script, 11, 300, grouping, 4, () -> { });
            pump(feed);
            final Recorder client = new Recorder();
            final Map<String, Object> ack = FeedHarness.subscribe(feed, client, null, 1, books, null);
            assertEquals(Map.of("book.1", "snapshot", "book.2.YES", "snapshot", "book.2.NO", "snapshot"),
                ack.get("channels"));
            FeedHarness.randomStream(script, 12, 1_500, grouping, 6, () -> pump(feed));

            int deltas = 0;
            final Map<String, ClientBook> copies = new TreeMap<>();
            for (final FeedFrame frame : client.frames)
            {
                copies.computeIfAbsent(frame.channel(), k -> new ClientBook())
                    .apply(TestJson.object(Recorder.text(frame.json())));
                deltas++;
            }
            assertTrue(deltas > 500, "deltas seen: " + deltas);
            for (final String name : books)
            {
                final ChannelName channel = ChannelName.parse(name);
                final Map<String, Object> rest = TestJson.object(FeedHarness.book(feed, channel.market(),
                    channel.book() == 0 ? null : channel.book() == 1 ? "YES" : "NO", 0));
                final ClientBook fromRest = new ClientBook();
                rest.put("type", "snapshot");
                fromRest.apply(rest);
                assertEquals(fromRest.levels(), copies.get(name).levels(), name);
                assertEquals(copies.get(name).seq, (long)(Long)rest.get("seq"), name + " seq");
            }
            assertEquals(List.of(), FeedHarness.ERRORS);
        }
    }

    @Test
    void aCommandThatChangesALevelTwiceSendsOneDeltaWithItsLastTotal()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script);
            final Recorder client = new Recorder();
            FeedHarness.subscribe(feed, client, null, 7, List.of("book.1"), null);
            script.command(5_000).delta(1, 0, 0, 100_000, 3_000).delta(1, 0, 1, 110_000, 1_000)
                .delta(1, 0, 0, 100_000, 2_000).delta(1, 0, 0, 90_000, 4_000).commit();
            pump(feed);
            assertEquals(2, client.frames.size());
            final Map<String, Object> delta = TestJson.object(Recorder.text(client.frames.get(1).json()));
            assertEquals("delta", delta.get("type"));
            assertEquals(1L, delta.get("seq"));
            assertEquals(script.sequence(), delta.get("engineSeq"));
            assertEquals(5_000L, delta.get("ts"), "the command's stamped time");
            assertEquals(List.of(List.of(100_000L, 2_000L), List.of(90_000L, 4_000L)), delta.get("bids"));
            assertEquals(List.of(List.of(110_000L, 1_000L)), delta.get("asks"));
        }
    }

    @Test
    void theRestBookCarriesTheChannelsSeqAndChecksumAtAnyDepth()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            script.command(3_000);
            for (int i = 0; i < 30; i++)
            {
                script.delta(2, 2, 0, 500_000 - 10_000 * i, 1_000 + i).delta(2, 2, 1, 510_000 + 10_000 * i, 2_000);
            }
            script.commit();
            script.command(3_001).delta(2, 2, 0, 500_000, 9_000).commit();
            final MarketFeed feed = FeedHarness.feed(script);
            final Map<String, Object> book = TestJson.object(FeedHarness.book(feed, 2, "NO", 2));
            assertEquals(List.of(List.of(500_000L, 9_000L), List.of(490_000L, 1_001L)), book.get("bids"));
            assertEquals(List.of(List.of(510_000L, 2_000L), List.of(520_000L, 2_000L)), book.get("asks"));
            assertEquals(2L, book.get("seq"));
            assertEquals(3L, book.get("engineSeq"));
            assertEquals(3_001L, book.get("ts"));
            assertEquals("book.2.NO", book.get("ch"));
            final L2Book expected = new L2Book();
            for (int i = 0; i < 30; i++)
            {
                expected.set(0, 500_000 - 10_000 * i, i == 0 ? 9_000 : 1_000 + i);
                expected.set(1, 510_000 + 10_000 * i, 2_000);
            }
            assertEquals(new BookChecksum().of(expected), book.get("checksum"), "the checksum is of 25 levels");
            assertEquals(null, FeedHarness.book(feed, 2, null, 5), "an outcome market has no spot book");
            assertEquals(null, FeedHarness.book(feed, 1, "YES", 5));
            assertEquals(null, FeedHarness.book(feed, 9, null, 5));
        }
    }

    @Test
    void framesWaitForTheCommandJournalThatStampsTheirTime()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script);
            final Recorder client = new Recorder();
            FeedHarness.subscribe(feed, client, null, 1, List.of("book.1"), null);
            script.holdCommands();
            script.command(4_000).delta(1, 0, 0, 100_000, 1_000).commit();
            script.command(4_001).delta(1, 0, 0, 100_000, 2_000).commit();
            pump(feed);
            assertEquals(1, client.frames.size(), "only the snapshot: the commands are not journaled yet");
            script.releaseCommands();
            pump(feed);
            assertEquals(3, client.frames.size());
            assertEquals(4_000L, TestJson.object(Recorder.text(client.frames.get(1).json())).get("ts"));
            assertEquals(4_001L, TestJson.object(Recorder.text(client.frames.get(2).json())).get("ts"));
        }
    }

    @Test
    void framesWaitUntilTheirCommandIsReleasedToReaders()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final AtomicLong released = new AtomicLong(script.sequence());
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.released(released::get));
            final Recorder client = new Recorder();
            FeedHarness.subscribe(feed, client, null, 1, List.of("book.1"), null);
            script.command(4_000).delta(1, 0, 0, 100_000, 1_000).commit();
            script.command(4_001).delta(1, 0, 0, 100_000, 2_000).commit();
            pump(feed);
            assertEquals(1, client.frames.size(), "only the snapshot: a synchronous standby holds neither command");
            released.set(script.sequence() - 1);
            pump(feed);
            assertEquals(2, client.frames.size(), "the first command's frame, not the second's");
            assertEquals(TestJson.object(Recorder.text(client.frames.get(1).json())).get("seq"),
                TestJson.object(FeedHarness.book(feed, 1, null, 5)).get("seq"), "the REST book is the released one");
            released.set(script.sequence());
            pump(feed);
            assertEquals(3, client.frames.size());
        }
    }
}
