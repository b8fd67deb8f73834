package io.venue.tuning;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class DoorbellIdleStrategyTest
{
    /** Parks so long that one lost wake-up stops the exchange for good, so the test's timeout catches it. */
    private static final long FOREVER_NS = TimeUnit.HOURS.toNanos(1);

    @Test
    void noWakeUpIsLostInAPingPongOfParkedThreads()
    {
        // each hand-off finds the other thread somewhere in its spin, announce or park phase: with no spins, mostly parked
        for (final int spins : new int[]{0, 1, 50})
        {
            final int rounds = 20_000;
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertEquals(rounds, pingPong(rounds, spins)),
                "a wake-up was lost with " + spins + " spins");
        }
    }

    private static long pingPong(final int rounds, final int spins) throws InterruptedException
    {
        final AtomicLong ball = new AtomicLong();
        final Doorbell pingBell = new Doorbell();
        final Doorbell pongBell = new Doorbell();
        final Thread pong = new Thread(() -> play(ball, 1, rounds, new DoorbellIdleStrategy(pongBell, spins, FOREVER_NS), pingBell));
        pong.setDaemon(true);
        pong.start();
        play(ball, 0, rounds, new DoorbellIdleStrategy(pingBell, spins, FOREVER_NS), pongBell);
        pong.join();
        return ball.get() / 2;
    }

    /** Hits the ball when its count has this side's parity, rings the other side, until both sides hit {@code rounds} times. */
    private static void play(final AtomicLong ball, final int parity, final int rounds, final DoorbellIdleStrategy idle, final Doorbell other)
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
    void refusesANegativeSpinCountAndAnEmptyPark()
    {
        assertThrows(IllegalArgumentException.class, () -> new DoorbellIdleStrategy(new Doorbell(), -1, 1_000));
        assertThrows(IllegalArgumentException.class, () -> new DoorbellIdleStrategy(new Doorbell(), 0, 0));
    }
}
