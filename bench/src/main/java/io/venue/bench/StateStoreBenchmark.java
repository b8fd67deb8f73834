package io.venue.bench;

import io.venue.engine.state.Balance;
import io.venue.engine.state.BalanceStore;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.NonceWindow;
import io.venue.engine.state.NonceWindowStore;
import io.venue.engine.state.OpenOrder;
import io.venue.engine.state.OpenOrderStore;
import io.venue.engine.state.StateMeta;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The engine's Chronicle Map state, one thread, demo sizing: a read and an in-place update of a nonce window
 * and of a balance, and an open order inserted then removed — in memory and on memory-mapped files. Keys
 * come from a wire-like buffer and cycle over 8192 accounts and orders, so lookups miss the CPU caches
 * roughly as a busy venue would. Run with {@code -prof gc}: the norm allocation per op should be 0.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StateStoreBenchmark
{
    private static final int KEYS = 8192;
    private static final int ADDRESS = 20;
    private static final int ORDER_ID = 32;
    private static final int ASSET = 7;

    @Param({"in-memory", "persisted"})
    public String mode;

    private Path folder;
    private EngineState state;
    private NonceWindowStore nonceWindows;
    private BalanceStore balances;
    private OpenOrderStore openOrders;
    private final NonceWindow window = new NonceWindow();
    private final Balance balance = new Balance();
    private final OpenOrder order = new OpenOrder();
    private final UnsafeBuffer accounts = new UnsafeBuffer(new byte[KEYS * ADDRESS]);
    private final UnsafeBuffer orderIds = new UnsafeBuffer(new byte[KEYS * ORDER_ID]);
    private int next;
    private long sequence;

    @Setup(Level.Trial)
    public void setUp() throws Exception
    {
        final boolean persisted = "persisted".equals(mode);
        folder = persisted ? Files.createTempDirectory("state-bench") : null;
        state = EngineState.open(new EngineState.Context().directory(folder).persisted(persisted));
        nonceWindows = state.nonceWindows();
        balances = state.balances();
        openOrders = state.openOrders();

        final SplittableRandom random = new SplittableRandom(42);
        final byte[] bytes = new byte[ORDER_ID];
        for (int i = 0; i < KEYS; i++)
        {
            random.nextBytes(bytes);
            accounts.putBytes(i * ADDRESS, bytes, 0, ADDRESS);
            random.nextBytes(bytes);
            orderIds.putBytes(i * ORDER_ID, bytes, 0, ORDER_ID);
            nonceWindows.acquire(accounts, i * ADDRESS, window).floor(i);
            balances.acquire(accounts, i * ADDRESS, ASSET, balance).available(1_000_000);
        }
        sequence = state.meta().appliedSequence();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        state.close();
        if (null != folder)
        {
            try (Stream<Path> files = Files.walk(folder))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private int nextKey()
    {
        return next++ & (KEYS - 1);
    }

    @Benchmark
    public long nonceWindowGet()
    {
        final int key = nextKey();
        return nonceWindows.find(accounts, key * ADDRESS, window).floor() + window.word(key & 3);
    }

    /** Acquire and set a bit in place: the gate consuming a nonce. */
    @Benchmark
    public long nonceWindowUpdate()
    {
        final int key = nextKey();
        return nonceWindows.acquire(accounts, key * ADDRESS, window).set(next & 255).floor();
    }

    @Benchmark
    public long balanceGet()
    {
        return balances.find(accounts, nextKey() * ADDRESS, ASSET, balance).available();
    }

    /** Acquire and move credit from available to locked in place: reserving for an order. */
    @Benchmark
    public long balanceUpdate()
    {
        final Balance b = balances.acquire(accounts, nextKey() * ADDRESS, ASSET, balance);
        b.available(b.available() - 1).locked(b.locked() + 1);
        return b.locked();
    }

    /** Insert an order with every field set, then remove it: one rest-and-cancel, two map operations. */
    @Benchmark
    public boolean openOrderInsertRemove()
    {
        final int key = nextKey();
        final int at = key * ORDER_ID;
        openOrders.insert(orderIds, at, order)
            .account(accounts, key * ADDRESS)
            .market(3)
            .book((byte)0)
            .side((byte)1)
            .price(101_000)
            .originalQty(10)
            .remainingQty(10)
            .timeInForce((byte)0)
            .stp((byte)0)
            .expiresAt(0)
            .prioritySequence(key)
            .reservedCredit(1_010_000)
            .clearClientOrderId();
        return openOrders.remove(orderIds, at);
    }

    /** The per-command meta bookkeeping: mark pending, then commit. */
    @Benchmark
    public long metaBeginCommit()
    {
        final StateMeta meta = state.meta();
        final long s = ++sequence;
        meta.beginApply(s);
        meta.commitApplied(s);
        return s;
    }
}
