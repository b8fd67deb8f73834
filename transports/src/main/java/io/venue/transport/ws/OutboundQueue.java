package io.venue.transport.ws;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.venue.codec.JsonWriter;
import io.venue.feed.FeedFrame;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one connection has queued and not yet written, so a client that reads slowly costs bounded memory: bytes are
 * counted when queued (on the feed's thread, {@link #reserve}) and given back when the socket has taken them. Over the
 * mark, a {@code slow_consumer} frame warns the client once and conflatable frames (bbo) are replaced by their
 * channel's newest until the queue drains below it; the connection reads {@link #overSinceNs} to close 4408 after the
 * grace. Over the hard cap {@link #reserve} refuses, and the connection closes at once. The last {@code seq} written
 * of each channel is kept for the heartbeat. Everything but {@link #reserve} and {@link #queued} runs on the event
 * loop, which keeps each channel's frames in order.
 */
final class OutboundQueue
{
    private final Channel channel;
    private final long markBytes;
    private final long hardCapBytes;
    private final WsCounters counters;
    private final AtomicLong queued = new AtomicLong();
    /** Conflatable frames held while over the mark: the newest of each channel. */
    private final Map<String, FeedFrame> conflated = new LinkedHashMap<>();
    private final Map<String, Long> lastSeq = new HashMap<>();
    /** When the queue went over the mark (0: it is under). */
    private long overSinceNs;
    private final ChannelFutureListener drainCheck = written -> drained();
    /** While true, writes are not flushed one by one: {@link #endBatch} flushes them together. */
    private boolean batching;

    OutboundQueue(final Channel channel, final long markBytes, final long hardCapBytes, final WsCounters counters)
    {
        this.channel = channel;
        this.markBytes = markBytes;
        this.hardCapBytes = hardCapBytes;
        this.counters = counters;
    }

    /** Counts bytes about to be queued, from any thread; false (nothing counted) when they would pass the hard cap. */
    boolean reserve(final int bytes)
    {
        if (queued.addAndGet(bytes) > hardCapBytes)
        {
            queued.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    long queued()
    {
        return queued.get();
    }

    long overSinceNs()
    {
        return overSinceNs;
    }

    /** The gateway's own frame (session, heartbeat, ack, error, pong): counted and written. */
    void writeOwn(final String json)
    {
        final byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        queued.addAndGet(bytes.length);
        write(bytes);
    }

    /** A feed answer already reserved. */
    void writeReserved(final byte[] json)
    {
        write(json);
    }

    /** A feed frame already reserved: written, or held in place of its channel's older one while over the mark. */
    void writeFrame(final FeedFrame frame)
    {
        final FeedFrame held = conflated.get(frame.channel());
        if (frame.conflatable() && queued.get() > markBytes)
        {
            if (held != null)
            {
                queued.addAndGet(-held.json().length);
                counters.conflated();
            }
            conflated.put(frame.channel(), frame);
            warnIfOver();
            return;
        }
        if (held != null)
        {
            // the channel's frames stay in order: its held frame goes first
            conflated.remove(frame.channel());
            writeSeq(held);
        }
        writeSeq(frame);
    }

    /** The last seq written of each channel, as the heartbeat's JSON object. */
    String lastSeqs()
    {
        final JsonWriter seqs = new JsonWriter();
        lastSeq.forEach(seqs::field);
        return seqs.toJson();
    }

    /** A channel unsubscribed: its seq no longer goes in heartbeats, and a frame held of it is dropped. */
    void forget(final String channelName)
    {
        lastSeq.remove(channelName);
        final FeedFrame held = conflated.remove(channelName);
        if (held != null)
        {
            queued.addAndGet(-held.json().length);
        }
    }

    private void writeSeq(final FeedFrame frame)
    {
        if (frame.seq() > 0)
        {
            lastSeq.put(frame.channel(), frame.seq());
        }
        write(frame.json());
    }

    /** From now until {@link #endBatch}, the frames written go out with one flush (event loop only). */
    void beginBatch()
    {
        batching = true;
    }

    void endBatch()
    {
        batching = false;
        channel.flush();
    }

    private void write(final byte[] json)
    {
        final int length = json.length;
        final TextWebSocketFrame frame = new TextWebSocketFrame(Unpooled.wrappedBuffer(json));
        (batching ? channel.write(frame) : channel.writeAndFlush(frame)).addListener(written ->
        {
            queued.addAndGet(-length);
            if (written.isSuccess())
            {
                counters.frameOut(length);
            }
        }).addListener(drainCheck);
        warnIfOver();
    }

    /** The first time over the mark: the warning, and the grace starts. */
    private void warnIfOver()
    {
        if (overSinceNs == 0 && queued.get() > markBytes && channel.isActive())
        {
            overSinceNs = System.nanoTime();
            counters.slowConsumerWarning();
            final String warning = new JsonWriter().field("type", "slow_consumer").field("queuedBytes", queued.get())
                .field("slowConsumerBytes", markBytes).field("serverTime", System.currentTimeMillis()).toJson();
            writeOwn(warning);
        }
    }

    /** A write completed: once under the mark again, the held frames go and the warning clock stops. */
    private void drained()
    {
        if (queued.get() > markBytes)
        {
            return;
        }
        overSinceNs = 0;
        if (!conflated.isEmpty() && channel.isActive())
        {
            final FeedFrame[] held = conflated.values().toArray(new FeedFrame[0]);
            conflated.clear();
            for (final FeedFrame frame : held)
            {
                writeSeq(frame);
            }
        }
    }

    /** The connection closed: what it held is given back. */
    void clear()
    {
        for (final FeedFrame held : conflated.values())
        {
            queued.addAndGet(-held.json().length);
        }
        conflated.clear();
    }
}
