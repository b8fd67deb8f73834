package io.venue.entry.protect;

import io.venue.tuning.Doorbell;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Protection commands on their way from the lanes to the sequencer, which stamps and journals each (no verifier: they
 * are not client-signed; the lane authenticated the session or the request). A ring buffer: offering never blocks; a
 * full ring refuses and counts ({@link #notJournaled()}). Each message: connection id, correlation id (0 when nobody
 * waits for the answer), then the command record.
 */
public final class ProtectionRequests
{
    /** The sequencer's side: one command to stamp and journal. */
    @FunctionalInterface
    public interface Handler
    {
        void onProtection(long connectionId, long correlationId, DirectBuffer record, int offset, int length);
    }

    private static final int MESSAGE_TYPE = 1;
    private static final int HEADER = 16;

    private final ManyToOneRingBuffer ring;
    private final AtomicLong notJournaled = new AtomicLong();
    private final ThreadLocal<UnsafeBuffer> scratch =
        ThreadLocal.withInitial(() -> new UnsafeBuffer(new byte[HEADER + ProtectionCommands.MAX_LENGTH]));
    private final ThreadLocal<ProtectionCommands> writers = ThreadLocal.withInitial(ProtectionCommands::new);
    private Handler handler;
    private Doorbell consumer;
    private final MessageHandler onMessage = (type, buffer, offset, length) -> handler.onProtection(
        buffer.getLong(offset), buffer.getLong(offset + 8), buffer, offset + HEADER, length - HEADER);

    public ProtectionRequests(final int capacityBytes)
    {
        ring = new ManyToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** Rings {@code consumer} (the sequencer's thread's bell) after each command queued. */
    public ProtectionRequests wakes(final Doorbell consumer)
    {
        this.consumer = consumer;
        return this;
    }

    /** The calling thread's writer and scratch buffer: write the record at {@link #RECORD_AT}, then {@link #offer}. */
    public ProtectionCommands writer()
    {
        return writers.get();
    }

    /** Where {@link #offer} expects the record in {@link #scratch()}. */
    public static final int RECORD_AT = HEADER;

    public UnsafeBuffer scratch()
    {
        return scratch.get();
    }

    /**
     * Queues the record the calling thread wrote at {@link #RECORD_AT} of its {@link #scratch()}.
     *
     * @return false (counted) when the ring is full.
     */
    public boolean offer(final long connectionId, final long correlationId, final int recordLength)
    {
        final UnsafeBuffer buffer = scratch.get();
        buffer.putLong(0, connectionId);
        buffer.putLong(8, correlationId);
        if (!ring.write(MESSAGE_TYPE, buffer, 0, HEADER + recordLength))
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

    /**
     * Queues a command record written elsewhere ({@code length} bytes at {@code offset} of {@code record}): a session
     * lane's SESSION_CREDENTIAL order command (journal version 13), which the sequencer stamps like a protection
     * command. Never blocks.
     *
     * @return false (counted) when the ring is full.
     */
    public boolean offer(final long connectionId, final long correlationId, final DirectBuffer record,
        final int offset, final int length)
    {
        final int index = ring.tryClaim(MESSAGE_TYPE, HEADER + length);
        if (index < 0)
        {
            notJournaled.incrementAndGet();
            return false;
        }
        final AtomicBuffer buffer = ring.buffer();
        buffer.putLong(index, connectionId);
        buffer.putLong(index + 8, correlationId);
        buffer.putBytes(index + HEADER, record, offset, length);
        ring.commit(index);
        if (consumer != null)
        {
            consumer.ring();
        }
        return true;
    }

    /** Hands up to {@code limit} commands to {@code handler}, on the sequencer's thread. */
    public int poll(final Handler handler, final int limit)
    {
        this.handler = handler;
        return ring.read(onMessage, limit);
    }

    /** Commands dropped because the ring was full. */
    public long notJournaled()
    {
        return notJournaled.get();
    }
}
