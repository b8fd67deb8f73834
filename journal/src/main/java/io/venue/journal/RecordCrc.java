package io.venue.journal;

import org.agrona.DirectBuffer;

import java.util.zip.CRC32C;

/**
 * The CRC-32C of a journal record's bytes: what two nodes compare to know they hold the same record at a sequence.
 * Reuses its scratch: one per thread.
 */
public final class RecordCrc
{
    private final CRC32C crc = new CRC32C();
    private byte[] scratch = new byte[1024];

    /** The CRC of {@code buffer[offset, offset + length)}, as an unsigned 32-bit value. */
    public long of(final DirectBuffer buffer, final int offset, final int length)
    {
        if (scratch.length < length)
        {
            scratch = new byte[Math.max(length, 2 * scratch.length)];
        }
        buffer.getBytes(offset, scratch, 0, length);
        crc.reset();
        crc.update(scratch, 0, length);
        return crc.getValue();
    }
}
