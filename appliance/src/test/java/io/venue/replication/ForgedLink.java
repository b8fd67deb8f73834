package io.venue.replication;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.venue.journal.JournalRecords;
import io.venue.replication.sbe.Role;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A third party's publication on one of a pair's channels, for tests outside this package that play the attacker
 * against appliance processes: it sends replication messages encoded and sealed as a node would
 * ({@link ReplicationSender}, {@link ReplicationSeal}) under whatever key it is given, or bytes it captured as they
 * are (a replay). Every send waits until the message is on its way, so a test knows how many its target received.
 */
public final class ForgedLink implements AutoCloseable
{
    private static final long SEND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

    private final Publication publication;
    private final ReplicationSender sender;
    private final UnsafeBuffer copy = new UnsafeBuffer(new byte[0]);

    private ForgedLink(final Publication publication, final ReplicationSeal seal)
    {
        this.publication = publication;
        this.sender = new ReplicationSender(publication, seal);
    }

    /** Sends on the command channel as a primary does (the standby's side of the seal): to a standby. */
    public static ForgedLink toStandby(final Aeron aeron, final String channel, final int streamId, final byte[] key)
    {
        return new ForgedLink(aeron.addExclusivePublication(channel, streamId),
            new ReplicationSeal(key, ReplicationSeal.TO_STANDBY));
    }

    /** Sends on the reply channel as a standby does: to a primary. */
    public static ForgedLink toPrimary(final Aeron aeron, final String channel, final int streamId, final byte[] key)
    {
        return new ForgedLink(aeron.addExclusivePublication(channel, streamId),
            new ReplicationSeal(key, ReplicationSeal.TO_PRIMARY));
    }

    public boolean isConnected()
    {
        return publication.isConnected();
    }

    /** The Aeron session the receiver sees this link's messages on (its refusal lines name it). */
    public int sessionId()
    {
        return publication.sessionId();
    }

    /** A ShipCommand of {@code record} (a whole command record; its sequence is the message's). */
    public void ship(final long epoch, final byte[] record)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(record);
        awaitSent(() -> sender.ship(epoch, JournalRecords.sequence(buffer, 0), buffer, 0, record.length));
    }

    public void ack(final long epoch, final long sequence)
    {
        awaitSent(() -> sender.ack(epoch, sequence));
    }

    public void heartbeat(final long epoch, final boolean asPrimary, final long lastSequence, final long lastRecordCrc)
    {
        // the sender drops a heartbeat it cannot offer now; the publication's position says whether it went
        awaitSent(() -> sent(() -> sender.heartbeat(epoch, asPrimary ? Role.PRIMARY : Role.STANDBY, lastSequence,
            lastRecordCrc)));
    }

    public void resendFrom(final long epoch, final long afterSequence, final long lastRecordCrc)
    {
        awaitSent(() -> sent(() -> sender.resendFrom(epoch, afterSequence, lastRecordCrc)));
    }

    /** A message as another sender sealed it, unchanged. */
    public void replay(final byte[] message)
    {
        copy.wrap(message);
        awaitSent(() -> publication.offer(copy, 0, message.length) > 0);
    }

    private boolean sent(final Runnable send)
    {
        final long before = publication.position();
        send.run();
        return publication.position() > before;
    }

    private static void awaitSent(final BooleanSupplier send)
    {
        final long deadline = System.nanoTime() + SEND_TIMEOUT_NS;
        while (!send.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("not sent within 20 s: is the receiver up?");
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void close()
    {
        publication.close();
    }
}
