package io.venue.replication;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * How a primary and its standby talk: the two Aeron channels, the replication mode, the heartbeat and the
 * silence after which a standby takes over, and the key both nodes seal their messages with (no default: a node without
 * one does not replicate). The other defaults suit two processes on one host over UDP loopback.
 */
public final class ReplicationContext
{
    /** When a client of the primary is answered. */
    public enum Mode
    {
        /** Only once the standby holds the command in its own journal: a failover loses no answered command. */
        SYNC,
        /** Once the primary's own journal holds it; the standby follows as fast as it can (see the lag). */
        ASYNC
    }

    private Mode mode = Mode.SYNC;
    private String commandChannel = "aeron:udp?endpoint=127.0.0.1:20121";
    private int commandStreamId = 1001;
    private String replyChannel = "aeron:udp?endpoint=127.0.0.1:20122";
    private int replyStreamId = 1002;
    private long heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(50);
    private long primaryTimeoutNs = TimeUnit.SECONDS.toNanos(1);
    private boolean promoteOnPrimaryLoss = true;
    private NanoClock clock = SystemNanoClock.INSTANCE;
    private byte[] key;

    public ReplicationContext mode(final Mode mode)
    {
        this.mode = mode;
        return this;
    }

    public Mode mode()
    {
        return mode;
    }

    /** The channel the standby listens on and the primary ships commands to. */
    public ReplicationContext commandChannel(final String channel, final int streamId)
    {
        commandChannel = channel;
        commandStreamId = streamId;
        return this;
    }

    public String commandChannel()
    {
        return commandChannel;
    }

    public int commandStreamId()
    {
        return commandStreamId;
    }

    /** The channel the primary listens on for the standby's acknowledgements, requests and heartbeats. */
    public ReplicationContext replyChannel(final String channel, final int streamId)
    {
        replyChannel = channel;
        replyStreamId = streamId;
        return this;
    }

    public String replyChannel()
    {
        return replyChannel;
    }

    public int replyStreamId()
    {
        return replyStreamId;
    }

    /** How often a side with nothing else to send says it is alive (default 50 ms). */
    public ReplicationContext heartbeatInterval(final long duration, final TimeUnit unit)
    {
        heartbeatIntervalNs = unit.toNanos(duration);
        return this;
    }

    public long heartbeatIntervalNs()
    {
        return heartbeatIntervalNs;
    }

    /**
     * How long a standby hears nothing from its primary before it reports the primary lost (default 1 s), and
     * how long a primary that starts waits for a newer primary's heartbeat before it writes.
     */
    public ReplicationContext primaryTimeout(final long duration, final TimeUnit unit)
    {
        primaryTimeoutNs = unit.toNanos(duration);
        return this;
    }

    public long primaryTimeoutNs()
    {
        return primaryTimeoutNs;
    }

    /** Whether a standby promotes itself when the primary is lost (default true), or waits for an operator. */
    public ReplicationContext promoteOnPrimaryLoss(final boolean promote)
    {
        promoteOnPrimaryLoss = promote;
        return this;
    }

    public boolean promoteOnPrimaryLoss()
    {
        return promoteOnPrimaryLoss;
    }

    public ReplicationContext clock(final NanoClock clock)
    {
        this.clock = clock;
        return this;
    }

    public NanoClock clock()
    {
        return clock;
    }

    /**
     * The key every replication message is sealed with (HMAC-SHA256, {@link ReplicationSeal}): the same on both nodes
     * of a pair, at least 32 bytes, secret. Copied.
     */
    public ReplicationContext key(final byte[] key)
    {
        if (key == null || key.length < ReplicationMac.MIN_KEY_LENGTH)
        {
            throw new IllegalArgumentException("a replication key has at least " + ReplicationMac.MIN_KEY_LENGTH +
                " bytes");
        }
        this.key = key.clone();
        return this;
    }

    /** The key, for a seal of its own; refused when none was given: replication is never unauthenticated. */
    byte[] requireKey()
    {
        if (key == null)
        {
            throw new IllegalStateException("replication needs a key both nodes hold (ReplicationContext.key; the " +
                "appliance's replication.key.file, docs/OPERATIONS.md): no unauthenticated replication");
        }
        return Arrays.copyOf(key, key.length);
    }
}
