package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.entry.ExecutionPages;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * An account's executions read from the event journal in pages, for GET /api/v1/bsl/accounts/{account}/executions:
 * its fills, and its orders' ends with their reason (a client's cancel, a cancel-on-disconnect or dead-man sweep, a
 * cancel-all, an expiry, a fill), so that a client learns why each order left.
 * The cursor is a command sequence: a page holds the executions of the commands after it, whole commands only, and
 * its {@code nextCursor} is the last command read. A page stops after {@link #PAGE} executions; {@code end} says the
 * journal's end was reached (or the last command whose answers may go out). Reads on its own thread, never on an I/O
 * thread.
 * <p>
 * Before each page the reader brings its {@link ExecutionIndex} up to date with what was journaled since (each event
 * is read once for the index, whatever the pages; the first page after a start reads the whole journal so), and a
 * page reads only the excerpts the index names for the account. Where the index no longer covers the account (it
 * dropped the account's older entries to stay within its bounds), the page scans the journal from the cursor, as far
 * as {@link #SCAN_LIMIT} commands, and ends where the index covers it again.
 */
public final class ExecutionHistory implements AutoCloseable
{
    public static final int PAGE = ExecutionPages.EXECUTIONS;
    public static final int SCAN_LIMIT = ExecutionPages.COMMANDS_SCANNED;

    /** Pages that may wait for the reading thread; more are refused (503) rather than queued without bound. */
    public static final int WAITING_PAGES = 16;

    private final Journal events;
    private final LongSupplier released;
    private final ExecutorService thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(WAITING_PAGES), r ->
        {
            final Thread t = new Thread(r, "private-reads");
            t.setDaemon(true);
            return t;
        });
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final OrderDoneDecoder orderDone = new OrderDoneDecoder();
    private final byte[] address = new byte[20];
    private final byte[] orderId = new byte[32];
    private JournalTailer tailer;
    private JournalTailer indexTailer;
    private final ExecutionIndex index;
    /** The last command whose events the index has read. */
    private long indexedThrough;
    /** The last command whose answers may go out, for the catch-up's handler. */
    private long indexLimit;
    private boolean indexBeyond;
    private final RecordHandler onIndexed = this::indexRecord;

    /**
     * @param released the last command whose answers may go out (with a synchronous standby, the last one it holds):
     *                 a page never shows what a failover could still lose.
     */
    public ExecutionHistory(final Journal events, final LongSupplier released)
    {
        this(events, released, ExecutionIndex.MAX_ACCOUNTS, ExecutionIndex.MAX_PER_ACCOUNT, ExecutionIndex.MAX_ENTRIES);
    }

    /** With the index's bounds ({@link ExecutionIndex}): tests make them small to have it drop entries. */
    ExecutionHistory(final Journal events, final LongSupplier released, final int maxAccounts, final int maxPerAccount,
        final int maxEntries)
    {
        this.events = events;
        this.released = released;
        this.index = new ExecutionIndex(maxAccounts, maxPerAccount, maxEntries);
    }

    /** A page, or a future failed with a RejectedExecutionException when {@link #WAITING_PAGES} already wait. */
    public CompletableFuture<String> page(final String account, final long cursor)
    {
        try
        {
            return CompletableFuture.supplyAsync(() -> read(account, cursor), thread);
        }
        catch (final RejectedExecutionException busy)
        {
            return CompletableFuture.failedFuture(busy);
        }
    }

    /** Reads what was journaled since the last catch-up into the index, up to {@code limit}. */
    private void catchUp(final long limit)
    {
        if (indexTailer == null)
        {
            indexTailer = events.tailer();
        }
        indexLimit = limit;
        indexBeyond = false;
        while (!indexBeyond && indexTailer.read(onIndexed))
        {
            // each excerpt's trades go into the index
        }
    }

    private void indexRecord(final DirectBuffer buffer, final int offset, final int length, final long excerpt)
    {
        final long sequence = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
        if (sequence > indexLimit)
        {
            indexBeyond = true;
            indexTailer.stopHere();
            return;
        }
        indexedThrough = sequence;
        header.wrap(buffer, offset);
        if (header.templateId() == OrderDoneDecoder.TEMPLATE_ID)
        {
            // an order of the account left for good: the page says why (a cancel, a sweep, an expiry, a fill)
            orderDone.wrapAndApplyHeader(buffer, offset, header);
            orderDone.getAccount(address, 0, 20);
            index.add(address, 0, sequence, excerpt, sequence);
            return;
        }
        if (header.templateId() != TradeDecoder.TEMPLATE_ID)
        {
            return;
        }
        trade.wrapAndApplyHeader(buffer, offset, header);
        trade.getMakerAccount(address, 0, 20);
        index.add(address, 0, sequence, excerpt, sequence);
        trade.getTakerAccount(address, 0, 20);
        index.add(address, 0, sequence, excerpt, sequence);
    }

    private String read(final String account, final long cursor)
    {
        if (tailer == null)
        {
            tailer = events.tailer();
        }
        final long limit = released.getAsLong();
        catchUp(limit);
        final byte[] wanted = Hex.fromHex(account);
        final long coveredFrom = index.coveredFrom(wanted);
        if (cursor >= coveredFrom)
        {
            return indexed(account, wanted, cursor);
        }
        // the index does not hold the account's executions up to coveredFrom: scan to there, then it takes over
        return scan(account, wanted, cursor, Math.min(limit, coveredFrom), coveredFrom < limit);
    }

    /** A page from the index: only the excerpts holding the account's trades after the cursor are read. */
    private String indexed(final String account, final byte[] wanted, final long cursor)
    {
        final List<String> executions = new ArrayList<>();
        final List<String> done = new ArrayList<>();
        final ExecutionIndex.Entries entries = index.entries(wanted);
        long last = cursor;
        boolean end = true;
        if (entries != null)
        {
            for (int i = entries.firstAfter(cursor); i < entries.size(); i++)
            {
                final long sequence = entries.sequence(i);
                if (sequence != last && executions.size() + done.size() >= PAGE)
                {
                    end = false;
                    break;
                }
                readCommand(entries.excerpt(i), sequence, wanted, executions, done);
                last = sequence;
            }
        }
        return page(account, cursor, executions, done, end ? Math.max(cursor, indexedThrough) : last, end);
    }

    /** The account's executions of command {@code sequence} in the excerpt at {@code excerpt}. */
    private void readCommand(final long excerpt, final long sequence, final byte[] wanted,
        final List<String> executions, final List<String> done)
    {
        if (!tailer.moveToIndex(excerpt))
        {
            return;
        }
        tailer.read((buffer, offset, length, at) ->
        {
            if (buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN) != sequence)
            {
                return;
            }
            header.wrap(buffer, offset);
            if (header.templateId() == TradeDecoder.TEMPLATE_ID)
            {
                collect(buffer, offset, wanted, executions);
            }
            else if (header.templateId() == OrderDoneDecoder.TEMPLATE_ID)
            {
                collectDone(buffer, offset, wanted, done);
            }
        });
    }

    /** Adds the order done at {@code offset} when it is the account's: its id, why it ended and what was left. */
    private void collectDone(final DirectBuffer buffer, final int offset, final byte[] wanted, final List<String> done)
    {
        orderDone.wrapAndApplyHeader(buffer, offset, header);
        orderDone.getAccount(address, 0, 20);
        if (!Arrays.equals(address, wanted))
        {
            return;
        }
        orderDone.getOrderId(orderId, 0, 32);
        done.add(new JsonWriter().field("sequence", orderDone.sequence()).field("eventIndex", orderDone.eventIndex())
            .field("market", orderDone.market()).field("orderId", Hex.to0x(orderId))
            .field("reason", orderDone.reason().name().toLowerCase(Locale.ROOT))
            .field("remaining", orderDone.remaining()).toJson());
    }

    /** Adds the account's sides of the trade at {@code offset}: as maker, as taker, or both. */
    private void collect(final DirectBuffer buffer, final int offset, final byte[] wanted,
        final List<String> executions)
    {
        trade.wrapAndApplyHeader(buffer, offset, header);
        trade.getMakerAccount(address, 0, 20);
        final boolean maker = Arrays.equals(address, wanted);
        trade.getTakerAccount(address, 0, 20);
        final boolean taker = Arrays.equals(address, wanted);
        if (maker)
        {
            executions.add(execution(true));
        }
        if (taker)
        {
            executions.add(execution(false));
        }
    }

    private static String page(final String account, final long cursor, final List<String> executions,
        final List<String> done, final long next, final boolean end)
    {
        return new JsonWriter().field("ok", true).field("account", account).field("cursor", cursor)
            .raw("executions", JsonWriter.array(executions)).raw("done", JsonWriter.array(done))
            .field("nextCursor", next).field("end", end).toJson();
    }

    /**
     * A page scanned from the journal: every command after the cursor, up to {@code limit}, {@link #SCAN_LIMIT}
     * commands or a full page. {@code indexAfter}: the limit is where the index takes over, not the journal's end.
     */
    private String scan(final String account, final byte[] wanted, final long cursor, final long limit,
        final boolean indexAfter)
    {
        tailer.moveAfterSequence(cursor);
        final List<String> executions = new ArrayList<>();
        final List<String> done = new ArrayList<>();
        final long[] last = {cursor};
        final int[] commands = {0};
        final boolean[] beyond = {false};
        final boolean[] full = {false};
        final RecordHandler onRecord = (buffer, offset, length, index) ->
        {
            header.wrap(buffer, offset);
            final long sequence = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
            if (sequence > limit)
            {
                beyond[0] = true;
                tailer.stopHere();
                return;
            }
            if (sequence != last[0])
            {
                // the first event of the next command: the page ends between two commands
                if (executions.size() + done.size() >= PAGE || commands[0] >= SCAN_LIMIT)
                {
                    full[0] = true;
                    tailer.stopHere();
                    return;
                }
                commands[0]++;
            }
            last[0] = sequence;
            if (header.templateId() == TradeDecoder.TEMPLATE_ID)
            {
                collect(buffer, offset, wanted, executions);
            }
            else if (header.templateId() == OrderDoneDecoder.TEMPLATE_ID)
            {
                collectDone(buffer, offset, wanted, done);
            }
        };
        boolean end = false;
        while (!full[0])
        {
            if (!tailer.read(onRecord) || beyond[0])
            {
                end = true;
                break;
            }
        }
        if (end && indexAfter)
        {
            // every command up to the limit was read: the next page comes from the index
            return page(account, cursor, executions, done, limit, false);
        }
        return page(account, cursor, executions, done, last[0], end);
    }

    /** One side of the trade in {@link #trade}: the account's order, side and role. */
    private String execution(final boolean maker)
    {
        if (maker)
        {
            trade.getMakerOrderId(orderId, 0, 32);
        }
        else
        {
            trade.getTakerOrderId(orderId, 0, 32);
        }
        final boolean takerBuys = trade.takerSide() == Side.BID;
        return new JsonWriter().field("sequence", trade.sequence()).field("eventIndex", trade.eventIndex())
            .field("market", trade.market()).field("book", trade.book().name()).field("orderId", Hex.to0x(orderId))
            .field("role", maker ? "maker" : "taker").field("side", maker == takerBuys ? "Ask" : "Bid")
            .field("price", trade.price()).field("qty", trade.qty()).toJson();
    }

    @Override
    public void close()
    {
        // the tailer belongs to the reading thread: closed there, after any page in progress
        thread.execute(() ->
        {
            if (tailer != null)
            {
                tailer.close();
            }
            if (indexTailer != null)
            {
                indexTailer.close();
            }
        });
        thread.shutdown();
        try
        {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
