package io.venue.verifier;

import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.action.typed.TypedOrder;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.venue.verifier.SignedActions.CHAIN_ID;
import static io.venue.verifier.SignedActions.CONTRACT;
import static io.venue.verifier.SignedActions.bid;
import static io.venue.verifier.SignedActions.randomOrder;
import static io.venue.verifier.SignedActions.signedBody;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Typed orders on real verifier threads and rings: a connection's typed and JSON requests come out in the order
 * offered, across the low-latency and pre-batched rings, each typed order with the result its JSON body gets; a full
 * ring refuses a typed order at once and loses nothing it took; a pre-batched typed order waits for the low-latency
 * requests offered before it.
 */
class TypedVerifierPoolTest
{
    private static final int CONNECTIONS = 8;
    private static final int PER_CONNECTION = 30;

    private static VerifierPool.Context context(final int threads)
    {
        return new VerifierPool.Context()
            .threads(threads)
            .chainId(CHAIN_ID)
            .verifyingContract(CONTRACT)
            .idleStrategy(doorbell -> new YieldingIdleStrategy());
    }

    @Test
    void aConnectionsTypedAndJsonRequestsComeOutInOrderWithTheSameResults() throws Exception
    {
        final Random random = new Random(20261128);
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        // order i of every connection, offered twice in a row: typed (correlation 2i), then its JSON body (2i + 1);
        // from a point of its own on, each connection is pre-batched, as the gateway sends a connection's requests
        // behind a batch.
        // Raw-mode signatures: one the verifier matched in personal mode would change how it recovers the second of the
        // pair (TypedVerificationTest covers that mode, with a JSON verifier in step)
        final SignedAction[] orders = new SignedAction[PER_CONNECTION];
        final UnsafeBuffer[] records = new UnsafeBuffer[PER_CONNECTION];
        final byte[][] bodies = new byte[PER_CONNECTION][];
        for (int i = 0; i < PER_CONNECTION; i++)
        {
            orders[i] = randomOrder(random, key, i);
            // a few whose signature is not the account's, a few that cannot be a signature
            final byte[] signature = orders[i].signature().toBytes();
            if (i % 7 == 3)
            {
                signature[64] = 5;
            }
            else if (i % 7 == 5)
            {
                signature[3] ^= 1;
            }
            orders[i] = new SignedAction(orders[i].payload(), new Signature65(signature));
            records[i] = new UnsafeBuffer(new byte[TypedOrder.LENGTH + 3]);
            TypedOrder.encode(orders[i], records[i], 3);
            bodies[i] = CanonicalJson.signedActionBody(orders[i]);
        }
        final int[] batchedFrom = new int[CONNECTIONS];
        for (int c = 0; c < CONNECTIONS; c++)
        {
            batchedFrom[c] = random.nextInt(PER_CONNECTION + 1);
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
                        for (int i = 0; i < PER_CONNECTION; i++)
                        {
                            for (int c = firstConnection; c < firstConnection + CONNECTIONS / 2; c++)
                            {
                                final boolean prebatched = i >= batchedFrom[c];
                                while (!pool.offerTypedMm(prebatched, c, 2L * i, records[i], 3,
                                    TypedOrder.market(records[i], 3)))
                                {
                                    Thread.yield();
                                }
                                while (!pool.offerMm(prebatched, c, 2L * i + 1, bodies[i], 0, bodies[i].length))
                                {
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
            final Map<Long, byte[]> typedResult = new HashMap<>();
            final int[] received = {0};
            final int[] verified = {0};
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received[0] < 2 * CONNECTIONS * PER_CONNECTION && System.nanoTime() < deadline)
            {
                pool.poll(result ->
                {
                    final long connection = result.connectionId();
                    final long correlation = result.correlationId();
                    assertEquals(lastCorrelation.getOrDefault(connection, -1L) + 1, correlation,
                        "connection " + connection + " out of order");
                    lastCorrelation.put(connection, correlation);
                    assertTrue(result.mmLimitClass());
                    if (correlation % 2 == 0)
                    {
                        typedResult.put(connection, snapshot(result));
                    }
                    else
                    {
                        assertArrayEquals(snapshot(result), typedResult.remove(connection), "order " + correlation / 2);
                    }
                    verified[0] += result.outcome() == VerificationOutcome.VERIFIED ? 1 : 0;
                    received[0]++;
                }, 100);
            }
            for (final Thread producer : producers)
            {
                producer.join();
            }
            assertNull(failure.get());
            assertEquals(2 * CONNECTIONS * PER_CONNECTION, received[0]);
            assertTrue(verified[0] > 0 && verified[0] < received[0], verified[0] + " of " + received[0] + " verified");
        }
    }

    @Test
    void aFullRingRefusesTypedOrdersAtOnceAndLosesNoneItTook()
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final UnsafeBuffer record = new UnsafeBuffer(new byte[TypedOrder.LENGTH]);
        TypedOrder.encode(randomOrder(new Random(1), key, 1), record, 0);
        try (VerifierPool pool = VerifierPool.start(context(1).maxBodyBytes(4096).requestRingBytes(64 * 1024)
            .resultRingBytes(64 * 1024)))
        {
            int accepted = 0;
            boolean refused = false;
            for (int i = 0; i < 5_000 && !refused; i++)
            {
                if (pool.offerTypedMm(i % 2 == 0, 1, i, record, 0, TypedOrder.market(record, 0)))
                {
                    accepted++;
                }
                else
                {
                    refused = true;
                }
            }
            assertTrue(refused, "a full pool must refuse");
            assertTrue(accepted > 100, "accepted " + accepted);
            final int[] received = {0};
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            final List<Long> order = new ArrayList<>();
            while (received[0] < accepted && System.nanoTime() < deadline)
            {
                pool.poll(result ->
                {
                    order.add(result.correlationId());
                    received[0]++;
                }, 64);
            }
            assertEquals(accepted, received[0]);
            // both rings drained; each ring's requests in the order offered
            assertEquals(order.stream().filter(c -> c % 2 == 0).sorted().toList(),
                order.stream().filter(c -> c % 2 == 0).toList());
            assertEquals(order.stream().filter(c -> c % 2 == 1).sorted().toList(),
                order.stream().filter(c -> c % 2 == 1).toList());
        }
    }

    @Test
    void aPrebatchedTypedOrderWaitsForEveryLowLatencyRequestOfferedBeforeIt()
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final byte[] body = signedBody(key, bid(key.address(), 1), PreimageMode.RAW);
        final UnsafeBuffer record = new UnsafeBuffer(new byte[TypedOrder.LENGTH]);
        TypedOrder.encode(randomOrder(new Random(2), key, 2), record, 0);
        final long market = TypedOrder.market(record, 0);
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
            // 100 low-latency requests of one connection (typed and JSON), then its pre-batched typed order, then
            // 10 more
            for (int i = 0; i < 100; i++)
            {
                assertTrue(i % 2 == 0 ? pool.offerTypedMm(false, 1, i, record, 0, market) :
                    pool.offer(false, 1, i, body, 0, body.length));
            }
            assertTrue(pool.offerTypedMm(true, 1, 1_000, record, 0, market));
            for (int i = 100; i < 110; i++)
            {
                assertTrue(pool.offerTypedMm(false, 1, i, record, 0, market));
            }
            queued.countDown();
            final List<Long> order = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (order.size() < 111 && System.nanoTime() < deadline)
            {
                pool.poll(result ->
                {
                    assertEquals(VerificationOutcome.VERIFIED, result.outcome());
                    order.add(result.correlationId());
                }, 100);
            }
            final List<Long> expected = new ArrayList<>();
            for (long i = 0; i < 110; i++)
            {
                expected.add(i);
            }
            expected.add(1_000L);
            assertEquals(expected, order);
        }
    }

    /** Everything of a result the sequencer reads, but its correlation id. */
    static byte[] snapshot(final VerificationResult result)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final byte[] digest = new byte[32];
        final byte[] address = new byte[20];
        final byte[] signature = new byte[65];
        bytes.write((int)result.connectionId());
        bytes.write(result.outcome().ordinal());
        bytes.write(switch (result.outcome())
        {
            case VERIFIED -> result.signerMatch().ordinal();
            case MALFORMED -> result.parseError().ordinal();
            case BAD_SIGNATURE -> result.recoveryStatus().ordinal();
        });
        bytes.write(result.digestVersion());
        bytes.write(result.mmLimitClass() ? 1 : 0);
        result.getDigest(digest, 0);
        bytes.writeBytes(digest);
        result.getRawSigner(address, 0);
        bytes.writeBytes(address);
        result.getPersonalSigner(address, 0);
        bytes.writeBytes(address);
        result.getAccount(address, 0);
        bytes.writeBytes(address);
        result.getSignature(signature, 0);
        bytes.writeBytes(signature);
        final byte[] text = new byte[result.textLength()];
        result.getText(text, 0);
        bytes.writeBytes(text);
        return bytes.toByteArray();
    }
}
