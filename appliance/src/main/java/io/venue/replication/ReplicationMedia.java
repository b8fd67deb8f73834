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

    /**
     * Starts a driver whose files live in {@code directory} (made afresh, removed on close), on a thread of its own.
     */
    public static ReplicationMedia launch(final Path directory)
    {
        return launch(directory, false);
    }

    /**
     * Starts a driver whose files live in {@code directory}. With {@code invoked}, the driver has no thread:
     * its duty cycle runs when a thread the caller owns calls {@link #invokeDriver()} (one busy thread fewer,
     * for hosts with few cores). Only one thread at a time may drive it: make the publications and
     * subscriptions first (the client drives it while it waits), then hand it to one thread.
     */
    public static ReplicationMedia launch(final Path directory, final boolean invoked)
    {
        final MediaDriver.Context context = new MediaDriver.Context()
            .aeronDirectoryName(directory.toAbsolutePath().toString())
            .threadingMode(invoked ? ThreadingMode.INVOKER : ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy(1, 10, 1_000, 1_000_000))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .termBufferSparseFile(true)
            .publicationTermBufferLength(16 * 1024 * 1024)
            .ipcTermBufferLength(16 * 1024 * 1024);
        final MediaDriver driver = MediaDriver.launchEmbedded(context);
        try
        {
            final Aeron.Context client = new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName());
            if (invoked)
            {
                // the client drives the driver while it waits for it (adding publications and subscriptions)
                client.useConductorAgentInvoker(true).driverAgentInvoker(driver.sharedAgentInvoker());
            }
            final Aeron aeron = Aeron.connect(client);
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

    /**
     * Runs the driver's and the client's duty cycles once (only when launched invoked: then nothing else runs
     * them, so call this often, as a duty cycle of its own); returns the work done.
     */
    public int invokeDriver()
    {
        return driver.sharedAgentInvoker().invoke() + aeron.conductorAgentInvoker().invoke();
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(aeron, driver);
    }
}
