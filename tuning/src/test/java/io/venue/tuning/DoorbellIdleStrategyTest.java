package io.venue.tuning;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DoorbellIdleStrategyTest
{
    /** Parks so long that one lost wake-up stops the exchange for good, so the test's timeout catches it. */
    private static final long FOREVER_NS = TimeUnit.HOURS.toNanos(1);

    @Test
    void noWakeUpIsLostInAPingPongOfParkedThreads()
    {
        // each hand-off finds the other thread somewhere in its spin, announce or park phase: with no spins,
        // mostly parked
        for (final int spins : new int[]{0, 1, 50})
        {
            final int rounds = 20_000;
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertEquals(rounds, pingPong(rounds, spins, 0)),
                "a wake-up was lost with " + spins + " spins");
        }
        // with a rest before the announced park: the rest wakes by time, the park still by the ring
        final int rounds = 2_000;
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertEquals(rounds, pingPong(rounds, 0, 20_000)),
            "a wake-up was lost with a rest");
    }

    private static long pingPong(final int rounds, final int spins, final long restNs) throws InterruptedException
    {
        final AtomicLong ball = new AtomicLong();
        final Doorbell pingBell = new Doorbell();
        final Doorbell pongBell = new Doorbell();
        final Thread pong = new Thread(
            () -> play(ball, 1, rounds, new DoorbellIdleStrategy(pongBell, spins, FOREVER_NS, restNs), pingBell));
        pong.setDaemon(true);
        pong.start();
        play(ball, 0, rounds, new DoorbellIdleStrategy(pingBell, spins, FOREVER_NS, restNs), pongBell);
        pong.join();
        return ball.get() / 2;
    }

    /**
     * Hits the ball when its count has this side's parity, rings the other side, until both sides hit
     * {@code rounds} times.
     */
    private static void play(final AtomicLong ball, final int parity, final int rounds, final DoorbellIdleStrategy idle,
        final Doorbell other)
    {
        int hits = 0;
        while (hits < rounds)
        {
            final long count = ball.get();
            if ((count & 1) == parity)
            {
                ball.lazySet(count + 1);
                other.ring();
                hits++;
                idle.idle(1);
            }
            else
            {
                idle.idle(0);
            }
        }
    }

    @Test
    void everyProducerOfSeveralWakesTheConsumer()
    {
        final int producers = 4;
        final int each = 2_000;
        final AtomicInteger published = new AtomicInteger();
        final Doorbell bell = new Doorbell();
        for (int p = 0; p < producers; p++)
        {
            final Thread producer = new Thread(() ->
            {
                final ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < each; i++)
                {
                    LockSupport.parkNanos(random.nextLong(1_000, 50_000));
                    published.incrementAndGet();
                    bell.ring();
                }
            });
            producer.setDaemon(true);
            producer.start();
        }
        final DoorbellIdleStrategy idle = new DoorbellIdleStrategy(bell, 0, FOREVER_NS);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
        {
            int seen = 0;
            while (seen < producers * each)
            {
                final int now = published.get();
                idle.idle(now - seen);
                seen = now;
            }
        }, "a ring was lost among several producers");
    }

    @Test
    void aRingSpentOnAnotherParkOfTheConsumerStillWakesIt() throws InterruptedException
    {
        final AtomicLong published = new AtomicLong();
        final Doorbell bell = new Doorbell();
        final DoorbellIdleStrategy idle = new DoorbellIdleStrategy(bell, 0, FOREVER_NS);
        idle.idle(0);
        // the agent's next duty cycle: its poll finds nothing, then it blocks in another park (a lock, say), which the
        // producer's ring ends: the unpark is spent there
        assertEquals(0, published.get());
        final Thread producer = new Thread(() ->
        {
            published.set(1);
            bell.ring();
        });
        producer.start();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(20));
        producer.join();
        // the runner's idle call after that duty cycle must not park for the hour
        assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
        {
            do
            {
                idle.idle(0);
            }
            while (published.get() == 0);
        }, "the consumer parked although a ring had taken its announcement");
    }

    @Test
    void workFromAProducerThatDoesNotRingIsSeenAfterTheLongestPark()
    {
        final AtomicLong published = new AtomicLong();
        final DoorbellIdleStrategy idle = new DoorbellIdleStrategy(new Doorbell(), 0, TimeUnit.MILLISECONDS.toNanos(1));
        final Thread producer = new Thread(() ->
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            published.set(1);
        });
        producer.start();
        assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
        {
            while (published.get() == 0)
            {
                idle.idle(0);
            }
        });
    }

    @Test
    void aRestingConsumerIsNotAnnouncedSoRingsCostItsProducersNothing() throws InterruptedException
    {
        final Doorbell bell = new Doorbell();
        final DoorbellIdleStrategy idle =
            new DoorbellIdleStrategy(bell, 0, FOREVER_NS, TimeUnit.MILLISECONDS.toNanos(300));
        final AtomicLong announcedSeen = new AtomicLong();
        final Thread consumer = Thread.currentThread();
        final Thread producer = new Thread(() ->
        {
            // ring while the consumer is in its rest
            while (consumer.getState() != Thread.State.TIMED_WAITING)
            {
                Thread.onSpinWait();
            }
            for (int i = 0; i < 1_000; i++)
            {
                if (bell.announcedBy(consumer))
                {
                    announcedSeen.incrementAndGet();
                }
                bell.ring();
            }
        });
        // the first idle call with nothing to do rests: the producer rings all through it and finds no announcement
        producer.start();
        idle.idle(0);
        producer.join();
        assertEquals(0, announcedSeen.get());
        // after the rest the consumer announces its park (its next call parks until a ring takes it)
        idle.idle(0);
        assertTrue(bell.announcedBy(consumer));
        // work withdraws it, and the next idle call rests again, unannounced
        idle.idle(1);
        assertFalse(bell.announcedBy(consumer));
        idle.idle(0);
        assertFalse(bell.announcedBy(consumer));
    }

    @Test
    void refusesANegativeSpinCountAndAnEmptyPark()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new DoorbellIdleStrategy(new Doorbell(), 0, 1_000, -1));
        assertThrows(IllegalArgumentException.class, () -> new DoorbellIdleStrategy(new Doorbell(), -1, 1_000));
        assertThrows(IllegalArgumentException.class, () -> new DoorbellIdleStrategy(new Doorbell(), 0, 0));
    }
}
