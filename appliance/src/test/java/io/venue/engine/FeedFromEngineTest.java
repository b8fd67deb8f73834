package io.venue.engine;

import io.venue.action.Side;
import io.venue.engine.book.OrderBook;
import io.venue.feed.Feed;
import io.venue.feed.FeedFrame;
import io.venue.feed.FeedSubscriber;
import io.venue.feed.MarketFeed;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The market feed over journals the real engine wrote: its books, checksums, open orders and balances are the
 * engine's own state at the end of a trading stream, and a feed rebuilt from the same events in other excerpts sends
 * the same frames.
 */
class FeedFromEngineTest
{
    private static final Pattern ORDER = Pattern.compile(
        "\\{\"orderId\":\"0x([0-9a-f]{64})\",\"market\":(\\d+),(?:\"book\":\"(?:YES|NO)\",)?\"side\":\"(buy|sell)\"," +
        "\"price\":(\\d+),\"qty\":\\d+,\"remaining\":(\\d+)\\}");

    @TempDir
    Path folder;

    @Test
    void theFeedHoldsTheEnginesBooksOrdersAndBalances()
    {
        final EngineHarness h = new EngineHarness(TradingStream.config(), false);
        new TradingStream(h, 19).setUp().run(4_000);
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events"));
            Journal regrouped = Journal.open(folder.resolve("regrouped")))
        {
            final JournalAppender appender = commands.appender();
            for (int position = 0; position < h.commandsLength(); position += 4 + h.commands.getInt(position))
            {
                appender.append(h.commands, position + 4, h.commands.getInt(position));
            }
            writeEvents(h.log.bytes(), events, 1);
            writeEvents(h.log.bytes(), regrouped, 37);

            final MarketFeed feed = new MarketFeed(new MarketFeed.Context().events(events).commands(commands)
                .errorHandler(Throwable::printStackTrace));
            feed.onStart();
            final EngineView view = h.engine.view();
            for (int m = 0; m < view.marketCount(); m++)
            {
                final long market = view.marketId(m);
                for (int which = 0; which < 2; which++)
                {
                    final OrderBook book = view.book(market, which);
                    if (null == book)
                    {
                        continue;
                    }
                    final String name = market != TradingStream.OUTCOME ? null : which == 0 ? "YES" : "NO";
                    final String body = read(feed, answer -> feed.book(market, name, 0, answer));
                    assertNotNull(body, "market " + market);
                    assertEquals(levels(book), body.substring(body.indexOf("\"bids\""),
                        body.indexOf(",\"checksum\"")), "market " + market + " book " + which);
                    assertTrue(body.endsWith(",\"checksum\":" + checksum(book) + "}"), body);
                }
            }

            int openOrders = 0;
            for (int account = 0; account < view.accountCount(); account++)
            {
                final String address = "0x" + HexFormat.of().formatHex(view.addressOf(account));
                final TreeSet<String> engineOrders = new TreeSet<>();
                EventFold.forEachResting(view, new EventFold.Resting()
                {
                    @Override
                    public void order(final long market, final int which, final OrderBook book, final Side side,
                        final int slot)
                    {
                        if (HexFormat.of().formatHex(view.addressOf(book.accountOf(slot))).equals(address.substring(2)))
                        {
                            final byte[] id = new byte[32];
                            book.orderIdInto(slot, id, 0);
                            engineOrders.add(HexFormat.of().formatHex(id) + "/" + market + "/" +
                                (side == Side.BID ? "buy" : "sell") + "/" + book.priceOf(slot) + "/" +
                                book.remainingOf(slot));
                        }
                    }
                });
                final String orders = read(feed, answer -> feed.account(address, "orders", answer));
                final TreeSet<String> feedOrders = new TreeSet<>();
                final Matcher matcher = ORDER.matcher(orders);
                while (matcher.find())
                {
                    feedOrders.add(matcher.group(1) + "/" + matcher.group(2) + "/" + matcher.group(3) + "/" +
                        matcher.group(4) + "/" + matcher.group(5));
                }
                assertEquals(engineOrders, feedOrders, "open orders of " + address);
                openOrders += engineOrders.size();

                final String balances = read(feed, answer -> feed.account(address, "balances", answer));
                for (final long asset : new long[]{TradingStream.USD, TradingStream.BTC, TradingStream.ETH})
                {
                    final int ledger = view.asset(asset);
                    final String expected = "{\"asset\":" + asset + ",\"available\":" +
                        view.available(account, ledger) + ",\"locked\":" + view.locked(account, ledger) + "}";
                    assertTrue(view.available(account, ledger) + view.locked(account, ledger) == 0 ||
                        balances.contains(expected), address + " " + expected + " in " + balances);
                }
            }
            assertTrue(openOrders > 20, "open orders: " + openOrders);
            assertEquals(0, feed.recordsRefused());

            sameFramesRebuilt(feed, regrouped, commands);
            feed.close();
        }
    }

    /** A feed over the same events grouped otherwise resends, from seq 1, the frames this one rebuilt. */
    private static void sameFramesRebuilt(final MarketFeed feed, final Journal regrouped, final Journal commands)
    {
        final MarketFeed other = new MarketFeed(new MarketFeed.Context().events(regrouped).commands(commands)
            .errorHandler(Throwable::printStackTrace));
        other.onStart();
        assertEquals(feed.epoch(), other.epoch());
        final List<String> channels = new ArrayList<>();
        for (final long market : TradingStream.SPOT)
        {
            channels.add("book." + market);
            channels.add("trades." + market);
            channels.add("bbo." + market);
        }
        channels.add("book." + TradingStream.OUTCOME + ".YES");
        channels.add("trades." + TradingStream.OUTCOME + ".NO");
        channels.add("status");
        final Map<String, Feed.Cursor> cursors = new TreeMap<>();
        for (final String channel : channels)
        {
            cursors.put(channel, new Feed.Cursor(feed.epoch(), 0));
        }
        final List<String> a = frames(feed, channels, cursors);
        final List<String> b = frames(other, channels, cursors);
        assertTrue(a.size() > 1_000, "frames: " + a.size());
        assertEquals(a, b);
        other.close();
    }

    private static List<String> frames(final MarketFeed feed, final List<String> channels,
        final Map<String, Feed.Cursor> cursors)
    {
        final List<String> out = new ArrayList<>();
        feed.subscribe(new FeedSubscriber()
        {
            public void onFrame(final FeedFrame frame)
            {
                out.add(new String(frame.json(), StandardCharsets.UTF_8));
            }

            public void onAnswer(final byte[] json)
            {
                final String ack = new String(json, StandardCharsets.UTF_8);
                assertTrue(ack.startsWith("{\"type\":\"ack\"") && !ack.contains("resume_required"), ack);
            }
        }, null, 1, channels, cursors);
        pump(feed);
        return out;
    }

    /** The engine's events as journaled, {@code commandsPerExcerpt} commands' events to an excerpt. */
    private static void writeEvents(final byte[] log, final Journal journal, final int commandsPerExcerpt)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(log);
        final JournalAppender appender = journal.appender();
        long command = -1;
        int commandsStaged = 0;
        for (int position = 0; position < log.length; )
        {
            final int length = bytes.getInt(position, ByteOrder.nativeOrder());
            final long sequence = JournalRecords.sequence(bytes, position + 4);
            if (sequence != command)
            {
                if (commandsStaged == commandsPerExcerpt)
                {
                    appender.commit();
                    commandsStaged = 0;
                }
                command = sequence;
                commandsStaged++;
            }
            appender.add(bytes, position + 4, length);
            position += 4 + length;
        }
        appender.commit();
    }

    private static void pump(final MarketFeed feed)
    {
        int idle = 0;
        while (idle < 2)
        {
            idle = feed.doWork() == 0 ? idle + 1 : 0;
        }
    }

    private static String read(final MarketFeed feed, final Consumer<Consumer<String>> ask)
    {
        final AtomicReference<String> body = new AtomicReference<>();
        ask.accept(body::set);
        pump(feed);
        return body.get();
    }

    private static String levels(final OrderBook book)
    {
        return "\"bids\":" + side(book, Side.BID, Integer.MAX_VALUE) + ",\"asks\":" + side(book, Side.ASK,
            Integer.MAX_VALUE);
    }

    private static String side(final OrderBook book, final Side side, final int depth)
    {
        final StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < Math.min(depth, book.levelCount(side)); i++)
        {
            out.append(i == 0 ? "" : ",").append('[').append(book.levelPrice(side, i)).append(',')
                .append(book.levelQty(side, i)).append(']');
        }
        return out.append(']').toString();
    }

    private static long checksum(final OrderBook book)
    {
        final StringBuilder text = new StringBuilder();
        for (final Side side : new Side[]{Side.BID, Side.ASK})
        {
            if (side == Side.ASK)
            {
                text.append('|');
            }
            for (int i = 0; i < Math.min(25, book.levelCount(side)); i++)
            {
                text.append(i == 0 ? "" : ",").append(book.levelPrice(side, i)).append(':')
                    .append(book.levelQty(side, i));
            }
        }
        final CRC32 crc = new CRC32();
        crc.update(text.toString().getBytes(StandardCharsets.US_ASCII));
        return crc.getValue();
    }
}
