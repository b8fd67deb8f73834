package io.venue.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.venue.feed.FeedHarness.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random requests — channel names, cursors, accounts, ranges, REST arguments — each get one answer, an ack or an
 * error with a documented code, never an exception; an error changes nothing and sends no frame.
 */
class FeedRequestFuzzTest
{
    private static final Set<String> CODES = Set.of(Arrays.stream(FeedError.values()).map(Enum::name)
        .toArray(String[]::new));

    @TempDir
    Path folder;

    private static String randomText(final Random random)
    {
        final String[] pieces = {"book", "trades", "bbo", "status", "orders", "fills", "balances", ".", "1", "2", "0",
            "01", "YES", "NO", "yes", "4294967296", "-", " ", "\"", "\\", "\u0000", "é", "x"};
        final StringBuilder out = new StringBuilder();
        final int n = random.nextInt(6);
        for (int i = 0; i < n; i++)
        {
            out.append(pieces[random.nextInt(pieces.length)]);
        }
        return random.nextInt(50) == 0 ? "book.1".repeat(200) : out.toString();
    }

    private static String channel(final Random random)
    {
        final int pick = random.nextInt(4);
        if (pick == 0)
        {
            return randomText(random);
        }
        if (pick == 3 && random.nextInt(10) == 0)
        {
            return null;
        }
        final List<String> valid = new ArrayList<>(FeedHarness.PUBLIC);
        valid.addAll(FeedHarness.PRIVATE);
        valid.add("book.3");
        valid.add("book.1.YES");
        return valid.get(random.nextInt(valid.size()));
    }

    private static String account(final Random random)
    {
        switch (random.nextInt(5))
        {
            case 0:
                return null;
            case 1:
                return randomText(random);
            case 2:
                return EventScript.accountHex(1).toUpperCase();
            default:
                return EventScript.accountHex(1 + random.nextInt(5));
        }
    }

    private static long number(final Random random)
    {
        final long[] edges = {Long.MIN_VALUE, -1, 0, 1, 2, 10_000, 10_001, Long.MAX_VALUE};
        return random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextInt(400) - 50;
    }

    private static String state(final MarketFeed feed)
    {
        return FeedHarness.book(feed, 1, null, 0) + FeedHarness.book(feed, 2, "YES", 3) +
            FeedHarness.account(feed, EventScript.accountHex(1), "orders") +
            FeedHarness.account(feed, EventScript.accountHex(2), "balances") + feed.lastCommand();
    }

    @Test
    void everyRequestGetsAnAckOrADocumentedErrorAndErrorsChangeNothing()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            FeedHarness.randomStream(script, 21, 400, new Random(4), 3, () -> { });
            final MarketFeed feed = FeedHarness.feed(script, ctx -> ctx.windowFrames(50).indexInterval(10)
                .indexEntries(1_000));
            final Recorder watcher = new Recorder();
            FeedHarness.subscribe(feed, watcher, null, 0, FeedHarness.PUBLIC, null);
            final String before = state(feed);
            final Random random = new Random(77);
            int acks = 0;
            int errors = 0;
            for (int i = 0; i < 3_000; i++)
            {
                final Recorder client = new Recorder();
                final String account = account(random);
                final int kind = random.nextInt(4);
                if (kind == 3)
                {
                    final String body = restRead(feed, random);
                    if (null != body)
                    {
                        TestJson.parse(body);
                    }
                    continue;
                }
                if (kind == 2)
                {
                    assertTrue(feed.resend(client, account, i, channel(random), number(random), number(random)));
                }
                else
                {
                    final List<String> channels = new ArrayList<>();
                    final int n = random.nextInt(20) == 0 ? 300 : random.nextInt(4);
                    for (int c = 0; c < n; c++)
                    {
                        channels.add(channel(random));
                    }
                    final Map<String, Feed.Cursor> resume = new HashMap<>();
                    for (final String channel : channels)
                    {
                        if (null != channel && random.nextBoolean())
                        {
                            resume.put(channel, new Feed.Cursor(random.nextBoolean() ? feed.epoch() :
                                randomText(random), number(random)));
                        }
                    }
                    assertTrue(feed.subscribe(client, account, i, random.nextInt(30) == 0 ? null : channels,
                        random.nextInt(10) == 0 ? null : resume));
                }
                pump(feed);
                assertEquals(1, client.answers.size(), "one answer to request " + i);
                final Map<String, Object> answer = TestJson.object(client.answers.get(0));
                assertEquals((long)i, answer.get("id"));
                if ("error".equals(answer.get("type")))
                {
                    errors++;
                    assertTrue(CODES.contains((String)answer.get("code")), answer.toString());
                    assertNotNull(answer.get("message"));
                    assertEquals(List.of(), client.frames, "an error sends no frame");
                }
                else
                {
                    acks++;
                    assertEquals("ack", answer.get("type"));
                    for (final FeedFrame frame : client.frames)
                    {
                        TestJson.parse(Recorder.text(frame.json()));
                    }
                }
                feed.remove(client);
                pump(feed);
            }
            assertTrue(acks > 300 && errors > 300, acks + " acks, " + errors + " errors");
            assertEquals(Set.of(watcher), feed.subscribers().keySet(), "every fuzzing connection was forgotten");
            assertEquals(before, state(feed), "requests change no state");
            assertEquals(List.of(), FeedHarness.ERRORS);
        }
    }

    private static String restRead(final MarketFeed feed, final Random random)
    {
        final String[] books = {null, "YES", "NO", "yes", ""};
        final String[] what = {"orders", "balances", "positions", "nope", null};
        final int pick = random.nextInt(3);
        if (pick == 0)
        {
            return FeedHarness.book(feed, number(random), books[random.nextInt(books.length)], (int)number(random));
        }
        if (pick == 1)
        {
            final String[] body = {"unanswered"};
            feed.trades(number(random), books[random.nextInt(books.length)], (int)number(random), b -> body[0] = b);
            pump(feed);
            assertTrue(!"unanswered".equals(body[0]));
            return body[0];
        }
        final String[] body = {"unanswered"};
        feed.account(account(random), what[random.nextInt(what.length)], b -> body[0] = b);
        pump(feed);
        assertTrue(!"unanswered".equals(body[0]));
        return body[0];
    }
}
