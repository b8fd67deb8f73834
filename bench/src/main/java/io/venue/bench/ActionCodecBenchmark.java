package io.venue.bench;

import io.venue.action.ActionPayload;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.crypto.ActionDigest;
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
 * The per-action work before signature recovery: strict parse, canonical encode, v2 digest.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ActionCodecBenchmark
{
    private final SignedActionParser parser = new SignedActionParser();
    private final CanonicalJson canonical = new CanonicalJson();
    private final ActionDigest digest = new ActionDigest(Fixtures.CHAIN_ID, Fixtures.CONTRACT);
    private final byte[] hash = new byte[32];
    private ActionPayload payload;
    private byte[] body;
    private byte[] json;

    @Setup
    public void setUp()
    {
        payload = Fixtures.order(42);
        body = Fixtures.signedBodies(1)[0];
        json = CanonicalJson.toBytes(payload);
    }

    /** Canonical JSON of a parsed payload into the reused writer. */
    @Benchmark
    public int encode()
    {
        return canonical.encode(payload);
    }

    /** v2 digest (blake3 over domain, chain, contract and the canonical JSON). */
    @Benchmark
    public byte[] digestV2()
    {
        digest.v2(json, 0, json.length, hash, 0);
        return hash;
    }

    /** Strict parse of the SignedAction body. */
    @Benchmark
    public ParseResult parse()
    {
        return parser.parse(body);
    }

    /** What the server does before recovery: parse, re-encode, digest. */
    @Benchmark
    public byte[] parseEncodeDigest()
    {
        final ParseResult result = parser.parse(body);
        final int length = canonical.encode(result.payload());
        digest.v2(canonical.writer().buffer(), 0, length, hash, 0);
        return hash;
    }
}
