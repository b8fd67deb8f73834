package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.OrderDoneEncoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeEncoder;
import io.venue.transport.http.JsonReader;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pages of an account's executions over an event journal whose excerpts hold the events of several commands, as the
 * appliance's engine writes them: each page stops between two commands, and the pages together hold every execution
 * once, in order.
 */
class ExecutionHistoryTest
{
    private static final byte[] ACCOUNT = filled(0x11);
    private static final byte[] OTHER = filled(0x22);

    @TempDir
    Path folder;

    @Test
    void pagesEndBetweenCommandsInsideExcerptsAndMissNothing() throws Exception
    {
        final List<Long> expected = new ArrayList<>();
        try (Journal events = Journal.open(folder))
        {
            final JournalAppender appender = events.appender();
            final ExpandableArrayBuffer record = new ExpandableArrayBuffer(256);
            final TradeEncoder trade = new TradeEncoder();
            // 330 commands of one or two trades each (the account's in all but every fifth), 1 to 9 commands an excerpt
            long sequence = 0;
            while (sequence < 330)
            {
                final int commands = 1 + (int)(sequence % 9);
                for (int c = 0; c < commands; c++)
                {
                    sequence++;
                    for (int t = 0; t < 1 + sequence % 2; t++)
                    {
                        trade.wrapAndApplyHeader(record, 0, new MessageHeaderEncoder()).sequence(sequence)
                            .eventIndex(t).market(1) .book(Book.NONE)
                            .putMakerAccount(sequence % 5 == 0 ? OTHER : ACCOUNT, 0, 20).putTakerAccount(OTHER, 0, 20)
                            .price(100).qty(1).takerSide(Side.BID).makerRemaining(0);
                        appender.add(record, 0, MessageHeaderEncoder.ENCODED_LENGTH + trade.encodedLength());
                        if (sequence % 5 != 0)
                        {
                            expected.add(sequence);
                        }
                    }
                }
                appender.commit();
            }
            final long last = sequence;
            try (ExecutionHistory history = new ExecutionHistory(events, () -> last))
            {
                assertPagesHold(history, expected);
            }
            // an index of one account and eight entries drops all the time: the pages scan there, and miss nothing
            try (ExecutionHistory history = new ExecutionHistory(events, () -> last, 1, 8, 8))
            {
                assertPagesHold(history, expected);
            }
        }
    }

    /** Pages through the account's executions from the start: each page whole commands, together every one once. */
    private static void assertPagesHold(final ExecutionHistory history, final List<Long> expected) throws Exception
    {
        final List<Long> read = new ArrayList<>();
        long cursor = 0;
        int pages = 0;
        boolean end = false;
        while (!end)
        {
            final Map<?, ?> page = (Map<?, ?>)JsonReader.read(history.page(hex(ACCOUNT), cursor).get()
                .getBytes(StandardCharsets.UTF_8));
            final List<?> executions = (List<?>)page.get("executions");
            long pageLast = cursor;
            for (final Object execution : executions)
            {
                pageLast = (Long)((Map<?, ?>)execution).get("sequence");
                read.add(pageLast);
            }
            cursor = (Long)page.get("nextCursor");
            end = (Boolean)page.get("end");
            pages++;
            if (!end)
            {
                // a full page: at least a page of executions, then it stopped before the next command
                assertEquals(true, executions.size() >= ExecutionHistory.PAGE, page.toString());
                assertEquals(pageLast, cursor, "the cursor is the last command read, whole");
            }
        }
        assertEquals(expected, read, "every execution once, in order, over " + pages + " pages");
        assertEquals(true, pages >= 4, "pages: " + pages);
    }

