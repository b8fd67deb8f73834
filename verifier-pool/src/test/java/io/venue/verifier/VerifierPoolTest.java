package io.venue.verifier;

import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.tuning.Doorbell;
import io.venue.tuning.DoorbellIdleStrategy;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static io.venue.verifier.SignedActions.CHAIN_ID;
import static io.venue.verifier.SignedActions.CONTRACT;
import static io.venue.verifier.SignedActions.bid;
import static io.venue.verifier.SignedActions.body;
import static io.venue.verifier.SignedActions.signedBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pool on real threads and real ring buffers: per-connection order, refusal when full, nothing lost.
 */
class VerifierPoolTest
{
    private static final int CONNECTIONS = 16;
    private static final int PER_CONNECTION = 40;

    private static VerifierPool.Context context(final int threads)
    {
        return new VerifierPool.Context()
            .threads(threads)
            .chainId(CHAIN_ID)
            .verifyingContract(CONTRACT)
            .idleStrategy(doorbell -> new YieldingIdleStrategy());
    }

    @Test
    void twoProducersTwoVerifiersKeepEachConnectionInOrder() throws Exception
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final byte[][] bodies = new byte[PER_CONNECTION][];
        for (int i = 0; i < PER_CONNECTION; i++)
        {
            bodies[i] = signedBody(key, bid(key.address(), i), i % 2 == 0 ? PreimageMode.RAW : PreimageMode.PERSONAL);
        }

        try (VerifierPool pool = VerifierPool.start(context(2)))
        {
            final CountDownLatch start = new CountDownLatch(1);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < 2; p++)
            {
                final int firstConnection = p * CONNECTIONS / 2;
                final Thread producer = new Thread(() ->
                {
                    try
                    {
                        start.await();
                        final long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                        for (int i = 0; i < PER_CONNECTION; i++)
                        {
                            for (int c = firstConnection; c < firstConnection + CONNECTIONS / 2; c++)
                            {
                                while (!pool.offer(c, i, bodies[i], 0, bodies[i].length))
                                {
                                    if (System.nanoTime() - giveUpAt > 0)
                                    {
                                        throw new AssertionError("request " + i + " of connection " + c +
                                            " refused for 60 s: the pool's ring stayed full");
                                    }
                                    Thread.yield();
                                }
                            }
                        }
                    }
                    catch (final Throwable t)
                    {
                        failure.set(t);
                    }
                });
                producer.start();
                producers.add(producer);
            }
            start.countDown();

