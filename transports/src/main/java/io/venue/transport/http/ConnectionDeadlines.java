package io.venue.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One connection's read deadlines, so a client that sends slowly or not at all cannot hold a connection:
 * <ul>
 * <li>the head of the first request must be whole within the header timeout of the connection opening, and the head
 * of any later one within the header timeout of its first byte;</li>
 * <li>a body must be whole within the body timeout of its head;</li>
 * <li>a kept-alive connection with every request answered must send its next first byte within the idle timeout.</li>
 * </ul>
 * While a request waits for its answer nothing is asked of the client (the answer timeout bounds that wait). A
 * connection past a deadline is closed without an answer and counted. Two handlers share the state: {@link #raw} before
 * the HTTP codec sees the first byte of a request, {@link #decoded} after it sees the head, the end of the body and the
 * answers written. One timer per connection, moved only when a deadline comes sooner than the one it waits for. Used on
 * the connection's event loop only.
 */
final class ConnectionDeadlines
{
    /** What a connection waits for from its client, and so which deadline applies. */
    enum Reason
    {
        HEADER, BODY, IDLE
    }

    private final long headerNs;
    private final long bodyNs;
    private final long idleNs;
    private final LaneCounters counters;
    private final ChannelInboundHandlerAdapter raw = new Raw();
    private final ChannelDuplexHandler decoded = new Decoded();

    private ChannelHandlerContext ctx;
    /** 0: no deadline (a request waits for its answer). */
    private long deadlineNs;
    private Reason reason;
    /** When the timer fires, and the timer itself (null: none scheduled). */
    private long checkAtNs;
    private ScheduledFuture<?> check;
    /** A request has begun (a byte of it arrived) and is not whole yet. */
    private boolean reading;
    /** Requests read whole and not yet answered. */
    private int unanswered;

    ConnectionDeadlines(final long headerMs, final long bodyMs, final long idleMs, final LaneCounters counters)
    {
        this.headerNs = TimeUnit.MILLISECONDS.toNanos(headerMs);
        this.bodyNs = TimeUnit.MILLISECONDS.toNanos(bodyMs);
        this.idleNs = TimeUnit.MILLISECONDS.toNanos(idleMs);
        this.counters = counters;
    }

    /** Goes before the HTTP codec. */
    ChannelInboundHandlerAdapter raw()
    {
        return raw;
    }

    /** Goes after the HTTP codec, before the body is aggregated (so it sees a skipped body's end too). */
    ChannelDuplexHandler decoded()
    {
        return decoded;
    }

    private void arm(final Reason why, final long timeoutNs)
    {
        final long now = System.nanoTime();
        reason = why;
        deadlineNs = now + timeoutNs;
        if (check == null || deadlineNs - checkAtNs < 0)
        {
            if (check != null)
            {
                check.cancel(false);
            }
            schedule(deadlineNs - now);
        }
    }

    private void schedule(final long delayNs)
    {
        checkAtNs = System.nanoTime() + delayNs;
        check = ctx.executor().schedule(this::expire, delayNs, TimeUnit.NANOSECONDS);
    }

    private void expire()
    {
        check = null;
        if (deadlineNs == 0 || !ctx.channel().isActive())
        {
            return;
        }
        final long left = deadlineNs - System.nanoTime();
        if (left > 0)
        {
            // the deadline moved later since the timer was set
            schedule(left);
            return;
        }
        deadlineNs = 0;
        counters.closedByDeadline(reason);
        ctx.close();
    }

    private void stop()
    {
        deadlineNs = 0;
        if (check != null)
        {
            check.cancel(false);
            check = null;
        }
    }

    /** Sees a request's first byte. */
    private final class Raw extends ChannelInboundHandlerAdapter
    {
        @Override
        public void handlerAdded(final ChannelHandlerContext context)
        {
            ctx = context;
        }

        @Override
        public void channelActive(final ChannelHandlerContext context) throws Exception
        {
            // the first head counts from the connection opening: a connection that never sends is closed by it
            reading = true;
            arm(Reason.HEADER, headerNs);
            super.channelActive(context);
        }

        @Override
        public void channelRead(final ChannelHandlerContext context, final Object msg) throws Exception
        {
            if (!reading && msg instanceof ByteBuf bytes && bytes.isReadable())
            {
                reading = true;
                arm(Reason.HEADER, headerNs);
            }
            super.channelRead(context, msg);
        }

        @Override
        public void channelInactive(final ChannelHandlerContext context) throws Exception
        {
            stop();
            super.channelInactive(context);
        }

        /** The connection became a WebSocket one, which keeps its own deadlines. */
        @Override
        public void handlerRemoved(final ChannelHandlerContext context)
        {
            stop();
        }
    }

    /** Sees a head, a request's end and each answer written. */
    private final class Decoded extends ChannelDuplexHandler
    {
        @Override
        public void channelRead(final ChannelHandlerContext context, final Object msg) throws Exception
        {
            if (msg instanceof HttpRequest)
            {
                arm(Reason.BODY, bodyNs);
            }
            if (msg instanceof LastHttpContent)
            {
                reading = false;
                unanswered++;
                deadlineNs = 0;
            }
            super.channelRead(context, msg);
        }

        @Override
        public void write(final ChannelHandlerContext context, final Object msg, final ChannelPromise promise)
            throws Exception
        {
            final boolean interim = msg instanceof HttpResponse response &&
                response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
            if (!interim && msg instanceof LastHttpContent && --unanswered <= 0 && !reading)
            {
                unanswered = 0;
                arm(Reason.IDLE, idleNs);
            }
            super.write(context, msg, promise);
        }
    }
}
