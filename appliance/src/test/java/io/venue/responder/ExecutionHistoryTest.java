package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.MessageHeaderEncoder;
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
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
