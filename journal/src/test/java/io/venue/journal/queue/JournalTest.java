package io.venue.journal.queue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal on real Chronicle Queue files in a temporary folder.
 */
class JournalTest
{
    @TempDir
    Path folder;

    @Test
    void recordsComeBackByteForByteInOrderAndAfterReopening()
    {
        final Random random = new Random(7);
        final List<byte[]> written = new ArrayList<>();
        final List<Long> indexes = new ArrayList<>();
        try (Journal journal = Journal.open(folder))
        {
            assertEquals(-1, journal.lastIndex());
            final JournalAppender appender = journal.appender();
            for (int i = 0; i < 1_000; i++)
            {
                final byte[] record = new byte[1 + random.nextInt(600)];
                random.nextBytes(record);
                written.add(record);
                // heap and off-heap sources, at an offset
                final UnsafeBuffer source = i % 2 == 0 ?
                    new UnsafeBuffer(new byte[record.length + 5]) : new UnsafeBuffer(ByteBuffer.allocateDirect(record.length + 5));
                source.putBytes(5, record);
                indexes.add(appender.append(source, 5, record.length));
            }
            assertEquals(indexes.get(indexes.size() - 1), journal.lastIndex());
        }
        for (int i = 1; i < indexes.size(); i++)
        {
            assertTrue(indexes.get(i) > indexes.get(i - 1), "indexes grow");
        }

        try (Journal journal = Journal.openReadOnly(folder))
        {
            final JournalTailer tailer = journal.tailer();
            final List<byte[]> read = new ArrayList<>();
            final List<Long> readIndexes = new ArrayList<>();
            while (tailer.read((buffer, offset, length, index) ->
            {
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                read.add(copy);
                readIndexes.add(index);
            }))
            {
                // reads until the end
            }
            assertEquals(written.size(), read.size());
            for (int i = 0; i < written.size(); i++)
            {
                assertArrayEquals(written.get(i), read.get(i));
            }
            assertEquals(indexes, readIndexes);

            assertTrue(tailer.moveToIndex(indexes.get(500)));
            final byte[][] again = new byte[1][];
            assertTrue(tailer.read((buffer, offset, length, index) ->
            {
                again[0] = new byte[length];
                buffer.getBytes(offset, again[0]);
            }));
            assertArrayEquals(written.get(500), again[0]);
            assertEquals(999, tailer.read((buffer, offset, length, index) -> { }, 10_000) + 500);
            assertFalse(tailer.read((buffer, offset, length, index) -> { }));
        }
    }
}
