package io.venue.appliance;

import io.venue.replication.StandbyFollower;
import org.agrona.ErrorHandler;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a standby does once its follower has promoted (on the operator's request or the primary's silence): on a thread
 * of its own, it waits until the read models hold every command followed, then refuses the old primary's machine
 * requests dated before now (they are not in this node's SVC-Nonce file) and serves under the new epoch. A responder or
 * engine that has stopped keeps it from serving: its read models would be older than its journal.
 */
final class Promotion implements Consumer<StandbyFollower>
{
    private final PrintStream log;
    private final NodeThreads threads;
    private final NodeOrderEntry entry;
    private final EngineShard shard;
    private final Roles.Serve serve;
    private final Supplier<String> baseUrl;
    private final ErrorHandler onError;

    Promotion(final PrintStream log, final NodeThreads threads, final NodeOrderEntry entry, final EngineShard shard,
        final Roles.Serve serve,
        final Supplier<String> baseUrl, final ErrorHandler onError)
    {
        this.log = log;
        this.threads = threads;
        this.entry = entry;
        this.shard = shard;
        this.serve = serve;
        this.baseUrl = baseUrl;
        this.onError = onError;
    }

    @Override
    public void accept(final StandbyFollower promoted)
    {
        log.printf("promoted: epoch %d after sequence %d%n", promoted.epoch(), promoted.lastSequence());
        final Thread starter = new Thread(() -> serveOnceCaughtUp(promoted), "promotion");
        starter.start();
    }

    private void serveOnceCaughtUp(final StandbyFollower promoted)
    {
        try
        {
            // the lane checks credentials, agents and nonce windows in the read models: they hold every command
            // followed before the node serves, so a credential the old primary revoked stays revoked here
            final long followed = promoted.lastSequence();
            while (!Waits.until(() -> entry.responder().counters().answeredSequence() >= followed,
                System.nanoTime() + TimeUnit.SECONDS.toNanos(5)))
            {
                if (threads.frontClosed())
                {
                    return;
                }
                if (entry.responder().failed() || shard.failure() != null)
                {
                    // serving now would check requests against read models older than the journal
                    log.println(
                        "promotion: the " + (entry.responder().failed() ? "responder" : "engine") + " has stopped " +
                        "(its error is above), so the read models will not catch up: this node does not serve. " +
                        "Restart it; it keeps its new epoch (the promoted file)");
                    return;
                }
                log.printf("promotion: the read models hold sequence %d of %d; serving once they hold it%n",
                    entry.responder().counters().answeredSequence(), followed);
            }
            // the old primary's machine requests are not in this node's SVC-Nonce file: refuse any dated before now
            entry.svcNonceFile().promoted(System.currentTimeMillis());
            serve.serve(promoted.epoch(), followed, entry.answers(), () -> false, false);
            log.println("serving as the primary on " + baseUrl.get());
        }
        catch (final RuntimeException ex)
        {
            onError.onError(ex);
        }
    }
}