    @Test
    void aPageReadsTheAccountsExcerptsNotTheCommandsBetweenThem() throws Exception
    {
        try (Journal events = Journal.open(folder))
        {
            final JournalAppender appender = events.appender();
            final ExpandableArrayBuffer record = new ExpandableArrayBuffer(256);
            final TradeEncoder trade = new TradeEncoder();
            // 150,000 commands of other accounts' trades, more than one page may scan, then one of the account's
            final int others = ExecutionHistory.SCAN_LIMIT * 3 / 2;
            for (long sequence = 1; sequence <= others + 1; sequence++)
            {
                final boolean mine = sequence > others;
                trade.wrapAndApplyHeader(record, 0, new MessageHeaderEncoder()).sequence(sequence).eventIndex(0)
                    .market(1).book(Book.NONE).putMakerAccount(mine ? ACCOUNT : OTHER, 0, 20)
                    .putTakerAccount(OTHER, 0, 20)
                    .price(100).qty(1).takerSide(Side.BID).makerRemaining(0);
                appender.add(record, 0, MessageHeaderEncoder.ENCODED_LENGTH + trade.encodedLength());
                if (sequence % 100 == 0 || mine)
                {
                    appender.commit();
                }
            }
            try (ExecutionHistory history = new ExecutionHistory(events, () -> others + 1))
            {
                final Map<?, ?> page = (Map<?, ?>)JsonReader.read(history.page(hex(ACCOUNT), 0).get()
                    .getBytes(StandardCharsets.UTF_8));
                assertEquals(1, ((List<?>)page.get("executions")).size(), page.toString());
                assertEquals(true, page.get("end"), page.toString());
                assertEquals((long)others + 1, page.get("nextCursor"));
            }
        }
    }

    /**
     * The page says why each of the account's orders ended, every reason of the journal as the status route spells it
     * (a client's cancel, a cancel-on-disconnect or dead-man sweep, a cancel-all, an expiry, a fill ...), in journal
     * order beside the fills, and never another account's.
     */
    @Test
    void aPageSaysWhyEachOfTheAccountsOrdersEnded() throws Exception
    {
        try (Journal events = Journal.open(folder))
        {
            final JournalAppender appender = events.appender();
            final ExpandableArrayBuffer record = new ExpandableArrayBuffer(256);
            final OrderDoneEncoder done = new OrderDoneEncoder();
            final List<String> expected = new ArrayList<>();
            long sequence = 0;
            for (final OrderDoneReason reason : OrderDoneReason.values())
            {
                if (reason == OrderDoneReason.NULL_VAL)
                {
                    continue;
                }
                sequence++;
                for (final byte[] account : List.of(OTHER, ACCOUNT))
                {
                    final byte[] orderId = new byte[32];
                    orderId[0] = (byte)sequence;
                    orderId[1] = account[0];
                    done.wrapAndApplyHeader(record, 0, new MessageHeaderEncoder()).sequence(sequence)
                        .eventIndex(account == OTHER ? 0 : 1).putOrderId(orderId, 0, 32).putAccount(account, 0, 20)
                        .market(3).reason(reason).remaining(sequence * 10);
                    appender.add(record, 0, MessageHeaderEncoder.ENCODED_LENGTH + done.encodedLength());
                    if (account == ACCOUNT)
                    {
                        expected.add(sequence + ":" + hex(orderId) + ":" + reason.name().toLowerCase(Locale.ROOT) +
                            ":" + sequence * 10);
                    }
                }
                appender.commit();
            }
            final long last = sequence;
            // from the index, and scanned (an index that keeps nothing of the account)
            for (final ExecutionHistory history : List.of(new ExecutionHistory(events, () -> last),
                new ExecutionHistory(events, () -> last, 1, 2, 2)))
            {
                try (history)
                {
                    final Map<?, ?> page = (Map<?, ?>)JsonReader.read(history.page(hex(ACCOUNT), 0).get()
                        .getBytes(StandardCharsets.UTF_8));
                    final List<String> read = new ArrayList<>();
                    for (final Object entry : (List<?>)page.get("done"))
                    {
                        final Map<?, ?> one = (Map<?, ?>)entry;
                        assertEquals(3L, one.get("market"), one.toString());
                        assertEquals(1L, one.get("eventIndex"), one.toString());
                        read.add(one.get("sequence") + ":" + one.get("orderId") + ":" + one.get("reason") + ":" +
                            one.get("remaining"));
                    }
                    assertEquals(expected, read, page.toString());
                    assertTrue(read.stream().anyMatch(r -> r.contains(":cancelled_dead_man:")) &&
                        read.stream().anyMatch(r -> r.contains(":cancelled_disconnect:")) &&
                        read.stream().anyMatch(r -> r.contains(":cancelled_all:")) &&
                        read.stream().anyMatch(r -> r.contains(":cancelled:")) &&
                        read.stream().anyMatch(r -> r.contains(":expired:")), read.toString());
                    assertEquals(List.of(), page.get("executions"));
                }
            }
        }
    }

    private static byte[] filled(final int value)
    {
        final byte[] bytes = new byte[20];
        Arrays.fill(bytes, (byte)value);
        return bytes;
    }

    private static String hex(final byte[] bytes)
    {
        return Hex.to0x(bytes);
    }
}
