package io.venue.journal.queue;

import io.venue.journal.JournalRecords;
import net.openhft.chronicle.core.time.TimeProvider;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32C;

/**
 * One journal — the commands or the events — as a Chronicle Queue in a folder, one file per day. Each excerpt
 * holds one or more SBE records, each framed by its length ({@value #FRAME_HEADER} bytes, little-endian, then
 * the record's raw bytes). The command journal's excerpts hold the commands its sequencer had ready at once,
 * the event journal's the events of the commands its engine applied at once; a command's events are never split
 * between excerpts, and records are in sequence order. One appender thread writes; any number of tailers read,
 * each at its own index.
 */
public final class Journal implements AutoCloseable
{
    /** The length in front of every record in an excerpt. */
    public static final int FRAME_HEADER = 4;

    private final ChronicleQueue queue;
    private final Path folder;
    /** Where this journal's writer is (one writer per journal); followed by a {@link JournalPretoucher}. */
    private final WriteFront writeFront = new WriteFront();

    /** The writable journal's hold on its folder; null when read only. */
    private final WriterLock writerLock;
    private final List<Path> setAside;
    /** The appenders made, whose forcing files {@link #close} closes (a journal makes one or two in its life). */
    private final List<JournalAppender> appenders = new CopyOnWriteArrayList<>();

    private Journal(final Path folder, final boolean readOnly)
    {
        this(SingleChronicleQueueBuilder.single(folder.toFile()).rollCycle(RollCycles.FAST_DAILY).readOnly(readOnly),
            folder, readOnly);
    }

    private Journal(final SingleChronicleQueueBuilder builder, final Path folder, final boolean readOnly)
    {
        this.folder = folder;
        writerLock = readOnly ? null : WriterLock.acquire(folder);
        try
        {
            setAside = null != writerLock && writerLock.first() ? HeaderlessFiles.setAside(folder) : List.of();
            this.queue = builder.build();
        }
        catch (final RuntimeException ex)
        {
            if (null != writerLock)
            {
                writerLock.close();
            }
            throw ex;
        }
    }

    /** For tests of what happens at a roll: a journal rolling every five minutes of {@code clock}. */
    static Journal openRollingEveryFiveMinutes(final Path folder, final TimeProvider clock)
    {
        return new Journal(SingleChronicleQueueBuilder.single(folder.toFile()).rollCycle(RollCycles.FIVE_MINUTELY)
            .timeProvider(clock), folder, false);
    }

    /**
     * The files this open set aside (renamed {@code *.cq4.headerless}): cycle files a writer that died made and never
     * gave their header, so they hold no record; Chronicle would wait on each and not write that cycle.
     */
    public List<Path> setAside()
    {
        return setAside;
    }

    /**
     * Opens (creating if needed) the journal in {@code folder} for writing and reading.
     *
     * @throws IllegalStateException when another process has it open for writing.
     */
    public static Journal open(final Path folder)
    {
        return new Journal(folder, false);
    }

    /** Opens an existing journal without writing to it (incident analysis, a standby's reader). */
    public static Journal openReadOnly(final Path folder)
    {
        return new Journal(folder, true);
    }

    public JournalAppender appender()
    {
        final JournalAppender appender = new JournalAppender(queue.createAppender(), writeFront, folder);
        appenders.add(appender);
        return appender;
    }

    /** A reader from the first record. */
    public JournalTailer tailer()
    {
        return new JournalTailer(queue.createTailer());
    }

    /** The index of the last excerpt written, or -1 if the journal is empty. */
    public long lastIndex()
    {
        final long index = queue.lastIndex();
        return index < 0 ? -1 : index;
    }

    /**
     * Hands the records of the last excerpt to {@code handler}, in order (the newest commands, or the newest
     * commands' events).
     *
     * @return false when the journal is empty.
     */
    public boolean readLast(final RecordHandler handler)
    {
        final long last = lastIndex();
        if (last < 0)
        {
            return false;
        }
        try (JournalTailer tailer = tailer())
        {
            return tailer.moveToIndex(last) && tailer.read(handler);
        }
    }

    /** The sequence of the last record (the newest command, or the command of the newest events); 0 when empty. */
    public long lastSequence()
    {
        final long[] sequence = {0};
        readLast((buffer, offset, length, index) -> sequence[0] = JournalRecords.sequence(buffer, offset));
        return sequence[0];
    }

    /**
     * The CRC-32C of the record with this sequence (its bytes as journaled), or 0 when the journal holds none (as
     * for 0).
     */
    public long recordCrc(final long sequence)
    {
        if (sequence <= 0)
        {
            return 0;
        }
        final long[] crc = {0};
        final boolean[] found = {false};
        try (JournalTailer tailer = tailer())
        {
            tailer.moveAfterSequence(sequence - 1);
            while (!found[0] && tailer.read((buffer, offset, length, index) ->
            {
                final long recordSequence = JournalRecords.sequence(buffer, offset);
                if (!found[0] && recordSequence >= sequence)
                {
                    found[0] = true;
                    if (recordSequence == sequence)
                    {
                        final byte[] bytes = new byte[length];
                        buffer.getBytes(offset, bytes);
                        final CRC32C of = new CRC32C();
                        of.update(bytes);
                        crc[0] = of.getValue();
                    }
                }
            }))
            {
                // to the record
            }
        }
        return crc[0];
    }

    /** The time the sequencer stamped on the last command of a command journal; 0 when empty. */
    public long lastTimestampMs()
    {
        final long[] stamp = {0};
        readLast((buffer, offset, length, index) -> stamp[0] = JournalRecords.timestampMs(buffer, offset));
        return stamp[0];
    }

    /** The epoch of the last record: the replication epoch that wrote last; 0 when empty. */
    public long lastEpoch()
    {
        final long[] epoch = {0};
        readLast((buffer, offset, length, index) -> epoch[0] = JournalRecords.epoch(buffer, offset));
        return epoch[0];
    }

    /**
     * Hands each length-framed record of an excerpt's bytes {@code buffer[offset, offset + length)} to
     * {@code handler}, with {@code index}; the frames must have been checked ({@link JournalTailer}).
     */
    public static void forEachRecord(
        final DirectBuffer buffer, final int offset, final int length, final long index, final RecordHandler handler)
    {
        for (int position = offset; position < offset + length; )
        {
            final int recordLength = buffer.getInt(position, ByteOrder.LITTLE_ENDIAN);
            handler.onRecord(buffer, position + FRAME_HEADER, recordLength, index);
            position += FRAME_HEADER + recordLength;
        }
    }

    WriteFront writeFront()
    {
        return writeFront;
    }

    public Path folder()
    {
        return folder;
    }

    @Override
    public void close()
    {
        try
        {
            for (final JournalAppender appender : appenders)
            {
                appender.closeForcing();
            }
            queue.close();
        }
        finally
        {
            if (null != writerLock)
            {
                writerLock.close();
            }
        }
    }
}
