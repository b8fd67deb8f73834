package io.venue.replication;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.nio.file.Path;

/**
 * An embedded Aeron media driver and a client on it, for one appliance process: one shared driver thread
 * that backs off when idle (gentle on a small machine; give it a core of its own in production).
 */
public final class ReplicationMedia implements AutoCloseable
{
    private final MediaDriver driver;
    private final Aeron aeron;

    private ReplicationMedia(final MediaDriver driver, final Aeron aeron)
    {
        this.driver = driver;
        this.aeron = aeron;
    }

    /** Starts a driver whose files live in {@code directory} (made afresh, removed on close). */
    public static ReplicationMedia launch(final Path directory)
    {
        final MediaDriver.Context context = new MediaDriver.Context()
            .aeronDirectoryName(directory.toAbsolutePath().toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy(1, 10, 1_000, 1_000_000))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .termBufferSparseFile(true)
            .publicationTermBufferLength(16 * 1024 * 1024)
            .ipcTermBufferLength(16 * 1024 * 1024);
        final MediaDriver driver = MediaDriver.launchEmbedded(context);
        try
        {
            final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            return new ReplicationMedia(driver, aeron);
        }
        catch (final RuntimeException ex)
        {
            driver.close();
            throw ex;
        }
    }

    public Aeron aeron()
    {
        return aeron;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(aeron, driver);
    }
}
