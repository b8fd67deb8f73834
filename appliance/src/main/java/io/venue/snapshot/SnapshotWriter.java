package io.venue.snapshot;

import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateMeta;
import io.venue.engine.state.StoreFile;
import io.venue.snapshot.sbe.MessageHeaderEncoder;
import io.venue.snapshot.sbe.SnapshotEndEncoder;
import io.venue.snapshot.sbe.SnapshotHeaderEncoder;
import io.venue.snapshot.sbe.StoreEntryEncoder;
import org.agrona.ExpandableArrayBuffer;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes a snapshot of a state whose maps are written up to a command ({@code Engine.flushState} first): a
 * header, every entry of every store as its raw bytes, and an end record with the count and a CRC-32C of the
 * header and the entries. Each
 * record is framed by its length (4 bytes, little-endian), as in the journals. The file is written under a
 * partial name, forced to disk, then renamed.
 */
public final class SnapshotWriter
{
    private SnapshotWriter()
    {
    }

    /**
     * @return the finished file, named for the state's applied sequence.
     * @throws IllegalStateException when the state holds no command yet or a write to it is in progress.
     */
    public static Path write(final EngineState state, final Path directory) throws IOException
    {
        final StateMeta meta = state.meta();
        final long sequence = meta.appliedSequence();
        if (sequence == StateMeta.NO_SEQUENCE || meta.pendingSequence() != StateMeta.NO_SEQUENCE)
        {
            throw new IllegalStateException("a snapshot needs maps written up to a command: applied " + sequence +
                ", pending " + meta.pendingSequence());
        }
        Files.createDirectories(directory);
        final Path finished = SnapshotFiles.fileFor(directory, sequence);
        final Path partial = finished.resolveSibling(finished.getFileName() + SnapshotFiles.PARTIAL);
        final ExpandableArrayBuffer record = new ExpandableArrayBuffer(1024);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final CRC32C checksum = new CRC32C();
        final long[] entries = {0};
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(partial), 1 << 16))
        {
            final SnapshotHeaderEncoder head = new SnapshotHeaderEncoder().wrapAndApplyHeader(record, 4, header)
                .sequence(sequence).stateFormat(StateMeta.FORMAT_VERSION).priority(meta.priority())
                .venueFlags(meta.venueFlags());
            final int headLength = MessageHeaderEncoder.ENCODED_LENGTH + head.encodedLength();
            checksum.update(record.byteArray(), 4, headLength);
            frame(out, record, headLength);

            final StoreEntryEncoder entry = new StoreEntryEncoder();
            for (final StoreFile store : StoreFile.values())
            {
                state.forEachEntry(store, (key, keyLength, value, valueLength) ->
                {
                    entry.wrapAndApplyHeader(record, 4, header).store((short)store.ordinal());
                    entry.putKey(key, 0, keyLength).putValue(value, 0, valueLength);
                    final int length = MessageHeaderEncoder.ENCODED_LENGTH + entry.encodedLength();
                    checksum.update(record.byteArray(), 4, length);
                    entries[0]++;
                    try
                    {
                        frame(out, record, length);
                    }
                    catch (final IOException ex)
                    {
                        throw new UncheckedIOException(ex);
                    }
                });
            }
            final SnapshotEndEncoder end = new SnapshotEndEncoder().wrapAndApplyHeader(record, 4, header)
                .sequence(sequence).entries(entries[0]).checksum(checksum.getValue());
            frame(out, record, MessageHeaderEncoder.ENCODED_LENGTH + end.encodedLength());
        }
        catch (final UncheckedIOException ex)
        {
            throw ex.getCause();
        }
        try (var channel = FileChannel.open(partial, StandardOpenOption.WRITE))
        {
            channel.force(true);
        }
        Files.move(partial, finished, StandardCopyOption.ATOMIC_MOVE);
        // the new name must reach the disk before an older snapshot is pruned
        try (var folder = FileChannel.open(directory, StandardOpenOption.READ))
        {
            folder.force(true);
        }
        return finished;
    }

    /** Writes the record at {@code record[4, 4 + length)} with its length in front. */
    private static void frame(final OutputStream out, final ExpandableArrayBuffer record, final int length)
        throws IOException
    {
        record.putInt(0, length, ByteOrder.LITTLE_ENDIAN);
        out.write(record.byteArray(), 0, 4 + length);
    }
}
