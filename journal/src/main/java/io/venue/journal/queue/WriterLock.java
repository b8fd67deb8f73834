package io.venue.journal.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * One writing process per journal folder: an OS lock on a file of its own beside the queue's files, held while a
 * writable {@link Journal} on the folder is open in this JVM (counted, since one process may open a folder twice).
 * Whoever takes it first knows that no other process writes there, so what a writer left half made was left by a
 * writer that died.
 */
final class WriterLock implements AutoCloseable
{
    static final String FILE_NAME = "writer.lock";

    private static final Map<Path, Held> HELD = new HashMap<>();

    private record Held(FileChannel channel, FileLock lock, int[] users)
    {
    }

    private final Path key;
    private final boolean first;
    private boolean closed;

    private WriterLock(final Path key, final boolean first)
    {
        this.key = key;
        this.first = first;
    }

    /**
     * @throws IllegalStateException when another process holds the folder's lock.
     */
    static WriterLock acquire(final Path folder)
    {
        final Path key;
        try
        {
            // the real path: the same folder reached through a link is the same lock
            key = Files.createDirectories(folder).toRealPath();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        synchronized (HELD)
        {
            final Held held = HELD.get(key);
            if (held != null)
            {
                held.users[0]++;
                return new WriterLock(key, false);
            }
            try
            {
                final FileChannel channel = FileChannel.open(key.resolve(FILE_NAME), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                final FileLock lock;
                try
                {
                    lock = channel.tryLock();
                }
                catch (final IOException | RuntimeException ex)
                {
                    channel.close();
                    throw ex;
                }
                if (null == lock)
                {
                    channel.close();
                    throw new IllegalStateException("another process writes the journal in " + key + " (it holds " +
                        FILE_NAME + "): one writer per journal");
                }
                HELD.put(key, new Held(channel, lock, new int[]{1}));
                return new WriterLock(key, true);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /** True when this open took the lock: no other writer, in this process or another, has the folder open. */
    boolean first()
    {
        return first;
    }

    @Override
    public void close()
    {
        synchronized (HELD)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            final Held held = HELD.get(key);
            if (--held.users[0] == 0)
            {
                HELD.remove(key);
                try
                {
                    held.lock.release();
                    held.channel.close();
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            }
        }
    }
}
