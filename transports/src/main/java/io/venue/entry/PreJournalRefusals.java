package io.venue.entry;

import io.venue.tuning.Doorbell;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.MessageHandler;

/**
 * Requests a lane refused before verification (the edge throttle), on their way to the sequencer, which journals
 * each as a RequestRejected record so the journal answers "what happened to this request" for every request that
 * reached the appliance. A ring buffer: offering never blocks; when it is full the refusal is counted in
 * {@link #notJournaled()} instead (a flood must not stall the I/O threads).
 */
public final class PreJournalRefusals
{
    /** The sequencer's side: one refusal to journal. */
    @FunctionalInterface
    public interface Handler
    {
        void onRefusal(long connectionId, long correlationId, int reason, String detail);
    }

    private static final int MESSAGE_TYPE = 1;
    private static final int HEADER = 8 + 8 + 4;

    private final ManyToOneRingBuffer ring;
    private final AtomicLong notJournaled = new AtomicLong();
    private final ThreadLocal<UnsafeBuffer> scratch =
        ThreadLocal.withInitial(() -> new UnsafeBuffer(new byte[HEADER + RefusalDetails.MAX_BYTES]));
    private Handler handler;
    private Doorbell consumer;
    private final MessageHandler onMessage = (type, buffer, offset, length) -> handler.onRefusal(
        buffer.getLong(offset), buffer.getLong(offset + 8), buffer.getInt(offset + 16),
        buffer.getStringWithoutLengthUtf8(offset + HEADER, length - HEADER));

    public PreJournalRefusals(final int capacityBytes)
    {
        ring = new ManyToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** @param reason a {@code RequestRejectReason} value of the journal schema; a long detail is capped. */
    public void offer(final long connectionId, final long correlationId, final int reason, final String detail)
    {
        final UnsafeBuffer buffer = scratch.get();
        final byte[] text = RefusalDetails.cap(detail).getBytes(StandardCharsets.UTF_8);
        final int length = Math.min(text.length, Math.min(buffer.capacity(), ring.maxMsgLength()) - HEADER);
        buffer.putLong(0, connectionId);
        buffer.putLong(8, correlationId);
        buffer.putInt(16, reason);
        buffer.putBytes(HEADER, text, 0, length);
        if (!ring.write(MESSAGE_TYPE, buffer, 0, HEADER + length))
        {
            notJournaled.incrementAndGet();
        }
        else if (consumer != null)
        {
            consumer.ring();
        }
    }

    /** Rings {@code consumer} (the sequencer's thread's bell) after each refusal queued. */
    public PreJournalRefusals wakes(final Doorbell consumer)
    {
        this.consumer = consumer;
        return this;
    }

    /** Hands up to {@code limit} refusals to {@code handler}, on the sequencer's thread. */
    public int poll(final Handler handler, final int limit)
    {
        this.handler = handler;
        return ring.read(onMessage, limit);
    }

    /** Refusals dropped because the ring was full. */
    public long notJournaled()
    {
        return notJournaled.get();
    }
}
