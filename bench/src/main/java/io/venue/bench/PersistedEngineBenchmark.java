package io.venue.bench;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Cancel;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.EventSink;
import io.venue.engine.PersistedEngine;
import io.venue.engine.state.EngineState;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Commands per second through {@link Engine#onCommand} with the Chronicle Map write-through mirror off
 * (in-memory engine) and on (persisted to memory-mapped files in a temp folder, demo sizing), writing after
 * every command or every 1,000 (the default).
 * <p>
 * The workload is a place/cancel mix over 64 accounts on one spot market: each command is either a cancel of
 * the account's oldest order (40%, or when it already has 8 outstanding) or a limit order within three ticks
 * either side of a fixed mid, so many cross and trade; one order in ten is IOC. The books stay shallow (about
 * 120 orders resting) and every command writes something. Commands are
 * patched into pre-encoded templates (sequence, time, nonce, order id, side, price, quantity), so the loop
 * allocates nothing of its own: {@code -prof gc} shows what the engine and the mirror allocate.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PersistedEngineBenchmark
{
    private static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    private static final long T0 = 1_763_000_000_000L;
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long SPOT = 7;
    private static final long TICK = 1_000;
    private static final long MID = 1_000 * TICK;
    private static final int ACCOUNTS = 64;
    private static final int OUTSTANDING = 8;
    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;

    /**
     * "off": the in-memory engine; "default": the state's default write rule (every 1,000 commands or 256 changed
     * records); a number: a write every that many commands, whatever the records.
     */
    @Param({"off", "1", "1000", "default"})
    public String mirror;

    private Path folder;
    private PersistedEngine persisted;
    private Engine engine;
    private long eventBytes;
    private final EventSink sink = (buffer, offset, length) -> eventBytes += length;

    private final UnsafeBuffer[] places = new UnsafeBuffer[ACCOUNTS];
    private final UnsafeBuffer[] cancels = new UnsafeBuffer[ACCOUNTS];
    private final int[] placeLengths = new int[ACCOUNTS];
    private final int[] cancelLengths = new int[ACCOUNTS];
    private final long[] nonces = new long[ACCOUNTS];
    /** Per account, a ring of the op numbers (hence order ids) of its outstanding GTC orders. */
    private final long[] rings = new long[ACCOUNTS * OUTSTANDING];
    private final int[] ringHeads = new int[ACCOUNTS];
    private final int[] ringCounts = new int[ACCOUNTS];
    private long sequence;
    private long now = T0;
    private long op;
    private long seed = 0x9E3779B97F4A7C15L;

    @Setup(Level.Trial)
    public void setUp() throws Exception
    {
        final EngineConfig config = new EngineConfig().operator(OPERATOR);
        if (!"off".equals(mirror))
        {
            folder = Files.createTempDirectory("persisted-engine-bench");
            final EngineState.Context context = new EngineState.Context().directory(folder);
            if (!"default".equals(mirror))
            {
                context.commandsPerFlush(Integer.parseInt(mirror)).recordsPerFlush(Integer.MAX_VALUE);
            }
            persisted = PersistedEngine.open(config, sink, context);
            engine = persisted.engine();
        }
        else
        {
            engine = new Engine(config, sink);
        }

        final ActionCommandEncoder encoder = new ActionCommandEncoder();
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[1024]);
        long operatorNonce = 0;
        final var setup = new Action[]{
            new CreateAsset(USD, "USD"), new CreateAsset(BTC, "BTC"),
            new CreateSpotMarket(SPOT, BTC, USD, TICK, 1_000, 1_000)};
        for (final Action action : setup)
        {
            apply(encoder, scratch, new ActionPayload(OPERATOR, operatorNonce++, null, now, action), OPERATOR);
        }
        for (int a = 0; a < ACCOUNTS; a++)
        {
            final Address account = account(a);
            apply(encoder, scratch, new ActionPayload(OPERATOR, operatorNonce++, null, now,
                new Deposit(account, USD, 1_000_000_000_000_000L)), OPERATOR);
            apply(encoder, scratch, new ActionPayload(OPERATOR, operatorNonce++, null, now,
                new Deposit(account, BTC, 1_000_000_000_000_000L)), OPERATOR);

            places[a] = new UnsafeBuffer(new byte[512]);
            placeLengths[a] = encoder.encode(0, now, 1, new ActionPayload(account, 0, null, now, new SpotPlaceOrder(
                SPOT, null, Side.BID, MID, 1_000, null, TimeInForce.GTC, false, false, SpotPlaceOrder.NO_EXPIRY)),
                new byte[32], SignerMatch.ACCOUNT_RAW, account.toBytes(), new byte[20], places[a], 0);
            cancels[a] = new UnsafeBuffer(new byte[512]);
            cancelLengths[a] = encoder.encode(0, now, 1,
                new ActionPayload(account, 0, null, now, new Cancel(new OrderId(new byte[32]))),
                new byte[32], SignerMatch.ACCOUNT_RAW, account.toBytes(), new byte[20], cancels[a], 0);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        if (null != persisted)
        {
            persisted.close();
            try (Stream<Path> files = Files.walk(folder))
            {
                files.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
            }
        }
    }

    @Benchmark
    public long command()
    {
        final long r = random();
        final int a = (int)(op % ACCOUNTS);
        final int count = ringCounts[a];
        final UnsafeBuffer buffer;
        final int length;
        if (count == OUTSTANDING || (count > 0 && (r & 0xFF) % 10 < 4))
        {
            // cancel the oldest outstanding order (it may have traded away meanwhile: then UNKNOWN_ORDER)
            final int slot = a * OUTSTANDING + ringHeads[a];
            ringHeads[a] = (ringHeads[a] + 1) % OUTSTANDING;
            ringCounts[a] = count - 1;
            buffer = cancels[a];
            length = cancelLengths[a];
            stamp(buffer, CancelDecoder.sequenceEncodingOffset(), CancelDecoder.timestampMsEncodingOffset(),
                CancelDecoder.envelopeEncodingOffset(), a);
            orderId(buffer, HEADER + CancelDecoder.orderIdEncodingOffset(), rings[slot], a);
        }
        else
        {
            final boolean bid = (r & 0x100) != 0;
            final long ticks = (r >>> 16) % 6;
            final boolean ioc = (r >>> 32) % 10 == 0;
            buffer = places[a];
            length = placeLengths[a];
            final int envelope = stamp(buffer, PlaceOrderDecoder.sequenceEncodingOffset(),
                PlaceOrderDecoder.timestampMsEncodingOffset(),
                PlaceOrderDecoder.envelopeEncodingOffset(), a);
            orderId(buffer, envelope + ActionEnvelopeDecoder.digestEncodingOffset(), op, a);
            buffer.putByte(HEADER + PlaceOrderDecoder.sideEncodingOffset(),
                // FQN-CLASH: the codec's enums (the action's are imported)
                (byte)(bid ? io.venue.journal.sbe.Side.BID : io.venue.journal.sbe.Side.ASK).value());
            buffer.putLong(HEADER + PlaceOrderDecoder.priceEncodingOffset(),
                bid ? MID - 3 * TICK + ticks * TICK : MID + 3 * TICK - ticks * TICK, ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(HEADER + PlaceOrderDecoder.qtyEncodingOffset(), 1_000 * (1 + (r >>> 40) % 10),
                ByteOrder.LITTLE_ENDIAN);
            buffer.putByte(HEADER + PlaceOrderDecoder.timeInForceEncodingOffset(),
                // FQN-CLASH: the codec's enums (the action's are imported)
                (byte)(ioc ? io.venue.journal.sbe.TimeInForce.IOC : io.venue.journal.sbe.TimeInForce.GTC).value());
            if (!ioc)
            {
                rings[a * OUTSTANDING + (ringHeads[a] + count) % OUTSTANDING] = op;
                ringCounts[a] = count + 1;
            }
        }
        op++;
        engine.onCommand(buffer, 0, length);
        return eventBytes;
    }

    /** Writes sequence, time and nonce into a command; returns the envelope's offset. */
    private int stamp(final UnsafeBuffer buffer, final int sequenceOffset, final int timeOffset,
        final int envelopeOffset, final int a)
    {
        buffer.putLong(HEADER + sequenceOffset, ++sequence, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(HEADER + timeOffset, ++now, ByteOrder.LITTLE_ENDIAN);
        final int envelope = HEADER + envelopeOffset;
        buffer.putLong(envelope + ActionEnvelopeDecoder.nonceEncodingOffset(), nonces[a]++, ByteOrder.LITTLE_ENDIAN);
        return envelope;
    }

    /** Order ids are the op number and account that placed them, so they never repeat. */
    private static void orderId(final UnsafeBuffer buffer, final int offset, final long placedAt, final int account)
    {
        buffer.putLong(offset, placedAt, ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + 8, account, ByteOrder.BIG_ENDIAN);
    }

    private long random()
    {
        // xorshift64*: cheap, allocation-free, the same stream every run
        seed ^= seed >>> 12;
        seed ^= seed << 25;
        seed ^= seed >>> 27;
        return (seed * 0x2545F4914F6CDD1DL) >>> 1;
    }

    private void apply(final ActionCommandEncoder encoder, final UnsafeBuffer scratch, final ActionPayload payload,
        final Address signer)
    {
        final byte[] digest = new byte[32];
        digest[0] = (byte)0xAD;
        digest[31] = (byte)sequence;
        final int length = encoder.encode(++sequence, now, 1, payload, digest, SignerMatch.ACCOUNT_RAW,
            signer.toBytes(), new byte[20], scratch, 0);
        if (!engine.onCommand(scratch, 0, length))
        {
            throw new IllegalStateException("set-up command refused");
        }
    }

    private static Address account(final int a)
    {
        return Address.of(String.format("0x%040x", 0xacc0000 + a));
    }
}
