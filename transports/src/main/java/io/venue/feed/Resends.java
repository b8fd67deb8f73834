package io.venue.feed;

import io.venue.journal.queue.Journal;
import org.agrona.ErrorHandler;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Private resends, run on a thread of their own so that reading the journal for one client's old frames never delays
 * the live frames: the feed's thread checks the request, sends the ack, reads the index entry to start from and hands
 * the rest here; this thread re-derives the frames with its own tailers ({@link Rederiver}) and gives them to the
 * subscriber, in order. A resend's frames may therefore come between live frames of the same channel (they are marked
 * {@code "resent":true}). At most {@code capacity} resends wait or run at once; the feed refuses more.
 * <p>
 * The thread starts with the first resend and ends with {@link #close}.
 */
final class Resends implements AutoCloseable
{
    /** A resend as the feed's thread prepared it: the index entry's values copied, the range checked. */
    record Job(AccountState account, int kind, long entrySeq, long entryCommand, long entryExcerpt, long fromSeq,
        long toSeq, long lastCommand, String epoch, FeedSubscriber subscriber)
    {
    }

    private static final long POLL_MS = 100;

    private final Journal events;
    private final Journal commands;
    private final int capacity;
    private final ErrorHandler errors;
    private final LinkedBlockingQueue<Job> jobs = new LinkedBlockingQueue<>();
    /** Resends taken and not finished: reserved on the feed's thread, released on this one. */
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean running = true;
    private Thread thread;

    Resends(final Journal events, final Journal commands, final int capacity, final ErrorHandler errors)
    {
        this.events = events;
        this.commands = commands;
        this.capacity = capacity;
        this.errors = errors;
    }

    /** Takes a place for one resend, before its ack is sent; false when {@code capacity} are waiting or running. */
    boolean reserve()
    {
        while (true)
        {
            final int now = pending.get();
            if (now >= capacity)
            {
                return false;
            }
            if (pending.compareAndSet(now, now + 1))
            {
                return true;
            }
        }
    }

    /** Hands over a resend whose place was reserved (and whose ack was sent); on the feed's thread. */
    void submit(final Job job)
    {
        if (null == thread)
        {
            thread = new Thread(this::run, "market-feed-resends");
            thread.setDaemon(true);
            thread.start();
        }
        jobs.add(job);
    }

    /** Resends reserved and not finished. */
    int pending()
    {
        return pending.get();
    }

    private void run()
    {
        // made on this thread: its tailers are used by this thread only
        try (Rederiver rederiver = new Rederiver(events, commands, ""))
        {
            while (running)
            {
                final Job job = jobs.poll(POLL_MS, TimeUnit.MILLISECONDS);
                if (null == job)
                {
                    continue;
                }
                try
                {
                    rederiver.epoch(job.epoch());
                    rederiver.derive(job.account(), job.kind(), job.entrySeq(), job.entryCommand(),
                        job.entryExcerpt(), job.fromSeq(), job.toSeq(), job.lastCommand(), true,
                        frame ->
                        {
                            Subscriptions.deliver(job.subscriber(), frame, errors);
                            job.subscriber().onBatchEnd();
                        });
                }
                catch (final RuntimeException ex)
                {
                    errors.onError(ex);
                }
                finally
                {
                    pending.decrementAndGet();
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        running = false;
        if (null != thread)
        {
            thread.interrupt();
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
