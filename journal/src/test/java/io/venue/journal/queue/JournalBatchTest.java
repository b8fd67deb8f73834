package io.venue.journal.queue;

import io.venue.journal.JournalRecords;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Excerpts holding several records (a command's events): staged and committed whole, read back record by
 * record with the excerpt's index, and excerpts whose frames do not fit reported with their index.
 */
class JournalBatchTest
{
    @TempDir
    Path folder;

    @Test
    void stagedRecordsBecomeOneExcerptAndComeBackInOrder()
    {
        final Random random = new Random(11);
        final List<byte[]> written = new ArrayList<>();
        final List<Long> excerptOf = new ArrayList<>();
        final List<byte[]> excerpts = new ArrayList<>();
        try (Journal journal = Journal.open(folder))
        {
            final JournalAppender appender = journal.appender();
            assertEquals(-1, appender.commit(), "nothing staged, nothing written");
            for (int batch = 0; batch < 300; batch++)
            {
                final int records = random.nextInt(9);
                for (int r = 0; r < records; r++)
                {
                    final byte[] record = new byte[1 + random.nextInt(300)];
                    random.nextBytes(record);
                    final UnsafeBuffer source = r % 2 == 0 ?
                        new UnsafeBuffer(new byte[record.length + 3]) : new UnsafeBuffer(
                            ByteBuffer.allocateDirect(record.length + 3));
                    source.putBytes(3, record);
                    appender.add(source, 3, record.length);
                    written.add(record);
                }
                assertEquals(records, appender.stagedRecords());
                final byte[] framed = new byte[appender.stagedLength()];
                appender.staged().getBytes(0, framed);
                final long index = appender.commit();
                assertEquals(0, appender.stagedRecords());
                if (records == 0)
                {
                    assertEquals(-1, index);
                    continue;
                }
                excerpts.add(framed);
                for (int r = 0; r < records; r++)
                {
                    excerptOf.add(index);
                }
            }
            assertThrows(IllegalStateException.class, () ->
            {
                appender.add(new UnsafeBuffer(new byte[4]), 0, 4);
                appender.append(new UnsafeBuffer(new byte[4]), 0, 4);
            }, "append refuses to write past staged records");
            appender.discard();
        }

        try (Journal journal = Journal.openReadOnly(folder))
        {
            final List<byte[]> read = new ArrayList<>();
            final List<Long> indexes = new ArrayList<>();
            final JournalTailer tailer = journal.tailer();
            while (tailer.read((buffer, offset, length, index) ->
            {
                read.add(copy(buffer, offset, length));
                indexes.add(index);
            }))
            {
                // to the end
            }
            assertRecords(written, read);
            assertEquals(excerptOf, indexes);

            final RecordCursor cursor = new RecordCursor(journal.tailer());
            final List<byte[]> oneByOne = new ArrayList<>();
            final List<Long> cursorIndexes = new ArrayList<>();
            while (cursor.next((buffer, offset, length, index) ->
            {
                oneByOne.add(copy(buffer, offset, length));
                cursorIndexes.add(index);
            }))
            {
                // to the end
            }
            assertRecords(written, oneByOne);
            assertEquals(excerptOf, cursorIndexes);

            final JournalTailer whole = journal.tailer();
            for (final byte[] framed : excerpts)
            {
                assertTrue(whole.readExcerpt((buffer, offset, length, index) -> assertArrayEquals(framed,
                    copy(buffer, offset, length))));
            }
            assertFalse(whole.readExcerpt((buffer, offset, length, index) -> { }));
        }
    }

    @Test
    void anExcerptWhoseFramesDoNotFitIsReportedWithItsIndexAndNotSkipped()
    {
        final long damagedAt;
        try (Journal journal = Journal.open(folder))
        {
            journal.appender().append(new UnsafeBuffer(new byte[]{1, 2, 3}), 0, 3);
        }
        // a frame claiming 100 bytes (Chronicle writes little-endian here) in an excerpt of 6, written past the
        // journal's own appender
        try (ChronicleQueue raw = SingleChronicleQueueBuilder.single(folder.toFile())
            .rollCycle(RollCycles.FAST_DAILY).build())
        {
            final ExcerptAppender appender = raw.createAppender();
            try (DocumentContext context = appender.writingDocument())
            {
                context.wire().bytes().writeInt(100).write(new byte[]{9, 9});
                damagedAt = context.index();
            }
        }
        try (Journal journal = Journal.openReadOnly(folder))
        {
            final JournalTailer tailer = journal.tailer();
            assertTrue(tailer.read((buffer, offset, length, index) -> assertEquals(3, length)));
            final JournalDamagedException damaged = assertThrows(JournalDamagedException.class,
                () -> tailer.read((buffer, offset, length, index) -> { }));
            assertEquals(damagedAt, damaged.index());
            assertTrue(damaged.getMessage().contains("index " + damagedAt), damaged.getMessage());
            assertEquals(damagedAt, assertThrows(JournalDamagedException.class,
                () -> tailer.read((buffer, offset, length, index) -> { })).index(), "the tailer stays on the damage");
        }
    }

    @Test
    void aReadThatStopsInsideAnExcerptGoesOnFromTheRecordItStoppedAtNeverHandingARecordTwice()
    {
        final long damagedAt;
        try (ChronicleQueue raw = SingleChronicleQueueBuilder.single(folder.toFile())
            .rollCycle(RollCycles.FAST_DAILY).build())
        {
            final ExcerptAppender appender = raw.createAppender();
            // four good records of 16 bytes (sequences 1..4), then a frame claiming 100 bytes
            try (DocumentContext context = appender.writingDocument())
            {
                for (long sequence = 1; sequence <= 4; sequence++)
                {
                    context.wire().bytes().writeInt(16).writeLong(0).writeLong(sequence);
                }
                context.wire().bytes().writeInt(100).write(new byte[]{9, 9});
                damagedAt = context.index();
            }
            try (DocumentContext context = appender.writingDocument())
            {
                context.wire().bytes().writeInt(16).writeLong(0).writeLong(5);
            }
        }
        try (Journal journal = Journal.openReadOnly(folder))
        {
            final List<Long> handed = new ArrayList<>();
            final RecordHandler collect = (buffer, offset, length, index) ->
                handed.add(JournalRecords.sequence(buffer, offset));
            final JournalTailer tailer = journal.tailer();
            assertEquals(damagedAt, assertThrows(JournalDamagedException.class, () -> tailer.read(collect)).index());
            assertEquals(List.of(1L, 2L, 3L, 4L), handed, "the records before the damage, once");
            assertThrows(JournalDamagedException.class, () -> tailer.read(collect), "still stopped at the damage");
            assertEquals(List.of(1L, 2L, 3L, 4L), handed, "and none of them again");

            // a handler that throws at record 3 of the first excerpt: the next read goes on at record 3
            final JournalTailer other = journal.tailer();
            handed.clear();
            final boolean[] failOnce = {true};
            final RuntimeException failure = new IllegalStateException("the handler failed");
            assertThrows(IllegalStateException.class, () -> other.read((buffer, offset, length, index) ->
            {
                final long sequence = JournalRecords.sequence(buffer, offset);
                if (sequence == 3 && failOnce[0])
                {
                    failOnce[0] = false;
                    throw failure;
                }
                handed.add(sequence);
            }));
            assertThrows(JournalDamagedException.class, () -> other.read(collect));
            assertEquals(List.of(1L, 2L, 3L, 4L), handed, "record 3 handed again, 1 and 2 not");

            // a move to an index forgets where a read stopped
            other.moveToIndex(damagedAt);
            handed.clear();
            assertThrows(JournalDamagedException.class, () -> other.read(collect));
            assertEquals(List.of(1L, 2L, 3L, 4L), handed);
        }
    }

    @Test
    void aCommitThatFailsLeavesNothingReadersSeeAndTheNextCommitIsRead()
    {
        try (Journal journal = Journal.open(folder))
        {
            final JournalAppender appender = journal.appender();
            appender.append(new UnsafeBuffer(new byte[]{1}), 0, 1);
            // more than Chronicle takes in one excerpt
            final UnsafeBuffer huge = new UnsafeBuffer(new byte[1 << 20]);
            for (int i = 0; i < 20; i++)
            {
                appender.add(huge, 0, huge.capacity());
            }
            assertThrows(RuntimeException.class, appender::commit);
            assertEquals(0, appender.stagedRecords(), "the failed records are cleared");
            appender.append(new UnsafeBuffer(new byte[]{2, 2}), 0, 2);

            final List<Integer> lengths = new ArrayList<>();
            final JournalTailer tailer = journal.tailer();
            while (tailer.read((buffer, offset, length, index) -> lengths.add(length)))
            {
                // to the end
            }
            assertEquals(List.of(1, 2), lengths);
        }
    }

    @Test
    void readsOverRandomExcerptsHandEveryGoodRecordOnceInOrderWhateverStopsThem()
    {
        final Random random = new Random(2026);
        final List<byte[]> expected = new ArrayList<>();
        final List<Long> damagedIndexes = new ArrayList<>();
        try (ChronicleQueue raw = SingleChronicleQueueBuilder.single(folder.toFile())
            .rollCycle(RollCycles.FAST_DAILY).build())
        {
            final ExcerptAppender appender = raw.createAppender();
            for (int excerpt = 0; excerpt < 600; excerpt++)
            {
                try (DocumentContext context = appender.writingDocument())
                {
                    final var bytes = context.wire().bytes();
                    final int records = 1 + random.nextInt(6);
                    for (int r = 0; r < records; r++)
                    {
                        final byte[] record = new byte[1 + random.nextInt(40)];
                        random.nextBytes(record);
                        bytes.writeInt(record.length).write(record);
                        expected.add(record);
                    }
                    // one excerpt in five ends in a frame that does not fit: a length past the end, or a cut header
                    if (random.nextInt(5) == 0)
                    {
                        if (random.nextBoolean())
                        {
                            bytes.writeInt(1_000 + random.nextInt(1_000)).write(new byte[]{1, 2, 3});
                        }
                        else
                        {
                            bytes.writeShort((short)7);
                        }
                        damagedIndexes.add(context.index());
                    }
                }
            }
        }
        try (Journal journal = Journal.openReadOnly(folder))
        {
            final JournalTailer tailer = journal.tailer();
            final List<byte[]> handed = new ArrayList<>();
            final Set<Integer> failedOnce = new HashSet<>();
            int damagesSeen = 0;
            while (true)
            {
                try
                {
                    final boolean read = tailer.read((buffer, offset, length, index) ->
                    {
                        // a handler that fails the first time on about one record in ten
                        if (random.nextInt(10) == 0 && failedOnce.add(handed.size()))
                        {
                            throw new IllegalStateException("the handler failed");
                        }
                        handed.add(copy(buffer, offset, length));
                    });
                    if (!read)
                    {
                        break;
                    }
                }
                catch (final JournalDamagedException damaged)
                {
                    assertEquals(damagedIndexes.get(damagesSeen), damaged.index(),
                        "the damage is reported where it is");
                    damagesSeen++;
                    // an operator's choice, for this test only: go on past the damaged excerpt
                    tailer.moveToIndex(damaged.index() + 1);
                }
                catch (final IllegalStateException failed)
                {
                    // read the same excerpt again
                }
            }
            assertEquals(damagedIndexes.size(), damagesSeen);
            assertTrue(failedOnce.size() > 10, "handler failures: " + failedOnce.size());
            assertRecords(expected, handed);
        }
    }

    @Test
    void aHandlerThatStopsHereHasTheNextReadStartAtTheRecordItStoppedOn()
    {
        try (Journal journal = Journal.open(folder))
        {
            final JournalAppender appender = journal.appender();
            final UnsafeBuffer record = new UnsafeBuffer(new byte[24]);
            for (long sequence = 1; sequence <= 5; sequence++)
            {
                record.putLong(JournalRecords.SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
                appender.add(record, 0, record.capacity());
            }
            appender.commit();
            record.putLong(JournalRecords.SEQUENCE_OFFSET, 6, ByteOrder.LITTLE_ENDIAN);
            appender.append(record, 0, record.capacity());

            final JournalTailer tailer = journal.tailer();
            final List<Long> handed = new ArrayList<>();
            final long[] stopAt = {3};
            final RecordHandler upTo = (buffer, offset, length, index) ->
            {
                final long sequence = JournalRecords.sequence(buffer, offset);
                if (sequence == stopAt[0])
                {
                    tailer.stopHere();
                    return;
                }
                handed.add(sequence);
            };
            assertTrue(tailer.read(upTo));
            assertEquals(List.of(1L, 2L), handed, "nothing after the stop");
            stopAt[0] = 0;
            assertTrue(tailer.read(upTo));
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L), handed, "the next read starts at the record it stopped on");
            assertTrue(tailer.read(upTo));
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), handed);
            assertFalse(tailer.read(upTo));
        }
    }

    @Test
    void anyExcerptBytesEitherSplitIntoFramesThatCoverThemOrAreReportedDamaged()
    {
        final Random random = new Random(5);
        for (int trial = 0; trial < 20_000; trial++)
        {
            final int length = random.nextInt(40);
            final UnsafeBuffer excerpt = new UnsafeBuffer(new byte[Math.max(1, length)]);
            // mostly plausible frames, then damaged ones
            int position = 0;
            while (position + 4 < length && random.nextInt(4) != 0)
            {
                final int recordLength = random.nextInt(3) == 0 ? random.nextInt(50) - 5 :
                    1 + random.nextInt(Math.max(1, length - position - 4));
                excerpt.putInt(position, recordLength, ByteOrder.LITTLE_ENDIAN);
                position += 4 + Math.max(0, recordLength);
            }
            try
            {
                JournalTailer.checkFrames(excerpt, length, trial);
                // accepted: the frames cover the excerpt exactly, each at least one byte
                int covered = 0;
                while (covered < length)
                {
                    final int recordLength = excerpt.getInt(covered, ByteOrder.LITTLE_ENDIAN);
                    assertTrue(recordLength > 0);
                    covered += 4 + recordLength;
                }
                assertEquals(length, covered);
            }
            catch (final JournalDamagedException ex)
            {
                assertEquals(trial, ex.index());
            }
        }
    }

    @Test
    void aTailerFindsTheFirstExcerptAfterASequenceByBinarySearch()
    {
        try (Journal journal = Journal.open(folder))
        {
            final JournalTailer empty = journal.tailer();
            empty.moveAfterSequence(5);
            assertFalse(empty.read((buffer, offset, length, index) -> { }), "an empty journal");

            final JournalAppender appender = journal.appender();
            final UnsafeBuffer record = new UnsafeBuffer(new byte[24]);
            // sequences 1..3000 with gaps (every 7th missing, as commands without events) and 1-3 records per excerpt
            for (long sequence = 1; sequence <= 3_000; sequence++)
            {
                if (sequence % 7 == 0)
                {
                    continue;
                }
                for (int r = 0; r < 1 + sequence % 3; r++)
                {
                    record.putLong(JournalRecords.SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
                    appender.add(record, 0, record.capacity());
                }
                appender.commit();
            }
            final JournalTailer tailer = journal.tailer();
            for (final long after : new long[]{-5, 0, 1, 6, 7, 8, 1_499, 2_999, 3_000, 9_000})
            {
                tailer.moveAfterSequence(after);
                final long[] next = {-1};
                final boolean present = tailer.read((buffer, offset, length, index) ->
                    next[0] = buffer.getLong(offset + JournalRecords.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN));
                long expected = Math.max(1, after + 1);
                if (expected % 7 == 0)
                {
                    expected++;
                }
                if (expected > 3_000)
                {
                    assertFalse(present, "nothing after " + after);
                }
                else
                {
                    assertEquals(expected, next[0], "after " + after);
                }
            }
        }
    }

    @Test
    void aMoveAfterASequenceInsideAnExcerptHandsOverThatExcerptFromTheNextRecord()
    {
        final Random random = new Random(23);
        final List<Long> sequences = new ArrayList<>();
        try (Journal journal = Journal.open(folder))
        {
            final JournalAppender appender = journal.appender();
            final UnsafeBuffer record = new UnsafeBuffer(new byte[24]);
            // excerpts of 1-6 commands, each with 0-2 records (a command without events has none), with gaps
            long sequence = 0;
            for (int excerpt = 0; excerpt < 400; excerpt++)
            {
                final int commands = 1 + random.nextInt(6);
                for (int c = 0; c < commands; c++)
                {
                    sequence += 1 + (random.nextInt(5) == 0 ? 1 : 0);
                    for (int r = random.nextInt(3); r > 0; r--)
                    {
                        record.putLong(JournalRecords.SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
                        appender.add(record, 0, record.capacity());
                        sequences.add(sequence);
                    }
                }
                appender.commit();
            }
            final JournalTailer tailer = journal.tailer();
            for (long after = -1; after <= sequence + 1; after++)
            {
                final long bound = after;
                final List<Long> expected = sequences.stream().filter(s -> s > bound).toList();
                tailer.moveAfterSequence(after);
                final List<Long> read = new ArrayList<>();
                while (tailer.read(
                    (buffer, offset, length, index) -> read.add(JournalRecords.sequence(buffer, offset))))
                {
                    // to the end
                }
                assertEquals(expected, read, "records after " + after + " through read");

                final JournalTailer cursorTailer = journal.tailer();
                cursorTailer.moveAfterSequence(after);
                final RecordCursor cursor = new RecordCursor(cursorTailer);
                final List<Long> cursorRead = new ArrayList<>();
                while (cursor.next(
                    (buffer, offset, length, index) -> cursorRead.add(JournalRecords.sequence(buffer, offset))))
                {
                    // to the end
                }
                assertEquals(expected, cursorRead, "records after " + after + " through a cursor");
                cursorTailer.close();
            }
            // a move to an index forgets the skip of a move after a sequence that landed inside an excerpt
            final long[] first = {-1};
            final RecordHandler firstRecord = (buffer, offset, length, i) ->
            {
                if (first[0] < 0)
                {
                    first[0] = JournalRecords.sequence(buffer, offset);
                }
            };
            boolean landedInside = false;
            for (int i = 0; i < sequences.size() && !landedInside; i++)
            {
                final long after = sequences.get(i);
                tailer.moveAfterSequence(after);
                final long index = tailer.index();
                tailer.moveToIndex(index);
                first[0] = -1;
                tailer.read(firstRecord);
                landedInside = first[0] >= 0 && first[0] <= after;
            }
            assertTrue(landedInside, "some move lands inside an excerpt, and a move to its index reads it whole");
        }
    }

    @Test
    void aCursorTellsWhetherTheNextRecordOfItsExcerptBelongsToTheSameCommand()
    {
        try (Journal journal = Journal.open(folder))
        {
            final JournalAppender appender = journal.appender();
            final UnsafeBuffer record = new UnsafeBuffer(new byte[24]);
            for (final long sequence : new long[]{1, 1, 2, 3, 3, 3})
            {
                record.putLong(JournalRecords.SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
                appender.add(record, 0, record.capacity());
            }
            appender.commit();
            record.putLong(JournalRecords.SEQUENCE_OFFSET, 3, ByteOrder.LITTLE_ENDIAN);
            appender.append(record, 0, record.capacity());

            final RecordCursor cursor = new RecordCursor(journal.tailer());
            final List<Integer> groups = new ArrayList<>();
            final long[] sequence = {0};
            final RecordHandler read = (buffer, offset, length, index) -> sequence[0] = JournalRecords.sequence(
                buffer, offset);
            while (cursor.next(read))
            {
                int size = 1;
                while (cursor.nextInExcerptHasSequence(sequence[0]))
                {
                    cursor.next(read);
                    size++;
                }
                groups.add(size);
            }
            // the last record of sequence 3 is in an excerpt of its own: the cursor does not look past the excerpt
            assertEquals(List.of(2, 1, 3, 1), groups);
        }
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        return copy;
    }

    private static void assertRecords(final List<byte[]> expected, final List<byte[]> actual)
    {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
        }
    }
}
