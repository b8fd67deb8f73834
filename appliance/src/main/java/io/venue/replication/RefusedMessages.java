package io.venue.replication;

import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The replication messages one agent refused, by reason: a counter each, and a log line at most once a second however
 * many arrive (a flood of forged packets must not become a flood of lines). Counted on the agent's thread, read from
 * any.
 */
public final class RefusedMessages
{
    /** Why a message was refused. */
    public enum Reason
    {
        /** Too short, not of the replication schema, a template it does not have, or a block that does not fit. */
        MALFORMED("malformed"),
        /** Of a schema version older than the one that brought the seal: not read with weaker checks. */
        OLD_VERSION("old protocol version"),
        /** Its MAC does not verify: another key or none, a byte changed, or a message of the other direction. */
        BAD_MAC("bad MAC"),
        /** Authentic but not newer than the last taken from its sender: a replay. */
        REPLAYED("replayed"),
        /** An epoch past the highest a promotion can reach. */
        EPOCH_OUT_OF_RANGE("epoch out of range"),
        /** A command shipped by a primary of an older epoch than the one followed (a fenced primary). */
        OLD_EPOCH("older epoch");

        private final String text;

        Reason(final String text)
        {
            this.text = text;
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(RefusedMessages.class);
    private static final long LOG_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final Reason[] REASONS = Reason.values();

    private final String side;
    private final NanoClock clock;
    private final AtomicLongArray counts = new AtomicLongArray(REASONS.length);
    private volatile long lines;
    private long lastLineNs;
    private long refusedAtLastLine;

    RefusedMessages(final String side, final NanoClock clock)
    {
        this.side = side;
        this.clock = clock;
    }

    /** The reason of a seal's verdict. */
    static Reason reason(final ReplicationSeal.Verdict verdict)
    {
        return switch (verdict)
        {
            case OLD_VERSION -> Reason.OLD_VERSION;
            case BAD_MAC -> Reason.BAD_MAC;
            case REPLAYED -> Reason.REPLAYED;
            case MALFORMED, OPEN -> Reason.MALFORMED;
        };
    }

    /** Counts one refused message; logs a line unless one was logged in the last second. */
    void refuse(final Reason reason, final int session)
    {
        counts.incrementAndGet(reason.ordinal());
        final long now = clock.nanoTime();
        if (lines == 0 || now - lastLineNs >= LOG_INTERVAL_NS)
        {
            final long total = total();
            LOG.warn("replication: the {} refused a message from Aeron session {} ({}); {} refused since the last " +
                "such line, {} in all ({})", side, session, reason.text, total - refusedAtLastLine, total, this);
            refusedAtLastLine = total;
            lastLineNs = now;
            lines = lines + 1;
        }
    }

    /** Messages refused for {@code reason}. */
    public long count(final Reason reason)
    {
        return counts.get(reason.ordinal());
    }

    /** Messages refused for any reason. */
    public long total()
    {
        long total = 0;
        for (int i = 0; i < REASONS.length; i++)
        {
            total += counts.get(i);
        }
        return total;
    }

    /** Lines logged: at most one a second. */
    public long linesLogged()
    {
        return lines;
    }

    /** The non-zero counts, as {@code reason n, ...}. */
    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (final Reason reason : REASONS)
        {
            final long count = count(reason);
            if (count > 0)
            {
                text.append(text.length() == 0 ? "" : ", ").append(reason.text).append(' ').append(count);
            }
        }
        return text.length() == 0 ? "none" : text.toString();
    }
}
