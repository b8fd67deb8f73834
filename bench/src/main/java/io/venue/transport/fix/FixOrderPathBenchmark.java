package io.venue.transport.fix;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.entry.protect.ProtectionRequests;
import io.venue.signing.ActionSigner;
import io.venue.verifier.ActionVerifier;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
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
 * One order's work in the lane before the journal, FIX against the JSON route, in the same run (docs/PERFORMANCE.md):
 * {@link #fixOrder} parses a NewOrderSingle ({@link FixMessage}), checks and converts it ({@link FixOrderEntry}: the
 * decimals to micro-units, the BLAKE3 order id, the PlaceOrder command) and hands the command over the ring the
 * sequencer reads, then takes it off the ring as the sequencer would; {@link #jsonOrder} is what the JSON route's
 * verifier does for one signed order (strict parse, canonical encode, v2 digest, secp256k1 recovery with the native
 * library, the account compared, the command written). Neither includes the network, the sequencer's journal write or
 * the engine, which both routes share.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FixOrderPathBenchmark
{
    private static final int BODIES = 256;
    private static final long CHAIN_ID = 8453;
    private static final Address CONTRACT = Address.of("0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e");
    private static final Secp256k1KeyPair KEY = Secp256k1KeyPair.fromPrivateKey(
        Hex.fromHex("0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));

    private final FixMessage message = new FixMessage();
    private final ProtectionRequests ring = new ProtectionRequests(1 << 20);
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
    private final ProtectionRequests.Handler sequencer = this::taken;
    private FixOrderEntry entry;
    private UnsafeBuffer[] orders;
    private int[] lengths;
    private byte[][] bodies;
    private ActionVerifier verifier;
    private int next;
    private long taken;

    @Setup
    public void setUp()
    {
        final FixOrderEntry.Replies replies = new FixOrderEntry.Replies()
        {
            public void report(final FixReport report)
            {
                throw new IllegalStateException("refused: " + report.text);
            }

            public void reject(final long refSeq, final int reason, final int refTag, final String text)
            {
                throw new IllegalStateException("rejected: " + text);
            }
        };
        entry = new FixOrderEntry(3L << 56 | 1, 0x0123_4567_89ab_cdefL, KEY.address().toString(), ring,
            new FixReports(null, null, () -> 0, 0, 16, (report, key, replaying) -> { }), replies, null);
        orders = new UnsafeBuffer[BODIES];
        lengths = new int[BODIES];
        for (int i = 0; i < BODIES; i++)
        {
            final FixWriter w = new FixWriter(4096);
            w.begin("D", "spk_0123456789abcdef", null, "VENUE", i + 2, 1_764_000_000_000L)
                .string(FixTags.CL_ORD_ID, "clordid-" + (100_000 + i)).string(38, "2").string(40, "2")
                .string(44, "1.5" + i % 10).string(54, "1").string(55, "7").string(59, "1").number(2964, 1);
            final byte[] bytes = w.finish().toBytes();
            orders[i] = new UnsafeBuffer(bytes);
            lengths[i] = bytes.length;
        }
        final ActionSigner signer = new ActionSigner(CHAIN_ID, CONTRACT, KEY);
        bodies = new byte[BODIES][];
        for (int i = 0; i < BODIES; i++)
        {
            bodies[i] = CanonicalJson.signedActionBody(signer.sign(new ActionPayload(KEY.address(), i + 1, null,
                1_763_000_000_000L + i, new SpotPlaceOrder(7, null, Side.BID, 1_500_000 + i % 10 * 10_000,
                2_000_000, StpMode.CANCEL_TAKER, TimeInForce.GTC, false, false, SpotPlaceOrder.NO_EXPIRY)),
                PreimageMode.RAW));
        }
        verifier = new ActionVerifier(CHAIN_ID, CONTRACT, Secp256k1Recoveries.select("native").newRecovery(), false,
            1 << 16);
    }

    private void taken(final long connectionId, final long correlationId, final DirectBuffer record, final int offset,
        final int length)
    {
        taken += length;
    }

    /** A NewOrderSingle to its journal command on the sequencer's ring, and off it. */
    @Benchmark
    public long fixOrder()
    {
        final int i = next++ & (BODIES - 1);
        message.parse(orders[i], 0, lengths[i]);
        entry.onMessage(message, i + 2, FixTags.NEW_ORDER_SINGLE, 1_764_000_000_000L);
        ring.poll(sequencer, 2);
        ring.poll(sequencer, 2);
        return taken;
    }

    /** A signed JSON order to its journal command: the JSON route's verifier. */
    @Benchmark
    public int jsonOrder()
    {
        final byte[] body = bodies[next++ & (BODIES - 1)];
        return verifier.verify(body, 0, body.length, 0, 0, out);
    }
}
