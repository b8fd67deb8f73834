package io.venue.transport.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One connection's answers in request order, as HTTP/1.1 requires even when requests are pipelined: each request takes
 * a slot; a slot is filled when its answer is known (at once for reads and early refusals, later for a submit, or with
 * a 504 once its deadline passes) and the slots at the head are written as they fill. Used on the connection's event
 * loop only; an answer from another thread hops there first ({@link #answerLater}).
 */
final class OrderedAnswers
{
    /** How often a connection with submits waiting looks for ones past their deadline (the timeout's precision). */
    private static final long SWEEP_MS = 100;
    /** Requests a connection may have unanswered before it stops reading (pipelining must not fill the heap). */
    private static final int MAX_SLOTS = 64;

    private final HttpGateway.Context context;
    private final long answerTimeoutMs;
    private final ArrayDeque<Slot> slots = new ArrayDeque<>();
    private ScheduledFuture<?> sweep;
    /**
     * Set once a request that closes the connection is read (or its answer written): requests read after it are
     * dropped, never executed, since their answers could not be sent.
     */
    private boolean closing;
    /** Set once the client shut its side: the connection closes when every request read is answered. */
    private boolean inputShut;

    OrderedAnswers(final HttpGateway.Context context, final long answerTimeoutMs)
    {
        this.context = context;
        this.answerTimeoutMs = answerTimeoutMs;
    }

    /** Whether the connection closes after an answer already due: read nothing more. */
    boolean closing()
    {
        return closing;
    }

    /** A slot for the request just read, in arrival order; stops reading while too many wait. */
    Slot open(final ChannelHandlerContext ctx, final boolean keepAlive)
    {
        final Slot slot = new Slot(keepAlive);
        slot.receivedNs = System.nanoTime();
        slots.add(slot);
        closing |= !keepAlive;
        if (slots.size() >= MAX_SLOTS)
        {
            ctx.channel().config().setAutoRead(false);
        }
        return slot;
    }

    /**
     * The slot waits for an answer from another thread, or for {@code timeout} (a 504) once the answer timeout passes.
     */
    void await(final ChannelHandlerContext ctx, final Slot slot, final String timeout)
    {
        slot.deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(answerTimeoutMs);
        slot.timeout = timeout;
        if (sweep == null)
        {
            sweep = ctx.executor().scheduleAtFixedRate(() -> sweep(ctx), SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Fills the slot, from any thread, with a response made on the event loop (not on the thread that completes the
     * request: the responder's, or the executions reader's); nothing is made when the I/O threads are gone.
     */
    void answerLater(
        final ChannelHandlerContext ctx, final Slot slot, final Supplier<FullHttpResponse> http)
    {
        try
        {
            ctx.executor().execute(() -> fill(ctx, slot, http.get()));
        }
        catch (final RejectedExecutionException stopped)
        {
            // the I/O threads are shut down: nobody to answer
        }
    }

    /**
     * Gives a slot its answer (the first one wins: a late decision after a 504 is dropped) and writes what is ready.
     */
    void fill(final ChannelHandlerContext ctx, final Slot slot, final FullHttpResponse http)
    {
        if (slot.http != null || slot.written)
        {
            http.release();
            return;
        }
        slot.http = http;
        Slot head;
        while ((head = slots.peek()) != null && head.http != null)
        {
            slots.poll();
            head.written = true;
            if (!ctx.channel().isActive())
            {
                head.http.release();
                continue;
            }
            context.counters.response(head.http.status().code());
            if (head.submit)
            {
                context.counters.submitAnswered(System.nanoTime() - head.receivedNs);
            }
            if (head.submit && context.accountRateLimit > 0 && !head.http.headers().contains(HttpResponses.RATE_LIMIT))
            {
                // spec 8.1: every submit answer names the account budget, even one refused before its account was known
                head.http.headers().set(HttpResponses.RATE_LIMIT, context.accountRateLimit);
            }
            write(ctx, head.keepAlive, head.http);
            if (!head.keepAlive)
            {
                closing = true;
                ctx.channel().config().setAutoRead(false);
                discardRest();
                return;
            }
        }
        if (inputShut && slots.isEmpty())
        {
            closeWhenWritten(ctx);
            return;
        }
        if (slots.size() < MAX_SLOTS / 2 && !ctx.channel().config().isAutoRead())
        {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * Answers 504 for submits past their deadline. Deadlines grow in arrival order, so the first unanswered slot not
     * yet due ends the walk. The timer stops once nothing waits and starts again with the next submit.
     */
    private void sweep(final ChannelHandlerContext ctx)
    {
        final long now = System.nanoTime();
        boolean waiting = false;
        for (final Slot slot : slots.toArray(new Slot[0]))
        {
            if (slot.http != null)
            {
                continue;
            }
            if (now - slot.deadlineNs < 0)
            {
                waiting = true;
                break;
            }
            if (slot.onTimeout != null)
            {
                slot.onTimeout.run();
            }
            fill(ctx, slot, HttpResponses.json(new SubmitResponse(504, HttpResponses.error("TIMEOUT", slot.timeout))));
        }
        if (!waiting && sweep != null)
        {
            sweep.cancel(false);
            sweep = null;
        }
    }

    /**
     * The client shut its side of the connection (it sends nothing more): what it asked is still answered, in order,
     * and the connection closes after the last answer, or now when nothing waits.
     */
    void inputShut(final ChannelHandlerContext ctx)
    {
        inputShut = true;
        closing = true;
        if (slots.isEmpty())
        {
            closeWhenWritten(ctx);
        }
    }

    private static void closeWhenWritten(final ChannelHandlerContext ctx)
    {
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Gives the connection up for another protocol after {@code slot}'s request (a WebSocket upgrade): only when it is
     * the one request read and unanswered, so no HTTP answer can be due on the connection after it. True: the slot
     * is gone and nothing waits.
     */
    boolean handOver(final Slot slot)
    {
        if (slots.size() != 1 || slots.peek() != slot || closing || inputShut)
        {
            return false;
        }
        close();
        return true;
    }

    /** The connection is gone: no more sweeps, and what waits is dropped. */
    void close()
    {
        if (sweep != null)
        {
            sweep.cancel(false);
            sweep = null;
        }
        discardRest();
    }

    private void discardRest()
    {
        Slot slot;
        while ((slot = slots.poll()) != null)
        {
            slot.written = true;
            if (slot.http != null)
            {
                slot.http.release();
            }
        }
    }

    /** Writes on the event loop; closes the connection after it when the client did not ask to keep it. */
    private static void write(final ChannelHandlerContext ctx, final boolean keepAlive, final FullHttpResponse http)
    {
        http.headers()
            .set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        if (keepAlive)
        {
            ctx.writeAndFlush(http);
        }
        else
        {
            ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** One request's place in the connection's answer order. */
    static final class Slot
    {
        final boolean keepAlive;
        long deadlineNs;
        /** The 504's message once {@link #deadlineNs} passes; set by whatever makes the slot wait. */
        String timeout;
        /** Run when {@link #deadlineNs} passes before the answer (null: nothing to do). */
        Runnable onTimeout;
        FullHttpResponse http;
        boolean written;
        /** A request to the submit route, whose every answer carries X-RateLimit-Limit. */
        boolean submit;
        /** When the whole request was read ({@link System#nanoTime()}). */
        long receivedNs;

        Slot(final boolean keepAlive)
        {
            this.keepAlive = keepAlive;
        }
    }
}
