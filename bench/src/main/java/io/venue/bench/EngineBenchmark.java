package io.venue.bench;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
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
import io.venue.engine.nonce.NonceWindow;
import io.venue.journal.sbe.ActionEnvelopeEncoder;
import io.venue.journal.sbe.ActionRejectedEncoder;
import io.venue.journal.sbe.CancelEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.concurrent.UnsafeBuffer;
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

import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

/**
 * One engine command of each kind, end to end through {@code Engine.onCommand}: gate (nonce window, rate
 * bucket), validation, credit, book, settlement and event encoding. Each invocation patches the nonce,
 * time and digest of a pre-encoded record, so no two commands are the same and nothing is allocated.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EngineBenchmark
{
    private static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    private static final Address MAKER = Address.of("0x" + "a1".repeat(20));
    private static final Address TAKER = Address.of("0x" + "b2".repeat(20));
    private static final long UNIT = 1_000_000;
    private static final int NONCE = MessageHeaderEncoder.ENCODED_LENGTH + PlaceOrderEncoder.envelopeEncodingOffset() +
        ActionEnvelopeEncoder.nonceEncodingOffset();
    private static final int DIGEST = MessageHeaderEncoder.ENCODED_LENGTH + PlaceOrderEncoder.envelopeEncodingOffset() +
        ActionEnvelopeEncoder.digestEncodingOffset();
    private static final int TIME = MessageHeaderEncoder.ENCODED_LENGTH + 8;

    private final ActionCommandEncoder encoder = new ActionCommandEncoder();
    private final UnsafeBuffer setup = new UnsafeBuffer(new byte[2048]);
    private final long[] nonceWords = new long[NonceWindow.WORDS];
    private Engine engine;
    private Command restBid;
    private Command cancelBid;
    private Command askToRest;
    private Command iocBid;
    private Command amendUp;
    private Command amendDown;
    private long now = 1_763_000_000_000L;
    private long makerNonce;
    private long takerNonce;
    private long id = 1;
    private long nonce;
    private long rejects;

    /** A pre-encoded record and where its nonce and digest live. */
    private static final class Command
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        int length;
    }

    @Setup
    public void setUp()
    {
        engine = new Engine(new EngineConfig().operator(OPERATOR).actionRate(1_000_000_000L, 1),
            (buffer, offset, length) ->
        {
            if (buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) == ActionRejectedEncoder.TEMPLATE_ID)
            {
                rejects++;
            }
        });
        long operatorNonce = 0;
        apply(OPERATOR, operatorNonce++, new CreateAsset(1, "USD"));
        apply(OPERATOR, operatorNonce++, new CreateAsset(2, "BTC"));
        apply(OPERATOR, operatorNonce++, new CreateSpotMarket(7, 2, 1, 100, 1000, 1000));
        for (final Address account : new Address[]{MAKER, TAKER})
        {
            apply(OPERATOR, operatorNonce++, new Deposit(account, 1, 1_000_000_000_000_000L));
            apply(OPERATOR, operatorNonce++, new Deposit(account, 2, 1_000_000_000_000L));
        }
        // a standing book of 200 levels each side so matching and inserts work in a realistic depth
        for (int i = 1; i <= 200; i++)
        {
            apply(MAKER, makerNonce++,
                new SpotPlaceOrder(7, null, Side.BID, UNIT - 100 * i - 10_000, UNIT, null, TimeInForce.GTC, false,
                false, -1));
            apply(MAKER, makerNonce++,
                new SpotPlaceOrder(7, null, Side.ASK, UNIT + 100 * i + 10_000, UNIT, null, TimeInForce.GTC, false,
                false, -1));
        }
        restBid = encode(MAKER,
            new SpotPlaceOrder(7, null, Side.BID, UNIT - 5_000, UNIT, null, TimeInForce.GTC, false, false, -1));
        cancelBid = encode(MAKER, new Cancel(new OrderId(new byte[32])));
        askToRest = encode(MAKER,
            new SpotPlaceOrder(7, null, Side.ASK, UNIT, UNIT, null, TimeInForce.GTC, false, false, -1));
        iocBid = encode(TAKER,
            new SpotPlaceOrder(7, null, Side.BID, UNIT, UNIT, null, TimeInForce.IOC, false, false, -1));
        // one order that the amend benchmark moves between two prices
        final byte[] amendedId = nextDigest();
        apply(MAKER, makerNonce++,
            new SpotPlaceOrder(7, null, Side.BID, UNIT - 6_000, UNIT, null, TimeInForce.GTC, false, false, -1),
            amendedId);
        amendUp = encode(MAKER, new Amend(new OrderId(amendedId), UNIT - 5_900, UNIT));
        amendDown = encode(MAKER, new Amend(new OrderId(amendedId), UNIT - 6_000, UNIT));

        // each operation must really do its work: none of them may be refused
        placeThenCancel();
        restThenMatch();
        amendPrice();
        amendPrice();
        if (rejects != 0)
        {
            throw new IllegalStateException(rejects + " benchmark commands were refused");
        }
    }

    /** Place a bid that rests, then cancel it. */
    @Benchmark
    @OperationsPerInvocation(2)
    public boolean placeThenCancel()
    {
        final long orderId = id++;
        send(restBid, makerNonce++, orderId);
        cancelBid.buffer.putLong(MessageHeaderEncoder.ENCODED_LENGTH + CancelEncoder.orderIdEncodingOffset() + 24,
            orderId, ByteOrder.BIG_ENDIAN);
        return send(cancelBid, makerNonce++, id++);
    }

    /** An ask rests, an IOC bid takes it: one trade, both orders done. */
    @Benchmark
    @OperationsPerInvocation(2)
    public boolean restThenMatch()
    {
        send(askToRest, makerNonce++, id++);
        return send(iocBid, takerNonce++, id++);
    }

    /** A price amend: out of the queue and back in at the other price (priority lost). */
    @Benchmark
    public boolean amendPrice()
    {
        return send((nonce++ & 1) == 0 ? amendUp : amendDown, makerNonce++, id++);
    }

    /** The nonce window alone (spec 3.1), in order. */
    @Benchmark
    public int nonceWindow()
    {
        return NonceWindow.tryConsume(nonceWords, 0, nonce++);
    }

    private boolean send(final Command command, final long commandNonce, final long digest)
    {
        command.buffer.putLong(NONCE, commandNonce, ByteOrder.LITTLE_ENDIAN);
        command.buffer.putLong(DIGEST + 24, digest, ByteOrder.BIG_ENDIAN);
        command.buffer.putLong(TIME, ++now, ByteOrder.LITTLE_ENDIAN);
        return engine.onCommand(command.buffer, 0, command.length);
    }

    private Command encode(final Address account, final Action action)
    {
        final Command command = new Command();
        command.length = encoder.encode(0, now, 1, new ActionPayload(account, 0, null, now, action), new byte[32],
            SignerMatch.ACCOUNT_RAW, account.toBytes(), new byte[20], command.buffer, 0);
        return command;
    }

    private void apply(final Address account, final long commandNonce, final Action action)
    {
        apply(account, commandNonce, action, nextDigest());
    }

    private void apply(final Address account, final long commandNonce, final Action action, final byte[] digest)
    {
        final int length = encoder.encode(0, ++now, 1, new ActionPayload(account, commandNonce, null, now, action),
            digest, SignerMatch.ACCOUNT_RAW, account.toBytes(), new byte[20], setup, 0);
        if (!engine.onCommand(setup, 0, length))
        {
            throw new IllegalStateException("setup command refused");
        }
    }

    private byte[] nextDigest()
    {
        final byte[] digest = new byte[32];
        digest[0] = 1; // setup ids live apart from the benchmark's counter ids
        new UnsafeBuffer(digest).putLong(24, id++, ByteOrder.BIG_ENDIAN);
        return digest;
    }
}
