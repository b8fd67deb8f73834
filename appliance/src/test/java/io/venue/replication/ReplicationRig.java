package io.venue.replication;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.venue.journal.queue.Journal;
import io.venue.testing.RecordFiles;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the replication tests run a pair on: an embedded media driver, UDP channels on loopback, a clock the test
 * moves, journals in a temporary folder, and a shipper and a follower made over them; everything opened is closed
 * after each test, last first.
 */
abstract class ReplicationRig
{
    static final byte[] KEY = "a test pair's 32-byte replication key".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path folder;

    ReplicationMedia media;
    final ManualClock clock = new ManualClock();
    ReplicationContext context;
    final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void launchMedia() throws IOException
    {
        media = ReplicationMedia.launch(folder.resolve("aeron"));
        context = new ReplicationContext()
            .commandChannel("aeron:udp?endpoint=127.0.0.1:" + RecordFiles.freeUdpPort(), 1001)
            .replyChannel("aeron:udp?endpoint=127.0.0.1:" + RecordFiles.freeUdpPort(), 1002)
            .heartbeatInterval(10, TimeUnit.MILLISECONDS)
            .primaryTimeout(200, TimeUnit.MILLISECONDS)
            .clock(clock)
            .key(KEY);
    }

    @AfterEach
    void closeAll() throws Exception
    {
        for (int i = open.size() - 1; i >= 0; i--)
        {
            open.get(i).close();
        }
        media.close();
    }

    CommandShipper shipper(final Journal commands, final long epoch)
    {
        final Publication toStandby =
            media.aeron().addExclusivePublication(context.commandChannel(), context.commandStreamId());
        final Subscription replies = media.aeron().addSubscription(context.replyChannel(), context.replyStreamId());
        open.add(toStandby);
        open.add(replies);
        return new CommandShipper(commands, toStandby, replies, context, epoch);
    }

    StandbyFollower follower(final Journal commands, final long lastSequence, final long epoch)
    {
        final Subscription fromPrimary =
            media.aeron().addSubscription(context.commandChannel(), context.commandStreamId());
        final Publication toPrimary =
            media.aeron().addExclusivePublication(context.replyChannel(), context.replyStreamId());
        open.add(fromPrimary);
        open.add(toPrimary);
        return new StandbyFollower(commands, lastSequence, epoch, fromPrimary, toPrimary, context);
    }

    Journal journal(final String name)
    {
        final Journal journal = Journal.open(folder.resolve(name));
        open.add(journal);
        return journal;
    }

    /** Runs the agents (moving the manual clock a microsecond each round) until the condition holds, or 20 s pass. */
    void runUntil(final BooleanSupplier condition, final Agent... agents)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, "the condition did not hold within 20 s of running the agents");
            for (final Agent agent : agents)
            {
                try
                {
                    agent.doWork();
                }
                catch (final Exception ex)
                {
                    throw new AssertionError(ex);
                }
            }
            // a microsecond a round: retries and heartbeats come every 10,000 rounds, far more than a message needs
            // to cross loopback, so the primary timeout is never reached by accident
            clock.advance(TimeUnit.MICROSECONDS.toNanos(1));
            Thread.yield();
        }
    }

    /** A clock the test moves. */
    static final class ManualClock implements NanoClock
    {
        private volatile long now = 1_000_000_000L;

        @Override
        public long nanoTime()
        {
            return now;
        }

        void advance(final long nanos)
        {
            now += nanos;
        }
    }
}
