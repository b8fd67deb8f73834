package io.venue.appliance;

import io.venue.tuning.Doorbell;
import io.venue.tuning.DoorbellIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The idle strategy of the appliance's engine, shard and verifier threads
 * ({@link ApplianceContext#idleStrategy(Function)}) with a hold: the appliance's own park strategy until {@link #hold}
 * is called, then each thread stops at the end of its duty cycle until {@link #release}. A test holds them to know that
 * nothing is verified or applied meanwhile, whatever the machine's speed.
 */
final class HeldThreads implements Function<Doorbell, IdleStrategy>
{
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger holding = new AtomicInteger();
    private volatile boolean held;

    @Override
    public IdleStrategy apply(final Doorbell doorbell)
    {
        threads.incrementAndGet();
        // the appliance's default: a short spin, then parked until rung or for at most 1 ms
        final IdleStrategy own = new DoorbellIdleStrategy(doorbell, 20, TimeUnit.MILLISECONDS.toNanos(1));
        return new IdleStrategy()
        {
            @Override
            public void idle(final int workCount)
            {
                if (held)
                {
                    holding.incrementAndGet();
                    while (held)
                    {
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
                    }
                    holding.decrementAndGet();
                }
                own.idle(workCount);
            }

            @Override
            public void idle()
            {
                idle(0);
            }

            @Override
            public void reset()
            {
                own.reset();
            }
        };
    }

    /** Stops every thread at the end of its duty cycle; returns once all of them have stopped. */
    void hold() throws InterruptedException
    {
        held = true;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (holding.get() < threads.get())
        {
            assertTrue(System.nanoTime() - deadline < 0,
                holding.get() + " of " + threads.get() + " threads held after 30 s");
            Thread.sleep(1);
        }
    }

    void release()
    {
        held = false;
    }
}
