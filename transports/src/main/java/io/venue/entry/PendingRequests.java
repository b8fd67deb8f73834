package io.venue.entry;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests waiting for their answer. A submit is registered under a correlation id before it is offered to
 * the verifier pool; the sequencer names the sequence it became ({@link #onSequenced}) once its record is in the
 * command journal; the responder completes that sequence once the engine decided it ({@link #complete}).
 * <p>
 * The responder may read a command before the sequencer has told us its sequence (the sequencer tells after the
 * append): it waits until {@link #lastSequenced()} reaches the sequence, so an outcome is never dropped for a
 * request that was about to be named. Outcomes of commands nobody waits for (the demo set-up, a closed connection,
 * commands journaled before this process started) are dropped.
 */
public final class PendingRequests
{
    /** Receives the answer on the responder's thread; must not block. */
    public interface Reply
    {
        void send(Answer answer);
    }

    private final AtomicLong correlations = new AtomicLong();
    private final ConcurrentHashMap<Long, Reply> byCorrelation = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Reply> bySequence = new ConcurrentHashMap<>();
    private volatile long lastSequenced;

    /**
     * @param lastSequence the last sequence already in the command journal when the process starts.
     */
    public PendingRequests(final long lastSequence)
    {
        this.lastSequenced = lastSequence;
    }

    /** A new correlation id for a request about to be offered. */
    public long register(final Reply reply)
    {
        final long correlation = correlations.incrementAndGet();
        byCorrelation.put(correlation, reply);
        return correlation;
    }

    /** A correlation id for a request answered at the edge, journaled but never waited for. */
    public long nextCorrelation()
    {
        return correlations.incrementAndGet();
    }

    /** The request was not offered (the pool refused it): forget it. */
    public void forget(final long correlation)
    {
        byCorrelation.remove(correlation);
    }

    /** On the sequencer's thread (or the replication gate's), for every journaled request in sequence order. */
    public void onSequenced(final long correlation, final long sequence)
    {
        final Reply reply = byCorrelation.remove(correlation);
        if (reply != null)
        {
            bySequence.put(sequence, reply);
        }
        lastSequenced = sequence;
    }

    /**
     * Commands up to {@code sequence} were journaled without a request of this process (a standby appends what
     * its primary sends): nobody waits for them.
     */
    public void skipTo(final long sequence)
    {
        if (sequence > lastSequenced)
        {
            lastSequenced = sequence;
        }
    }

    /** The highest sequence whose request has been named: outcomes up to it can be matched. */
    public long lastSequenced()
    {
        return lastSequenced;
    }

    /** Answers the request that became {@code sequence}, if one waits. */
    public void complete(final long sequence, final Answer answer)
    {
        final Reply reply = bySequence.remove(sequence);
        if (reply != null)
        {
            try
            {
                reply.send(answer);
            }
            catch (final RuntimeException goneConnection)
            {
                // the connection or its I/O thread is gone (shutdown): this answer is dropped, the next ones still go
            }
        }
    }

    /** Requests registered or sequenced and not answered yet. */
    public int waiting()
    {
        return byCorrelation.size() + bySequence.size();
    }
}
