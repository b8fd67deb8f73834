package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.entry.ExecutionPages;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeDecoder;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * An account's executions read from the event journal in pages, for GET /api/v1/bsl/accounts/{account}/executions.
 * The cursor is a command sequence: a page holds the executions of the commands after it, whole commands only, and
 * its {@code nextCursor} is the last command read. A page stops after {@link #PAGE} executions or
 * {@link #SCAN_LIMIT} commands, so one request never reads the whole journal; {@code end} says the journal's end was
 * reached (or the last command whose answers may go out). Reads on its own thread, never on an I/O thread, with one
 * tailer (binary search to the cursor).
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
    private final byte[] address = new byte[20];
    private final byte[] orderId = new byte[32];
    private JournalTailer tailer;

    /**
     * @param released the last command whose answers may go out (with a synchronous standby, the last one it holds):
     *                 a page never shows what a failover could still lose.
     */
    public ExecutionHistory(final Journal events, final LongSupplier released)
    {
        this.events = events;
        this.released = released;
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

    private String read(final String account, final long cursor)
    {
        if (tailer == null)
        {
            tailer = events.tailer();
        }
        tailer.moveAfterSequence(cursor);
        final byte[] wanted = Hex.fromHex(account);
        final long limit = released.getAsLong();
        final List<String> executions = new ArrayList<>();
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
                if (executions.size() >= PAGE || commands[0] >= SCAN_LIMIT)
                {
                    full[0] = true;
                    tailer.stopHere();
                    return;
                }
                commands[0]++;
            }
            last[0] = sequence;
            if (header.templateId() != TradeDecoder.TEMPLATE_ID)
            {
                return;
            }
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
        return new JsonWriter().field("ok", true).field("account", account).field("cursor", cursor)
            .raw("executions", JsonWriter.array(executions)).field("nextCursor", last[0]).field("end", end).toJson();
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
