package io.venue.appliance;

import io.venue.entry.PendingRequests;
import io.venue.replication.StandbyFollower;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs beside the {@link StandbyFollower} of a standby: the operator's promotion request is a file named
 * {@value #REQUEST} in the data folder (written by {@code venue-appliance promote}, as a trigger file promotes a
 * PostgreSQL standby), looked for every 100 ms. Once the follower has promoted (on the request, or by itself after
 * the primary's silence when configured), the request file is replaced by {@value #DONE} naming the new epoch and
 * the last sequence, and the node starts serving. While following, the commands it appends have no waiting request.
 * <p>
 * A standby that has not heard a primary since it started does not know the primary's epoch, so the epoch it would
 * take (its own plus one) may equal a running primary's, which fencing cannot tell apart. Its promotion is refused,
 * with the reason in {@value #REFUSED} for the operator's command, unless the request says {@value #FORCE}.
 */
final class PromotionWatch implements Agent
{
    static final String REQUEST = "promote";
    static final String DONE = "promoted";
    static final String REFUSED = "promotion-refused";
    /** The first word of a request that promotes even a standby that has not heard a primary. */
    static final String FORCE = "force";
    private static final long CHECK_INTERVAL_NS = 100_000_000L;

    private final StandbyFollower follower;
    private final PendingRequests pending;
    private final Path dataDir;
    private final Consumer<StandbyFollower> onPromoted;
    private long nextCheckNs;
    private boolean promoted;

    PromotionWatch(final StandbyFollower follower, final PendingRequests pending, final Path dataDir,
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
                final Path request = dataDir.resolve(REQUEST);
                if (Files.exists(request))
                {
                    if (follower.hasHeardPrimary() || forced(request))
                    {
                        follower.promote();
                    }
                    else
                    {
                        refuse(request);
                    }
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
            // whole and on the disk before the node serves: until it journals a command, the file is what keeps the new
            // epoch across a restart (promotedEpoch)
            DurableFiles.replace(dataDir.resolve(DONE),
                "epoch " + follower.epoch() + " after sequence " + follower.lastSequence() + "\n");
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

    private static boolean forced(final Path request)
    {
        try
        {
            return Files.readString(request, StandardCharsets.US_ASCII).startsWith(FORCE);
        }
        catch (final IOException ex)
        {
            return false; // withdrawn as it was read: not forced
        }
    }

    private void refuse(final Path request)
    {
        try
        {
            DurableFiles.replace(dataDir.resolve(REFUSED),
                "this standby has not heard a primary since it started, so the " +
                "epoch it would take (" + (follower.epoch() + 1) +
                ") may be a running primary's own, which fencing cannot " +
                "tell apart; if the primary is gone for good, promote with --force (docs/OPERATIONS.md)\n");
            Files.deleteIfExists(request);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The epoch this node's last promotion took, from {@value #DONE}, or 0 when it was never promoted: a node promoted
     * and restarted before it journaled a command finds its epoch here, not in its journal.
     *
     * @throws IllegalStateException when the file is not the one a promotion writes (the epoch would be a guess).
     */
    static long promotedEpoch(final Path dataDir) throws IOException
    {
        final Path file = dataDir.resolve(DONE);
        if (!Files.exists(file))
        {
            return 0;
        }
        final String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        final Matcher matcher = Pattern.compile("epoch (\\d{1,18}) after sequence \\d{1,19}").matcher(text);
        if (!matcher.matches())
        {
            throw new IllegalStateException(
                file + " should read 'epoch E after sequence S', as a promotion writes it, " +
                "not '" + text + "': restore it or remove it knowing the node's epoch");
        }
        return Long.parseLong(matcher.group(1));
    }

    @Override
    public String roleName()
    {
        return "promotion-watch";
    }
}
