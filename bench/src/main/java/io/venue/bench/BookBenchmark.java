package io.venue.bench;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.engine.book.MakerDoneReason;
import io.venue.engine.book.MatchListener;
import io.venue.engine.book.OrderBook;
import io.venue.engine.book.PlaceRequest;
import io.venue.engine.book.PlaceResult;
import io.venue.engine.book.TakerDoneReason;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The order book's operations, one at a time, with a listener that only sums what it is told.
 * <p>
 * Place-and-rest, cancel and the one-level match consume what they act on, so each is measured as a batch over a
 * book prepared before the iteration (single-shot mode, the time divided by the batch size); the preparation is
 * allocation-free too, so {@code -prof gc} reports the operations alone. reduceQty and place-then-cancel are
 * steady states and run in average-time mode.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class BookBenchmark
{
    private static final int LEVELS = 1_000;
    private static final long TICK = 10_000;
    private static final long MID = 500_000_000;
    private static final int BATCH = 100_000;
    private static final int MATCH_BATCH = 50_000;
    private static final int ORDERS_PER_LEVEL = 4;
    private static final long LOT = 1_000_000;

    /** Sums the callbacks so none is dead code; no allocation. */
    public static final class SummingListener implements MatchListener
    {
        public long sum;
        public int lastRested = OrderBook.NULL_SLOT;

        @Override
        public void onTrade(
            final int makerSlot, final int makerAccount, final int takerAccount, final long price, final long qty,
            final long makerRemainingAfter)
        {
            sum += makerSlot + price + qty + makerRemainingAfter;
        }

        @Override
        public void onMakerDone(final int slot, final MakerDoneReason reason)
        {
            sum += slot + reason.ordinal();
        }

        @Override
        public void onTakerRested(final int slot)
        {
            lastRested = slot;
        }

        @Override
        public void onTakerDone(final TakerDoneReason reason, final long filledQty, final long remainingQty)
        {
            sum += reason.ordinal() + filledQty + remainingQty;
        }

        @Override
        public void onLevelChanged(final Side side, final long price, final long newLevelQty, final int orderCount)
        {
            sum += price + newLevelQty + orderCount;
        }
    }

    /** A book, a request and a sequence that only grows (the book refuses a sequence that goes back). */
    abstract static class BookState
    {
        final SummingListener listener = new SummingListener();
        final PlaceRequest request = new PlaceRequest();
        OrderBook book;
        long sequence = 1;

        PlaceResult place(
            final long id, final int account, final Side side, final long price, final long qty, final TimeInForce tif)
        {
            request.reset()
                .orderId(0x0123_4567_89ab_cdefL, id, ~id, id * 31)
                .accountIndex(account)
                .side(side)
                .price(price)
                .qty(qty)
                .timeInForce(tif)
                .stpMode(StpMode.CANCEL_TAKER)
                .sequence(sequence++)
                .nowMs(1_000);
            return book.place(request, listener);
        }

        void clear()
        {
            for (int slot = 0; slot < book.orderCapacity(); slot++)
            {
                book.cancel(slot, listener);
            }
        }

        /** {@code levels} levels a side around MID with {@code perLevel} orders each, from other accounts. */
        void seed(final int levels, final int perLevel)
        {
            for (int level = levels - 1; level >= 0; level--)
            {
                for (int i = 0; i < perLevel; i++)
                {
                    place(level * 100 + i, 1 + i, Side.BID, MID - TICK - level * TICK, LOT, TimeInForce.GTC);
                    place(level * 100 + i + 50, 1 + i, Side.ASK, MID + TICK + level * TICK, LOT, TimeInForce.GTC);
                }
            }
        }
    }

    /** 20 levels a side, 4 orders each; each iteration rests BATCH bids over the top 20 bid levels. */
    @State(Scope.Thread)
    public static class RestState extends BookState
    {
        @Setup(Level.Trial)
        public void create()
        {
            book = new OrderBook(BATCH + 1_000, LEVELS);
        }

        @Setup(Level.Iteration)
        public void prepare()
        {
            clear();
            seed(20, ORDERS_PER_LEVEL);
        }
    }

    /** BATCH bids resting over 100 levels; cancelled in a scattered order. */
    @State(Scope.Thread)
    public static class CancelState extends BookState
    {
        final int[] slots = new int[BATCH];

        @Setup(Level.Trial)
        public void create()
        {
            book = new OrderBook(BATCH + 1_000, LEVELS);
        }

        @Setup(Level.Iteration)
        public void prepare()
        {
            clear();
            seed(20, ORDERS_PER_LEVEL);
            for (int i = 0; i < BATCH; i++)
            {
                place(1_000_000 + i, 10, Side.BID, MID - TICK - (i % 100) * TICK, LOT, TimeInForce.GTC);
                // 7919 is prime and does not divide BATCH, so i * 7919 mod BATCH visits every order once.
                slots[(int)((i * 7919L) % BATCH)] = listener.lastRested;
            }
        }
    }

    /**
     * MATCH_BATCH ask levels of 4 orders each (a book built for the batch; matching never searches the levels, it
     * takes the best, which is the last of the arrays); each operation is an IOC bid that takes the best level.
     */
    @State(Scope.Thread)
    public static class MatchState extends BookState
    {
        @Setup(Level.Trial)
        public void create()
        {
            book = new OrderBook(MATCH_BATCH * ORDERS_PER_LEVEL + 1_000, MATCH_BATCH + 10);
        }

        @Setup(Level.Iteration)
        public void prepare()
        {
            clear();
            // Worst first, so each new level is the best and nothing shifts.
            for (int level = MATCH_BATCH - 1; level >= 0; level--)
            {
                for (int i = 0; i < ORDERS_PER_LEVEL; i++)
                {
                    place(level * 8L + i, 1 + i, Side.ASK, MID + TICK + level * TICK, LOT, TimeInForce.GTC);
                }
            }
        }
    }

    /** 1,000 large resting orders in 20 levels a side (by the seed), reduced one lot at a time in turn. */
    @State(Scope.Thread)
    public static class ReduceState extends BookState
    {
        final int[] slots = new int[1_000];
        int next;

        @Setup(Level.Trial)
        public void create()
        {
            book = new OrderBook(10_000, LEVELS);
            seed(20, ORDERS_PER_LEVEL);
            for (int i = 0; i < slots.length; i++)
            {
                place(5_000_000 + i, 10, Side.ASK, MID + TICK + (i % 20) * TICK, 1_000_000_000_000_000L,
                    TimeInForce.GTC);
                slots[i] = listener.lastRested;
            }
        }
    }

    /** A book of 20 levels a side, 4 orders each, in which one order comes and goes. */
    @State(Scope.Thread)
    public static class SteadyState extends BookState
    {
        int next;

        @Setup(Level.Trial)
        public void create()
        {
            book = new OrderBook(10_000, LEVELS);
            seed(20, ORDERS_PER_LEVEL);
        }
    }

    /** A GTC bid that rests at the back of one of the top 20 bid levels. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long placeAndRest(final RestState state)
    {
        for (int i = 0; i < BATCH; i++)
        {
            state.place(2_000_000 + i, 10, Side.BID, MID - TICK - (i % 20) * TICK, LOT, TimeInForce.GTC);
        }
        return state.listener.sum + state.listener.lastRested;
    }

    /** Cancel of a resting order among 100,000 in 100 levels. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long cancel(final CancelState state)
    {
        final OrderBook book = state.book;
        final SummingListener listener = state.listener;
        final int[] slots = state.slots;
        for (int i = 0; i < BATCH; i++)
        {
            book.cancel(slots[i], listener);
        }
        return listener.sum;
    }

    /** An IOC bid that takes the whole best ask level: 4 trades, 4 makers done, the level removed. */
    @Benchmark
    @OperationsPerInvocation(MATCH_BATCH)
    public long matchOneLevel(final MatchState state)
    {
        for (int i = 0; i < MATCH_BATCH; i++)
        {
            state.place(9_000_000 + i, 20, Side.BID, MID + TICK + i * TICK, ORDERS_PER_LEVEL * LOT, TimeInForce.IOC);
        }
        return state.listener.sum;
    }

    /** reduceQty by one lot on one of 1,000 resting orders (priority kept, level total updated). */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    public boolean reduceQty(final ReduceState state)
    {
        final int slot = state.slots[state.next];
        state.next = state.next + 1 == state.slots.length ? 0 : state.next + 1;
        return state.book.reduceQty(slot, state.book.remainingOf(slot) - LOT, state.listener);
    }

    /** Steady-state cross-check: a GTC bid rests inside the top levels and is cancelled again. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    public boolean placeThenCancel(final SteadyState state)
    {
        final int i = state.next++;
        state.place(3_000_000 + i, 10, Side.BID, MID - TICK - (i & 15) * TICK, LOT, TimeInForce.GTC);
        return state.book.cancel(state.listener.lastRested, state.listener);
    }
}
