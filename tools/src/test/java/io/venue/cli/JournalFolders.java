package io.venue.cli;

import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Journal folders written from and read into record lists, for the tests of journals kept as fixtures. */
final class JournalFolders
{
    private JournalFolders()
    {
    }

    /** Appends {@code records} to the journal in {@code folder}, one excerpt each. */
    static void write(final Path folder, final List<byte[]> records)
    {
        try (Journal journal = Journal.open(folder))
        {
            final JournalAppender appender = journal.appender();
            for (final byte[] record : records)
            {
                appender.append(new UnsafeBuffer(record), 0, record.length);
            }
        }
    }

    /** Every record of the journal in {@code folder}, in order, each a copy. */
    static List<byte[]> read(final Path folder)
    {
        final List<byte[]> records = new ArrayList<>();
        try (Journal journal = Journal.openReadOnly(folder))
        {
            final JournalTailer tailer = journal.tailer();
            while (tailer.read((buffer, offset, length, index) ->
            {
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                records.add(copy);
            }))
            {
                // to the end
            }
        }
        return records;
    }
}
