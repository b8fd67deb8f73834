package io.venue.bench;

import io.venue.action.json.CanonicalJson;
import io.venue.crypto.Blake3;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * blake3 of one canonical action preimage (~330 bytes): our hasher against the two libraries.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Blake3Benchmark
{
    private final Blake3 ours = new Blake3();
    private final Blake3Digest bouncyCastle = new Blake3Digest(256);
    private final byte[] out = new byte[32];
    private byte[] input;

    @Setup
    public void setUp()
    {
        final byte[] json = CanonicalJson.toBytes(Fixtures.order(42));
        input = new byte[25 + 28 + json.length];
        System.arraycopy(json, 0, input, 53, json.length);
    }

    @Benchmark
    public byte[] ours()
    {
        ours.reset();
        ours.update(input, 0, input.length);
        ours.digest(out, 0);
        return out;
    }

    @Benchmark
    public byte[] bouncyCastle()
    {
        bouncyCastle.update(input, 0, input.length);
        bouncyCastle.doFinal(out, 0);
        return out;
    }

    @Benchmark
    public byte[] rctcwyvrn()
    {
        // FQN-CLASH: the reference library's Blake3 (Blake3 here is ours)
        final io.github.rctcwyvrn.blake3.Blake3 hasher = io.github.rctcwyvrn.blake3.Blake3.newInstance();
        hasher.update(input);
        return hasher.digest();
    }
}
