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

        /**
         * A FIX session's sequence numbers to journal as a {@code FixSessionMark} (docs/FIX.md, "Sequence numbers"):
         * the same ring, so that a session's marks are journaled in the order it offered them.
         */
        default void onFixSessionMark(final long connectionId, final long credentialId, final int subSession,
            final int kind, final long nextInSeq, final long nextOutSeq, final long reservedOutThrough,
            final long reportKey)
        {
        }
    }

    private static final int MESSAGE_TYPE = 1;
    private static final int FIX_MARK_TYPE = 2;
    private static final int FIX_MARK_LENGTH = 8 + 8 + 4 + 4 + 8 + 8 + 8 + 8;
    private static final int HEADER = 8 + 8 + 4;

    private final ManyToOneRingBuffer ring;
    private final AtomicLong notJournaled = new AtomicLong();
    private final ThreadLocal<UnsafeBuffer> scratch =
        ThreadLocal.withInitial(() -> new UnsafeBuffer(new byte[HEADER + RefusalDetails.MAX_BYTES]));
    private Handler handler;
    private Doorbell consumer;
    private final MessageHandler onMessage = (type, buffer, offset, length) ->
    {
        if (type == FIX_MARK_TYPE)
        {
            handler.onFixSessionMark(buffer.getLong(offset), buffer.getLong(offset + 8), buffer.getInt(offset + 16),
                buffer.getInt(offset + 20), buffer.getLong(offset + 24), buffer.getLong(offset + 32),
                buffer.getLong(offset + 40), buffer.getLong(offset + 48));
            return;
        }
        handler.onRefusal(buffer.getLong(offset), buffer.getLong(offset + 8), buffer.getInt(offset + 16),
            buffer.getStringWithoutLengthUtf8(offset + HEADER, length - HEADER));
    };

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

    /**
     * A FIX session's sequence numbers, to journal as a {@code FixSessionMark}; {@code credentialId} is the 16 hex
     * digits of its {@code spk_} id as a big-endian long, {@code subSession} and {@code kind} the schema's values.
     *
     * @return whether it was queued (false: the ring was full; counted in {@link #notJournaled()}).
     */
    public boolean offerFixSessionMark(final long connectionId, final long credentialId, final int subSession,
        final int kind, final long nextInSeq, final long nextOutSeq, final long reservedOutThrough,
        final long reportKey)
    {
        final UnsafeBuffer buffer = scratch.get();
        buffer.putLong(0, connectionId);
        buffer.putLong(8, credentialId);
        buffer.putInt(16, subSession);
        buffer.putInt(20, kind);
        buffer.putLong(24, nextInSeq);
        buffer.putLong(32, nextOutSeq);
        buffer.putLong(40, reservedOutThrough);
        buffer.putLong(48, reportKey);
        if (!ring.write(FIX_MARK_TYPE, buffer, 0, FIX_MARK_LENGTH))
        {
            notJournaled.incrementAndGet();
            return false;
        }
        if (consumer != null)
        {
            consumer.ring();
        }
        return true;
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
