package io.venue.feed;

import io.venue.journal.sbe.KillScope;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.RejectCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** Makes feeds over a test's journals and runs their duty cycle on the test's thread. */
final class FeedHarness
{
    static final List<Throwable> ERRORS = new ArrayList<>();

    private FeedHarness()
    {
    }

    static MarketFeed feed(final EventScript script, final Consumer<MarketFeed.Context> tune)
    {
        final MarketFeed.Context ctx = new MarketFeed.Context().events(script.events).commands(script.commands)
            .errorHandler(ERRORS::add);
        tune.accept(ctx);
        final MarketFeed feed = new MarketFeed(ctx);
        feed.onStart();
        return feed;
    }

    static MarketFeed feed(final EventScript script)
    {
        return feed(script, ctx -> { });
    }

    /** Runs duty cycles until the feed has nothing left to do, and its resends (on their own thread) are sent. */
    static void pump(final MarketFeed feed)
    {
        int idle = 0;
        while (idle < 2)
        {
            idle = feed.doWork() == 0 ? idle + 1 : 0;
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (feed.resendsPending() > 0)
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("resends still pending after 30 s: " + feed.resendsPending());
            }
            Thread.onSpinWait();
        }
    }

    static Map<String, Object> subscribe(final MarketFeed feed, final Recorder recorder, final String account,
        final long id, final List<String> channels, final Map<String, Feed.Cursor> resume)
    {
        final int before = recorder.answers.size();
        assertEquals(true, feed.subscribe(recorder, account, id, channels, resume));
        pump(feed);
        assertEquals(before + 1, recorder.answers.size(), "one answer");
        return recorder.lastAnswer();
    }

    static String book(final MarketFeed feed, final long market, final String book, final int depth)
    {
        final AtomicReference<String> body = new AtomicReference<>("unanswered");
        feed.book(market, book, depth, body::set);
        pump(feed);
        return body.get();
    }

    static String account(final MarketFeed feed, final String account, final String what)
    {
        final AtomicReference<String> body = new AtomicReference<>("unanswered");
        feed.account(account, what, body::set);
        pump(feed);
        assertNotNull(body.get());
        return body.get();
    }

    /**
     * A random stream of every kind of event the feed reads, the same for a seed whatever the grouping: market 1
     * (spot) and 2 (outcome), accounts 1 to 4. Markets are listed by the first command.
     */
    static void randomStream(final EventScript script, final long seed, final int commands,
        final Random grouping, final int maxGroup, final Runnable onCommit)
    {
        final Random random = new Random(seed);
        long order = 1;
        int group = 1;
        for (int c = 0; c < commands; c++)
        {
            if (--group <= 0)
            {
                script.commit();
                onCommit.run();
                group = 1 + grouping.nextInt(maxGroup);
            }
            script.command(1_000 + 7L * c);
            if (random.nextInt(10) == 0)
            {
                // a command without events (refused before the engine, or one that changed nothing)
                continue;
            }
            final int events = 1 + random.nextInt(5);
            for (int e = 0; e < events; e++)
            {
                final long market = 1 + random.nextInt(2);
                final int book = market == 1 ? 0 : 1 + random.nextInt(2);
                final int side = random.nextInt(2);
                final long price = (95 + random.nextInt(10)) * 10_000L;
                final int a = 1 + random.nextInt(4);
                final int b = 1 + random.nextInt(4);
                final int kind = random.nextInt(11);
                if (kind < 3)
                {
                    script.delta(market, book, side, price, random.nextInt(4) * 1_000L);
                }
                else if (kind == 3)
                {
                    script.trade(market, book, order++, a, order++, b, price, 1_000L * (1 + random.nextInt(3)),
                        side, random.nextInt(3) * 1_000L);
                }
                else if (kind == 4)
                {
                    script.accepted(order, a, market, book, side, price, 5_000, 5_000);
                }
                else if (kind == 5)
                {
                    script.rested(order - 1, a, market, book, side, price, 5_000, 3_000);
                }
                else if (kind == 6)
                {
                    script.done(order - 2, a, market, OrderDoneReason.get((short)random.nextInt(9)),
                        random.nextInt(2) * 1_000L);
                }
                else if (kind == 7)
                {
                    script.balance(a, 1 + random.nextInt(2), random.nextInt(1_000_000), random.nextInt(1_000));
                }
                else if (kind == 8)
                {
                    script.position(a, 2, random.nextInt(10_000), random.nextInt(10_000));
                }
                else if (kind == 9)
                {
                    script.rejected(a, random.nextInt(100), RejectCode.get((short)(1 + random.nextInt(35))));
                }
                else if (random.nextBoolean())
                {
                    script.halted(market, random.nextBoolean());
                }
                else
                {
                    script.kill(KillScope.get((short)random.nextInt(3)), a, market, random.nextBoolean());
                }
            }
        }
        script.commit();
        onCommit.run();
    }

    /** The first command: market 1 (spot) and market 2 (outcome) listed, in an excerpt of its own. */
    static void listMarkets(final EventScript script)
    {
        script.command(1_000).market(1, false).market(2, true).commit();
    }

    static final List<String> PUBLIC = List.of("status", "book.1", "trades.1", "bbo.1", "book.2.YES", "book.2.NO",
        "trades.2.YES", "trades.2.NO", "bbo.2.YES", "bbo.2.NO");
    static final List<String> PRIVATE = List.of("orders", "fills", "balances");
}
