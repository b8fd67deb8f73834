package io.venue.testing;

import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A journal folder's records, read whole, for tests that compare what was journaled. */
public final class JournalFolders
{
    private JournalFolders()
    {
    }

    /** Every record of the journal in {@code folder}, in order, each a copy. */
    public static List<byte[]> records(final Path folder)
    {
        final List<byte[]> records = new ArrayList<>();
        try (Journal journal = Journal.openReadOnly(folder))
        {
            final JournalTailer tailer = journal.tailer();
            while (tailer.read((buffer, offset, length, index) ->
            {
                final byte[] record = new byte[length];
                buffer.getBytes(offset, record);
                records.add(record);
            }))
            {
                // to the end
            }
        }
        return records;
    }
}
