package io.venue.appliance;

import io.venue.replication.StandbyFollower;
import io.venue.transport.http.PendingSubmits;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Runs beside the {@link StandbyFollower} of a standby: the operator's promotion request is a file named
 * {@value #REQUEST} in the data folder (written by {@code venue-appliance promote}, as a trigger file promotes a
 * PostgreSQL standby), looked for every 100 ms. Once the follower has promoted (on the request, or by itself after
 * the primary's silence when configured), the request file is replaced by {@value #DONE} naming the new epoch and
 * the last sequence, and the node starts serving. While following, the commands it appends have no waiting request.
 */
final class PromotionWatch implements Agent
{
    static final String REQUEST = "promote";
    static final String DONE = "promoted";
    private static final long CHECK_INTERVAL_NS = 100_000_000L;

    private final StandbyFollower follower;
    private final PendingSubmits pending;
    private final Path dataDir;
    private final Consumer<StandbyFollower> onPromoted;
    private long nextCheckNs;
    private boolean promoted;

    PromotionWatch(final StandbyFollower follower, final PendingSubmits pending, final Path dataDir,
        final Consumer<StandbyFollower> onPromoted)
    {
        this.follower = follower;
        this.pending = pending;
        this.dataDir = dataDir;
        this.onPromoted = onPromoted;
    }

    @Override
    public int doWork()
    {
        if (promoted)
        {
            return 0;
        }
        if (!follower.isPromoted())
        {
            pending.skipTo(follower.lastSequence());
            final long now = System.nanoTime();
            if (now - nextCheckNs >= 0)
            {
                nextCheckNs = now + CHECK_INTERVAL_NS;
                if (Files.exists(dataDir.resolve(REQUEST)))
                {
                    follower.promote();
                    return 1;
                }
            }
            return 0;
        }
        promoted = true;
        // the last commands followed have no waiting request either: let the responder pass them now
        pending.skipTo(follower.lastSequence());
        try
        {
            Files.writeString(dataDir.resolve(DONE), "epoch " + follower.epoch() + " after sequence " + follower.lastSequence() + "\n",
                StandardCharsets.US_ASCII);
            Files.deleteIfExists(dataDir.resolve(REQUEST));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            onPromoted.accept(follower);
        }
        return 1;
    }

    @Override
    public String roleName()
    {
        return "promotion-watch";
    }
}
