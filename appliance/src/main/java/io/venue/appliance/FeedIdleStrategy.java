package io.venue.appliance;

import io.venue.feed.MarketFeed;
import io.venue.tuning.Doorbell;
import io.venue.tuning.DoorbellIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How the market feed's thread waits: on its bell (rung by the engine after each batch and by the lanes' requests),
 * resting between wakes while events keep coming; but polling while it waits for events no one will ring for (a
 * synchronous standby's hold, a follower's lagging command journal). An idle feed costs no wakes.
 */
final class FeedIdleStrategy implements IdleStrategy
{
    /** The polling period while the feed waits for commands: how late a held release is seen. */
    static final long POLL_NS = TimeUnit.MICROSECONDS.toNanos(200);
    /** Polls with a spin-wait hint before resting: a burst's next batch. */
    private static final int SPINS = 20;
    /** The longest park on the bell: a backstop, since every producer rings. */
    private static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final MarketFeed feed;
    private final DoorbellIdleStrategy onBell;

    FeedIdleStrategy(final MarketFeed feed, final Doorbell bell, final long restNs)
    {
        this.feed = feed;
        this.onBell = new DoorbellIdleStrategy(bell, SPINS, MAX_PARK_NS, restNs);
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            onBell.reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (feed.waitsForCommands())
        {
            LockSupport.parkNanos(POLL_NS);
        }
        else
        {
            onBell.idle();
        }
    }

    @Override
    public void reset()
    {
        onBell.reset();
    }

    @Override
    public String alias()
    {
        return "feed";
    }
}
