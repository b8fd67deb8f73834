package io.venue.snapshot;

import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateMeta;
import io.venue.engine.state.StoreFile;
import io.venue.snapshot.sbe.MessageHeaderDecoder;
import io.venue.snapshot.sbe.SnapshotEndDecoder;
import io.venue.snapshot.sbe.SnapshotHeaderDecoder;
import io.venue.snapshot.sbe.StoreEntryDecoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Loads a snapshot into an empty state: every entry into its store, then the priority counter and the venue
 * flags, all under the snapshot's sequence marked pending (so a crash while loading is seen as an incomplete
 * apply), committed only once the end record's count and CRC-32C agree. Afterwards the state opens like one
 * the engine wrote itself at that sequence ({@code PersistedEngine.open}).
 */
public final class SnapshotReader
{
    /** Larger than any record of the schema: a frame claiming more is damage, not a record. */
    private static final int MAX_RECORD = 4096;

    private SnapshotReader()
    {
    }

    /**
     * @return the sequence the snapshot reflects.
     * @throws SnapshotDamagedException when the file is cut short, altered or of another format; the state is
     *                                  then left marked incomplete and must be made anew.
     * @throws IllegalArgumentException when the state is not empty.
     */
    public static long load(final Path file, final EngineState state) throws IOException, SnapshotDamagedException
    {
        final StateMeta meta = state.meta();
        if (meta.appliedSequence() != StateMeta.NO_SEQUENCE)
        {
            throw new IllegalArgumentException("a snapshot loads into an empty state only");
        }
        final UnsafeBuffer record = new UnsafeBuffer(new byte[MAX_RECORD]);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final CRC32C checksum = new CRC32C();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16)))
        {
            int length = next(in, record, file);
            final SnapshotHeaderDecoder head = new SnapshotHeaderDecoder();
            expect(header, record, length, SnapshotHeaderDecoder.TEMPLATE_ID, file);
            checksum.update(record.byteArray(), 0, length);
            head.wrapAndApplyHeader(record, 0, header);
            if (head.stateFormat() != StateMeta.FORMAT_VERSION)
            {
                throw new SnapshotDamagedException(file, "state format " + head.stateFormat() + ", this build reads " +
                    StateMeta.FORMAT_VERSION);
            }
            // the record buffer is reused for every later record: take the header's fields now
            final long sequence = head.sequence();
            final long priority = head.priority();
            final int venueFlags = head.venueFlags();
            if (sequence != SnapshotFiles.sequenceOf(file) && SnapshotFiles.sequenceOf(file) >= 0)
            {
                throw new SnapshotDamagedException(file, "it holds sequence " + sequence);
            }
            meta.beginApply(sequence);

            final StoreEntryDecoder entry = new StoreEntryDecoder();
            final StoreFile[] stores = StoreFile.values();
            long entries = 0;
            while (true)
            {
                length = next(in, record, file);
                header.wrap(record, 0);
                if (header.templateId() != StoreEntryDecoder.TEMPLATE_ID)
                {
                    break;
                }
                expect(header, record, length, StoreEntryDecoder.TEMPLATE_ID, file);
                checksum.update(record.byteArray(), 0, length);
                entry.wrapAndApplyHeader(record, 0, header);
                final int storeNumber = entry.store();
                if (storeNumber >= stores.length)
                {
                    throw new SnapshotDamagedException(file, "an entry of store " + storeNumber);
                }
                final StoreFile store = stores[storeNumber];
                final int keyLength = entry.keyLength();
                final int keyAt = entry.limit() + StoreEntryDecoder.keyHeaderLength();
                if (keyLength != store.keySize() || keyAt + keyLength > length)
                {
                    throw new SnapshotDamagedException(file, "a key of " + keyLength + " bytes in " + store);
                }
                entry.skipKey();
                final int valueLength = entry.valueLength();
                final int valueAt = entry.limit() + StoreEntryDecoder.valueHeaderLength();
                if (valueLength != store.valueSize() || valueAt + valueLength != length)
                {
                    throw new SnapshotDamagedException(file, "a value of " + valueLength + " bytes in " + store);
                }
                state.putEntry(store, record, keyAt, record, valueAt);
                entries++;
            }
            expect(header, record, length, SnapshotEndDecoder.TEMPLATE_ID, file);
            final SnapshotEndDecoder end = new SnapshotEndDecoder().wrapAndApplyHeader(record, 0, header);
            if (end.sequence() != sequence || end.entries() != entries || end.checksum() != checksum.getValue())
            {
                throw new SnapshotDamagedException(file,
                    "the end record says sequence " + end.sequence() + ", " + end.entries() +
                    " entries, checksum " + end.checksum() + "; read " + entries + " entries, checksum " +
                    checksum.getValue());
            }
            if (in.read() != -1)
            {
                throw new SnapshotDamagedException(file, "bytes after the end record");
            }
            meta.priority(priority);
            meta.venueFlags(venueFlags);
            meta.commitApplied(sequence);
            return sequence;
        }
    }

    /** Reads the next framed record into {@code record}; returns its length. */
    private static int next(final DataInputStream in, final UnsafeBuffer record, final Path file) throws IOException,
        SnapshotDamagedException
    {
        final int length;
        try
        {
            length = Integer.reverseBytes(in.readInt());
            if (length < MessageHeaderDecoder.ENCODED_LENGTH || length > MAX_RECORD)
            {
                throw new SnapshotDamagedException(file, "a record of " + length + " bytes");
            }
            in.readFully(record.byteArray(), 0, length);
        }
        catch (final EOFException ex)
        {
            throw new SnapshotDamagedException(file, "it ends before its end record");
        }
        return length;
    }

    private static void expect(
        final MessageHeaderDecoder header, final UnsafeBuffer record, final int length, final int templateId,
        final Path file) throws SnapshotDamagedException
    {
        header.wrap(record, 0);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID || header.templateId() != templateId ||
            MessageHeaderDecoder.ENCODED_LENGTH + header.blockLength() > length)
        {
            throw new SnapshotDamagedException(file,
                "record " + header.templateId() + " of schema " + header.schemaId() +
                " where " + templateId + " belongs");
        }
    }
}