            final Map<Long, Long> lastCorrelation = new HashMap<>();
            final int[] received = {0};
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received[0] < CONNECTIONS * PER_CONNECTION && System.nanoTime() < deadline)
            {
                pool.poll(result ->
                {
                    assertEquals(VerificationOutcome.VERIFIED, result.outcome());
                    assertTrue(result.signerMatch().isAccount(), result.signerMatch()::toString);
                    final long previous = lastCorrelation.getOrDefault(result.connectionId(), -1L);
                    assertEquals(previous + 1, result.correlationId(),
                        "connection " + result.connectionId() + " out of order");
                    lastCorrelation.put(result.connectionId(), result.correlationId());
                    received[0]++;
                }, 100);
            }
            for (final Thread producer : producers)
            {
                producer.join(TimeUnit.SECONDS.toMillis(70));
                assertFalse(producer.isAlive(), "a producer still offering after 70 s");
            }
            assertEquals(null, failure.get());
            assertEquals(CONNECTIONS * PER_CONNECTION, received[0]);
            assertEquals(2, pool.threads());
        }
    }

    @Test
    void aHostedPoolStartsNoThreadAndVerifiesOnTheThreadThatRunsItsAgents() throws Exception
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final Doorbell hostBell = new Doorbell();
        try (VerifierPool pool = VerifierPool.start(context(1).hostedBy(hostBell)))
        {
            assertEquals(1, pool.agents().size());
            assertEquals(1, pool.threads());
            // a host parked on its bell with no time limit: the offer's ring must wake it
            final DoorbellIdleStrategy hostIdle = new DoorbellIdleStrategy(hostBell, 0, TimeUnit.HOURS.toNanos(1));
            final Thread host = new Thread(() ->
            {
                hostIdle.idle(0); // announces
                hostIdle.idle(0); // parks until rung
            });
            host.start();
            while (host.getState() != Thread.State.TIMED_WAITING)
            {
                Thread.onSpinWait();
            }
            for (int i = 0; i < PER_CONNECTION; i++)
            {
                final byte[] body = signedBody(key, bid(key.address(), i), PreimageMode.RAW);
                assertTrue(pool.offer(7, i, body, 0, body.length));
            }
            host.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(host.isAlive(), "an offer did not ring the host's bell");
            // nothing is verified until the host runs the agent: no thread of the pool's own does it
            final List<Long> seen = new ArrayList<>();
            assertEquals(0, pool.poll(result -> seen.add(result.correlationId()), 100));
            assertFalse(pool.allVerified());
            final Agent verifier = pool.agents().get(0);
            verifier.onStart();
            while (seen.size() < PER_CONNECTION)
            {
                verifier.doWork();
                pool.poll(result ->
                {
                    assertEquals(VerificationOutcome.VERIFIED, result.outcome());
                    seen.add(result.correlationId());
                }, 100);
            }
            for (int i = 0; i < PER_CONNECTION; i++)
            {
                assertEquals(i, seen.get(i));
            }
            assertTrue(pool.allVerified());
        }
    }

    @Test
    void aFullPoolRefusesAtOnceAndLosesNothingItAccepted()
    {
        fillThenDrain(context(1), 64 * 1024, false);
    }

    @Test
    void aVerifierParkedOnAFullResultRingIsWokenWhenRoomIsMade()
    {
        // parked for an hour unless rung: only the consumer's ring after it made room can wake the verifier in time;
        // the request ring holds more than the result ring, so the verifier stops on a result that does not fit
        fillThenDrain(context(1).idleStrategy(doorbell -> new DoorbellIdleStrategy(doorbell, 0,
            TimeUnit.HOURS.toNanos(1))), 256 * 1024, true);
    }

    private static void fillThenDrain(final VerifierPool.Context poolContext, final int requestRingBytes,
        final boolean held)
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final byte[] body = signedBody(key, bid(key.address(), 1), PreimageMode.RAW);
        final List<Thread> verifiers = new CopyOnWriteArrayList<>();
        final VerifierPool.Context context = poolContext
            .maxBodyBytes(4096)
            .requestRingBytes(requestRingBytes)
            .resultRingBytes(64 * 1024)
            .threadFactory(runnable ->
            {
                final Thread thread = new Thread(runnable, "verifier");
                thread.setDaemon(true);
                verifiers.add(thread);
                return thread;
            });
        try (VerifierPool pool = VerifierPool.start(context))
        {
            // nobody polls: the request ring fills; where it holds more than the result ring, the result ring fills
            // first and the verifier holds a result that does not fit
            int accepted = 0;
            int refused = 0;
            for (int i = 0; i < 5_000 && refused == 0; i++)
            {
                if (pool.offer(1, i, body, 0, body.length))
                {
                    accepted++;
                }
                else
                {
                    refused++;
                }
            }
            assertTrue(refused > 0, "a full pool must refuse");
            assertTrue(accepted > 100, "accepted " + accepted);
            if (held)
            {
                // the verifier reaches its park holding a result that does not fit: parked with requests still in
                // its ring
                final long parkedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (verifiers.get(0).getState() != Thread.State.TIMED_WAITING || pool.allVerified())
                {
                    assertTrue(System.nanoTime() - parkedBy < 0,
                        "the verifier did not stop on a full result ring within 30 s: " +
                        verifiers.get(0).getState() +
                        (pool.allVerified() ? ", every request verified" : ", requests waiting"));
                    Thread.yield();
                }
            }

            final int[] received = {0};
            final long[] nextCorrelation = {0};
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received[0] < accepted && System.nanoTime() < deadline)
            {
                pool.poll(result ->
                {
                    assertEquals(nextCorrelation[0]++, result.correlationId());
                    received[0]++;
                }, 64);
            }
            assertEquals(accepted, received[0]);
        }
    }

    @Test
    void aVerifierTakesOnePrebatchedRequestPerDutyCycleAfterTheLowLatencyOnes() throws Exception
    {
        // three pre-batched requests (correlations 1000 on), then 130 low-latency ones (0 on), on two connections
        final List<Long> order = verifyQueued(133, pool ->
        {
            for (int i = 0; i < 3; i++)
            {
                assertTrue(pool.offerMm(true, 1, 1_000 + i, BODY, 0, BODY.length));
            }
            for (int i = 0; i < 130; i++)
            {
                assertTrue(pool.offer(false, 2, i, BODY, 0, BODY.length));
            }
        });
        final List<Long> expected = new ArrayList<>(range(0, 64));
        expected.add(1_000L);
        expected.addAll(range(64, 128));
        expected.add(1_001L);
        expected.addAll(range(128, 130));
        expected.add(1_002L);
        assertEquals(expected, order, "a duty cycle: up to 64 low-latency requests, then one pre-batched");
    }

    @Test
    void aPrebatchedRequestWaitsForEveryLowLatencyRequestOfferedBeforeIt() throws Exception
    {
        // 100 low-latency requests of one connection, then its pre-batched one, then 10 more low-latency ones: the
        // pre-batched one is not taken after the first duty cycle's 64, but once the 100 offered before it are
        final List<Long> order = verifyQueued(111, pool ->
        {
            for (int i = 0; i < 100; i++)
            {
                assertTrue(pool.offer(false, 1, i, BODY, 0, BODY.length));
            }
            assertTrue(pool.offerMm(true, 1, 1_000, BODY, 0, BODY.length));
            for (int i = 100; i < 110; i++)
            {
                assertTrue(pool.offer(false, 1, i, BODY, 0, BODY.length));
            }
        });
        final List<Long> expected = new ArrayList<>(range(0, 110));
        expected.add(1_000L);
        assertEquals(expected, order);
    }

    private static final byte[] BODY;

    static
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        BODY = signedBody(key, bid(key.address(), 1), PreimageMode.RAW);
    }

    private static List<Long> range(final long from, final long to)
    {
        final List<Long> values = new ArrayList<>();
        for (long i = from; i < to; i++)
        {
            values.add(i);
        }
        return values;
    }

    /**
     * The correlation ids of the {@code results} results, in the order one verifier (batch limit 64) produced them, of
     * what {@code offers} queued before its thread started, so that its duty cycles see the rings filled.
     */
    private static List<Long> verifyQueued(final int results, final Consumer<VerifierPool> offers)
    {
        final CountDownLatch queued = new CountDownLatch(1);
        final VerifierPool.Context context = context(1).batchLimit(64).threadFactory(runnable -> new Thread(() ->
        {
            try
            {
                queued.await();
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            runnable.run();
        }));
        try (VerifierPool pool = VerifierPool.start(context))
        {
            offers.accept(pool);
            queued.countDown();
            final List<Long> order = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (order.size() < results && System.nanoTime() < deadline)
            {
                pool.poll(result ->
                {
                    assertEquals(VerificationOutcome.VERIFIED, result.outcome());
                    order.add(result.correlationId());
                }, 100);
            }
            return order;
        }
    }

    @Test
    void bodiesAboveTheLimitAreRefusedWithoutQueueing()
    {
        try (VerifierPool pool = VerifierPool.start(
            context(1).maxBodyBytes(4096).requestRingBytes(64 * 1024).resultRingBytes(64 * 1024)))
        {
            assertEquals(false, pool.offer(1, 1, new byte[4097], 0, 4097));
        }
    }

    @Test
    void contextRefusesRingsTooSmallForTheBodyLimit()
    {
        final IllegalArgumentException ex = Assertions.assertThrows(IllegalArgumentException.class,
            () -> VerifierPool.start(context(1).maxBodyBytes(1 << 20).requestRingBytes(64 * 1024)));
        assertTrue(ex.getMessage().contains("requestRingBytes"), ex.getMessage());
    }
}
