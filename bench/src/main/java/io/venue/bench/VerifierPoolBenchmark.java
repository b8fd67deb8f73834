package io.venue.bench;

import io.venue.verifier.VerificationResultHandler;
import io.venue.verifier.VerifierPool;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The verifier pool end to end: one producer offers a burst of signed orders over many connections and
 * collects every result. Throughput is signed orders per second; compare with
 * {@code RecoveryBenchmark.verifyOrder} (one thread, no pool) in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VerifierPoolBenchmark
{
    private static final int BURST = 512;

    @Param({"1", "2"})
    public int threads;

    private VerifierPool pool;
    private byte[][] bodies;
    private final IdleStrategy idle = new BackoffIdleStrategy(1, 1, 1_000, 50_000);
    private int received;
    private final VerificationResultHandler onResult = result -> received++;

    @Setup(Level.Trial)
    public void setUp()
    {
        bodies = Fixtures.signedBodies(BURST);
        pool = VerifierPool.start(new VerifierPool.Context()
            .threads(threads)
            .chainId(Fixtures.CHAIN_ID)
            .verifyingContract(Fixtures.CONTRACT)
            .idleStrategy(doorbell -> new BackoffIdleStrategy(1, 1, 1_000, 50_000)));
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        pool.close();
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public int burst()
    {
        for (int i = 0; i < BURST; i++)
        {
            while (!pool.offer(i, i, bodies[i], 0, bodies[i].length))
            {
                idle.idle();
            }
        }
        received = 0;
        while (received < BURST)
        {
            idle.idle(pool.poll(onResult, BURST));
        }
        return received;
    }
}
