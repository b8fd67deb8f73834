package io.venue.bench;

import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.crypto.PreimageMode;
import io.venue.signing.ActionSigner;
import io.venue.transport.bsl.CompactOrders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the compact lane added per order before the verifier's own work until the lane offered typed orders
 * (2026-11-28): decoding the binary body, and rebuilding each order's JSON submit, which the verifier then parsed as it
 * parses a trading-route submit. Per order, over a request of 100 orders. Since then {@link #decode} is the lane's
 * whole part (the body checked in place); the other two stay as the figures of the JSON path ({@code TypedVerifyRun}
 * compares the two).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CompactOrdersBenchmark
{
    private static final int ORDERS = 100;

    private final SignedActionParser parser = new SignedActionParser();
    private byte[] body;
    private List<SignedAction> orders;

    @Setup
    public void setUp() throws Exception
    {
        final ActionSigner signer = new ActionSigner(Fixtures.CHAIN_ID, Fixtures.CONTRACT, Fixtures.KEY);
        final List<SignedAction> signed = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++)
        {
            signed.add(signer.sign(Fixtures.order(i + 1), PreimageMode.RAW));
        }
        body = CompactOrders.encode(7, signed);
        orders = CompactOrders.decode(body).orders();
    }

    /** The binary body checked and viewed in place (before 2026-11-28: decoded into the action model). */
    @Benchmark
    @OperationsPerInvocation(ORDERS)
    public CompactOrders.Request decode() throws Exception
    {
        return CompactOrders.decode(body);
    }

    /** The lane's rebuilding of each order's JSON submit. */
    @Benchmark
    @OperationsPerInvocation(ORDERS)
    public int rebuildJson()
    {
        int length = 0;
        for (final SignedAction order : orders)
        {
            length += CanonicalJson.signedActionBody(order).length;
        }
        return length;
    }

    /** The verifier's strict parse of those rebuilt submits: the step a binary input to the verifier would not need. */
    @Benchmark
    @OperationsPerInvocation(ORDERS)
    public int rebuildAndParse()
    {
        int parsed = 0;
        for (final SignedAction order : orders)
        {
            final ParseResult result = parser.parse(CanonicalJson.signedActionBody(order));
            parsed += result.isOk() ? 1 : 0;
        }
        return parsed;
    }
}
