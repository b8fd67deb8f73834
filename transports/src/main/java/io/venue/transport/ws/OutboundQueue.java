package io.venue.transport.ws;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
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
    /** A batch's copied frames start in a buffer of this size (the allocator's pool grows it). */
    private static final int BATCH_BUFFER_BYTES = 4096;
    /** A batch's copied frames go to the channel at this size, and a new buffer starts. */
    private static final int BATCH_BUFFER_LIMIT = 64 * 1024;

    private final Channel channel;
    private final long markBytes;
    private final long hardCapBytes;
    private final WsCounters counters;
    private final AtomicLong queued = new AtomicLong();
    /** Conflatable frames held while over the mark: the newest of each channel. */
    private final Map<String, FeedFrame> conflated = new LinkedHashMap<>();
    /** The last seq written of each channel, updated in place (no boxing per frame). */
    private final Map<String, long[]> lastSeq = new HashMap<>();
    /** When the queue went over the mark (0: it is under). */
    private long overSinceNs;
    /**
     * The promise of a batch's writes but its end: none is made per write, and a failure is not fired down the
     * pipeline per frame (the channel is closing then; the batch's end sees it).
     */
    private final ChannelPromise quietPromise;
    /** While true, writes are not flushed one by one: {@link #endBatch} flushes them together. */
    private boolean batching;
    private long batchBytes;
    private int batchFrames;
    /**
     * A batch's feed frames not yet handed to the channel: the first one's shared wire bytes alone, or, from the
     * second on, their copies in one buffer, so a burst costs the channel one write (one pass down the pipeline, one
     * entry in its outbound buffer, one buffer for the socket) instead of one per frame. Null: none.
     */
    private ByteBuf pendingFrames;
    private boolean pendingCopied;
    /** The last channel whose seq was written and its slot in {@link #lastSeq}: a burst mostly repeats a channel. */
    private String lastSeqChannel;
    private long[] lastSeqSlot;

    OutboundQueue(final Channel channel, final long markBytes, final long hardCapBytes, final WsCounters counters)
    {
        this.channel = channel;
        this.markBytes = markBytes;
        this.hardCapBytes = hardCapBytes;
        this.counters = counters;
        this.quietPromise = new VoidChannelPromise(channel, false);
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
        write(new TextWebSocketFrame(Unpooled.wrappedBuffer(bytes)), bytes.length);
    }

    /** A feed answer already reserved. */
    void writeReserved(final byte[] json)
    {
        write(new TextWebSocketFrame(Unpooled.wrappedBuffer(json)), json.length);
    }

    /** A feed frame already reserved: written, or held in place of its channel's older one while over the mark. */
    void writeFrame(final FeedFrame frame)
    {
        final FeedFrame held = conflated.isEmpty() ? null : conflated.get(frame.channel());
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
        lastSeq.forEach((name, seq) -> seqs.field(name, seq[0]));
        return seqs.toJson();
    }

    /** A channel unsubscribed: its seq no longer goes in heartbeats, and a frame held of it is dropped. */
    void forget(final String channelName)
    {
        lastSeq.remove(channelName);
        lastSeqChannel = null;
        lastSeqSlot = null;
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
            seqSlot(frame.channel())[0] = frame.seq();
        }
        // the frame's wire bytes, made once for all its subscribers (WireFrame), not encoded again here
        final ByteBuf wire = WireFrame.of(frame);
        if (!batching)
        {
            write(WireFrame.forChannel(wire), frame.json().length);
            return;
        }
        if (pendingFrames == null)
        {
            pendingFrames = WireFrame.forChannel(wire);
        }
        else
        {
            if (!pendingCopied)
            {
                final ByteBuf first = pendingFrames;
                pendingFrames = channel.alloc().directBuffer(Math.max(BATCH_BUFFER_BYTES,
                    first.readableBytes() + wire.readableBytes()));
                pendingFrames.writeBytes(first, first.readerIndex(), first.readableBytes());
                pendingCopied = true;
            }
            pendingFrames.writeBytes(wire, wire.readerIndex(), wire.readableBytes());
        }
        batchBytes += frame.json().length;
        batchFrames++;
        if (pendingFrames.readableBytes() >= BATCH_BUFFER_LIMIT)
        {
            writePending();
        }
        warnIfOver();
    }

    /** The seq slot of a channel, made on its first frame. */
    private long[] seqSlot(final String channelName)
    {
        if (channelName != lastSeqChannel)
        {
            long[] slot = lastSeq.get(channelName);
            if (slot == null)
            {
                slot = new long[1];
                lastSeq.put(channelName, slot);
            }
            lastSeqChannel = channelName;
            lastSeqSlot = slot;
        }
        return lastSeqSlot;
    }

    /** The batch's frames so far go to the channel, unflushed (before anything else it writes, to keep the order). */
    private void writePending()
    {
        if (pendingFrames != null)
        {
            channel.write(pendingFrames, quietPromise);
            pendingFrames = null;
            pendingCopied = false;
        }
    }

    /** From now until {@link #endBatch}, the frames written go out with one flush (event loop only). */
    void beginBatch()
    {
        batching = true;
    }

    /** The batch's writes are flushed, and counted once they are all written (a channel writes in order). */
    void endBatch()
    {
        batching = false;
        if (batchFrames == 0)
        {
            channel.flush();
            return;
        }
        final long bytes = batchBytes;
        final int frames = batchFrames;
        batchBytes = 0;
        batchFrames = 0;
        final ByteBuf last = pendingFrames == null ? Unpooled.EMPTY_BUFFER : pendingFrames;
        pendingFrames = null;
        pendingCopied = false;
        written(channel.writeAndFlush(last), bytes, frames);
    }

    /** One message of {@code length} counted bytes: in a batch without a promise of its own, else at once. */
    private void write(final Object message, final int length)
    {
        if (batching)
        {
            writePending();
            channel.write(message, quietPromise);
            batchBytes += length;
            batchFrames++;
        }
        else
        {
            written(channel.writeAndFlush(message), length, 1);
        }
        warnIfOver();
    }

    private void written(final ChannelFuture future, final long bytes, final int frames)
    {
        future.addListener(done ->
        {
            queued.addAndGet(-bytes);
            if (done.isSuccess())
            {
                counters.framesOut(frames, bytes);
            }
            drained();
        });
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
