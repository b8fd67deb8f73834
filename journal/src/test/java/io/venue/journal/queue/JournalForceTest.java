package io.venue.journal.queue;

import io.venue.journal.JournalRecords;
import net.openhft.chronicle.core.time.SetTimeProvider;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link JournalAppender#force}: what it counts, what it covers, across a roll, and with nothing written. */
class JournalForceTest
{
    @TempDir
    Path folder;

    @Test
    void eachForceCoversTheLastCommittedRecordAcrossARoll()
    {
        final SetTimeProvider clock = new SetTimeProvider(TimeUnit.SECONDS.toNanos(1_800_000_000L));
        try (Journal journal = Journal.openRollingEveryFiveMinutes(folder, clock))
        {
            final JournalAppender appender = journal.appender();
            appender.add(record(1), 0, 64);
            appender.add(record(2), 0, 64);
            appender.commit();
            assertEquals(0, appender.forcedSequence(), "nothing forced before a force");
            appender.force();
            assertEquals(2, appender.forcedSequence());
            assertEquals(1, appender.forces());

            // the next cycle's file: forced through a file of its own
            clock.advanceMillis(TimeUnit.MINUTES.toMillis(6));
            appender.append(record(3), 0, 64);
            appender.force();
            assertEquals(3, appender.forcedSequence());
            assertEquals(2, appender.forces());
            assertEquals(3, journal.lastSequence());
        }
    }

    @Test
    void aForceWithNothingCommittedThrows()
    {
        try (Journal journal = Journal.open(folder))
        {
            final JournalAppender appender = journal.appender();
            assertThrows(UncheckedIOException.class, appender::force);
            assertEquals(0, appender.forces());
        }
    }

    /** A 64-byte stand-in record carrying {@code sequence} where every record keeps it. */
    private static UnsafeBuffer record(final long sequence)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        buffer.putLong(JournalRecords.SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
        return buffer;
    }
}
