package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.TradeDecoder;
import io.venue.transport.http.JsonWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An account's executions read from the event journal in pages, for GET /api/v1/bsl/accounts/{account}/executions.
 * The cursor is a command sequence: a page holds the executions of the commands after it, whole commands only, and
 * its {@code nextCursor} is the last command read. A page stops after {@link #PAGE} executions or
 * {@link #SCAN_LIMIT} commands, so one request never reads the whole journal; {@code end} says the journal's end was
 * reached. Reads on its own thread, never on an I/O thread, with one tailer (binary search to the cursor).
 */
public final class ExecutionHistory implements AutoCloseable
{
    public static final int PAGE = 100;
    public static final int SCAN_LIMIT = 100_000;

    private final Journal events;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r ->
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

    public ExecutionHistory(final Journal events)
    {
        this.events = events;
    }

    public CompletableFuture<String> page(final String account, final long cursor)
    {
        return CompletableFuture.supplyAsync(() -> read(account, cursor), thread);
    }

    private String read(final String account, final long cursor)
    {
        if (tailer == null)
        {
            tailer = events.tailer();
        }
        tailer.moveAfterSequence(cursor);
        final byte[] wanted = Hex.fromHex(account);
        final List<String> executions = new ArrayList<>();
        final long[] last = {cursor};
        final RecordHandler onRecord = (buffer, offset, length, index) ->
        {
            header.wrap(buffer, offset);
            last[0] = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, java.nio.ByteOrder.LITTLE_ENDIAN);
            if (header.templateId() != TradeDecoder.TEMPLATE_ID)
            {
                return;
            }
            trade.wrapAndApplyHeader(buffer, offset, header);
            trade.getMakerAccount(address, 0, 20);
            final boolean maker = java.util.Arrays.equals(address, wanted);
            trade.getTakerAccount(address, 0, 20);
            final boolean taker = java.util.Arrays.equals(address, wanted);
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
        for (int commands = 0; executions.size() < PAGE && commands < SCAN_LIMIT; commands++)
        {
            if (!tailer.read(onRecord))
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
        final boolean takerBuys = trade.takerSide() == io.venue.journal.sbe.Side.BID;
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
            thread.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
