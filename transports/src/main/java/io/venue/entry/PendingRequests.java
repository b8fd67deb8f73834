package io.venue.entry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The requests waiting for their answer. A submit is registered under a correlation id before it is offered to
 * the verifier pool; the sequencer names the sequence it became ({@link #onSequenced}) once its record is in the
 * command journal; the responder completes that sequence once the engine decided it ({@link #complete}).
 * <p>
 * The responder may read a command before the sequencer has told us its sequence (the sequencer tells after the
 * append): it waits until {@link #lastSequenced()} reaches the sequence, so an outcome is never dropped for a
 * request that was about to be named. Outcomes of commands nobody waits for (the demo set-up, a closed connection,
 * commands journaled before this process started) are dropped.
 * <p>
 * Every request waits at most its answer timeout: {@link #expire} (the responder calls it) answers one still waiting
 * then with {@link Answer.Kind#TIMED_OUT} and forgets it, so a request whose record never came (a result the sequencer
 * could not journal, a write that failed) neither holds its connection nor stays in these tables. A decision that comes
 * later is dropped, as for a closed connection.
 */
public final class PendingRequests
{
    /** Receives the answer on the responder's thread; must not block. */
    public interface Reply
    {
        void send(Answer answer);
    }

    /** The default answer timeout, as the order-entry core's. */
    public static final long DEFAULT_TIMEOUT_MS = 10_000;

    private final AtomicLong correlations = new AtomicLong();
    private final ConcurrentHashMap<Long, Waiting> byCorrelation = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Waiting> bySequence = new ConcurrentHashMap<>();
    private final long timeoutNs;
    private final LongSupplier nanoClock;
    private volatile long lastSequenced;

    /**
     * @param lastSequence the last sequence already in the command journal when the process starts.
     */
    public PendingRequests(final long lastSequence)
    {
        this(lastSequence, DEFAULT_TIMEOUT_MS, System::nanoTime);
    }

    /**
     * @param answerTimeoutMs how long a request waits for its answer before {@link #expire} answers it TIMED_OUT.
     * @param nanoClock       the clock of the deadlines ({@link System#nanoTime}; a test's own).
     */
    public PendingRequests(final long lastSequence, final long answerTimeoutMs, final LongSupplier nanoClock)
    {
        if (answerTimeoutMs < 1)
        {
            throw new IllegalArgumentException("answerTimeoutMs must be positive, got " + answerTimeoutMs);
        }
        this.lastSequenced = lastSequence;
        this.timeoutNs = TimeUnit.MILLISECONDS.toNanos(answerTimeoutMs);
        this.nanoClock = nanoClock;
    }

    /** A new correlation id for a request about to be offered, waiting at most the answer timeout. */
    public long register(final Reply reply)
    {
        return registerFor(reply, timeoutNs);
    }

    /** As {@link #register(Reply)}, waiting at most {@code timeoutMs} (the node's own operator actions wait longer). */
    public long register(final Reply reply, final long timeoutMs)
    {
        return registerFor(reply, TimeUnit.MILLISECONDS.toNanos(timeoutMs));
    }

    private long registerFor(final Reply reply, final long waitNs)
    {
        final long correlation = correlations.incrementAndGet();
        byCorrelation.put(correlation, new Waiting(reply, nanoClock.getAsLong() + waitNs));
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
        final Waiting waiting = byCorrelation.remove(correlation);
        if (waiting != null)
        {
            bySequence.put(sequence, waiting);
        }
        lastSequenced = sequence;
    }

    /**
     * Answers at once, and forgets, a request that will have no record of its own (a refusal the sequencer counted
     * into its connection's summary), if it still waits; any thread.
     *
     * @return whether one waited.
     */
    public boolean answerUnjournaled(final long correlation, final Answer answer)
    {
        final Waiting waiting = byCorrelation.remove(correlation);
        if (waiting == null)
        {
            return false;
        }
        send(waiting.reply, answer);
        return true;
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
        final Waiting waiting = bySequence.remove(sequence);
        if (waiting != null)
        {
            send(waiting.reply, answer);
        }
    }

    /**
     * Answers TIMED_OUT, and forgets, every request whose answer timeout has passed (journaled or not); the decision of
     * one journaled is dropped when it comes. Any thread; the responder calls it a few times a second.
     *
     * @return how many expired.
     */
    public int expire()
    {
        final long now = nanoClock.getAsLong();
        return expire(byCorrelation, now, false) + expire(bySequence, now, true);
    }

    private static int expire(final ConcurrentHashMap<Long, Waiting> table, final long now, final boolean journaled)
    {
        int expired = 0;
        for (final Map.Entry<Long, Waiting> entry : table.entrySet())
        {
            final Waiting waiting = entry.getValue();
            // remove(key, value): the answer and the deadline race, and exactly one of them wins
            if (now - waiting.deadlineNs >= 0 && table.remove(entry.getKey(), waiting))
            {
                send(waiting.reply, new Answer.Builder().timedOut(journaled ? entry.getKey() : 0).build());
                expired++;
            }
        }
        return expired;
    }

    private static void send(final Reply reply, final Answer answer)
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

    /** Requests registered or sequenced and not answered yet. */
    public int waiting()
    {
        return byCorrelation.size() + bySequence.size();
    }

    /** A request's reply and the time it stops waiting ({@link System#nanoTime} scale). */
    private record Waiting(Reply reply, long deadlineNs)
    {
    }
}
