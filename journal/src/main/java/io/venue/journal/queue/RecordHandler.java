package io.venue.journal.queue;

import org.agrona.DirectBuffer;

/**
 * Receives one journal record. The buffer points straight at the queue's mapped memory and is valid only
 * during the call.
 */
@FunctionalInterface
public interface RecordHandler
{
    void onRecord(DirectBuffer buffer, int offset, int length, long index);
}
