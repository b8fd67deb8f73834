package io.venue.engine.state;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Random sequences of balance operations read back exactly as a plain HashMap model says. Amounts reach the limits of
 * an i64 (both signs, the sign bit, the 32-bit boundaries, the values next to each limit), and credits and locks on
 * top of them cross those limits, so a value that lost bits (kept in an int, or read back with another order or sign)
 * or a copy that did not follow the arithmetic would show. The store keeps what it is given: an amount that wraps past
 * a limit wraps in the model too, with the same Java arithmetic (the engine, not the store, keeps balances from
 * overflowing: see ENGINE.md, each asset's total supply).
 */
class BalanceModelPropertyTest
{
    private static final int ACCOUNTS = 12;
    private static final int ASSETS = 4;

    private EngineState state;

    @BeforeProperty
    void open() throws Exception
    {
        state = EngineState.open(new EngineState.Context().persisted(false).sizeFor(1_000, 1_000));
    }

    @AfterProperty
    void close()
    {
        state.close();
    }

    enum Kind
    {
        CREDIT, LOCK, SET, REMOVE, READ
    }

    record Op(Kind kind, int account, int asset, long amount)
    {
    }

    record Key(int account, int asset)
    {
    }

    // the amounts' own edges are drawn on purpose (amounts()): every try is a whole random sequence
    @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
    void balancesMatchTheModel(@ForAll("ops") final List<Op> ops)
    {
        final BalanceStore store = state.balances();
        final Map<Key, long[]> model = new HashMap<>();
        // leftovers of an earlier try would fool the model
        for (int a = 0; a < ACCOUNTS; a++)
        {
            for (int s = 0; s < ASSETS; s++)
            {
                store.remove(TestBytes.address(a), asset(s));
            }
        }

        final Balance balance = new Balance();
        final Balance other = new Balance();
        for (final Op op : ops)
        {
            final byte[] account = TestBytes.address(op.account());
            final int asset = asset(op.asset());
            final Key key = new Key(op.account(), op.asset());
            switch (op.kind())
            {
                case CREDIT:
                    store.acquire(account, asset, balance).available(balance.available() + op.amount());
                    model.computeIfAbsent(key, k -> new long[2])[0] += op.amount();
                    break;
                case LOCK:
                    store.acquire(account, asset, balance)
                        .available(balance.available() - op.amount())
                        .locked(balance.locked() + op.amount());
                    final long[] entry = model.computeIfAbsent(key, k -> new long[2]);
                    entry[0] -= op.amount();
                    entry[1] += op.amount();
                    break;
                case SET:
                    store.acquire(account, asset, balance).available(op.amount()).locked(-op.amount());
                    model.put(key, new long[] {op.amount(), -op.amount()});
                    break;
                case REMOVE:
                    assertEquals(model.remove(key) != null, store.remove(account, asset));
                    break;
                case READ:
                    final long[] expected = model.get(key);
                    if (null == expected)
                    {
                        assertNull(store.find(account, asset, other));
                    }
                    else
                    {
                        assertNotNull(store.find(account, asset, other));
                        assertEquals(expected[0], other.available());
                        assertEquals(expected[1], other.locked());
                    }
                    break;
                default:
                    throw new IllegalStateException(Objects.toString(op.kind()));
            }
        }

        assertEquals(model.size(), store.size());
        for (int a = 0; a < ACCOUNTS; a++)
        {
            for (int s = 0; s < ASSETS; s++)
            {
                final long[] expected = model.get(new Key(a, s));
                final Balance found = store.find(TestBytes.address(a), asset(s), other);
                if (null == expected)
                {
                    assertNull(found);
                }
                else
                {
                    assertNotNull(found);
                    assertEquals(expected[0], found.available(), "available " + a + "/" + s);
                    assertEquals(expected[1], found.locked(), "locked " + a + "/" + s);
                }
            }
        }
    }

    // asset ids spread over the whole u32 range, high bit included
    private static int asset(final int index)
    {
        return index * 0x5555_5555 + 1;
    }

    @Provide
    Arbitrary<List<Op>> ops()
    {
        final Arbitrary<Op> op = Combinators.combine(
            Arbitraries.of(Kind.class),
            Arbitraries.integers().between(0, ACCOUNTS - 1),
            Arbitraries.integers().between(0, ASSETS - 1),
            amounts())
            .as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(200);
    }

    /**
     * Amounts of every size: the limits themselves and the values around them (a credit of one on MAX_VALUE wraps), the
     * boundaries of 32 and 53 bits, small amounts as trading moves them, and any long at all.
     */
    static Arbitrary<Long> amounts()
    {
        final Arbitrary<Long> edges = Arbitraries.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L,
            Long.MAX_VALUE - 1, Long.MAX_VALUE, (long)Integer.MIN_VALUE, (long)Integer.MAX_VALUE, 1L << 31, 1L << 32,
            (1L << 32) - 1, -(1L << 32), 1L << 53, -(1L << 53), 1L << 62, -(1L << 62));
        final Arbitrary<Long> nearMax = Arbitraries.longs().between(0, 1_000_000).map(d -> Long.MAX_VALUE - d);
        final Arbitrary<Long> nearMin = Arbitraries.longs().between(0, 1_000_000).map(d -> Long.MIN_VALUE + d);
        final Arbitrary<Long> halves = Arbitraries.longs().between(0, 1_000_000)
            .flatMap(d -> Arbitraries.of(Long.MAX_VALUE / 2 + d, Long.MIN_VALUE / 2 - d));
        return Arbitraries.frequencyOf(List.of(
            Tuple.of(3, edges),
            Tuple.of(3, nearMax),
            Tuple.of(3, nearMin),
            Tuple.of(2, halves),
            Tuple.of(3, Arbitraries.longs().between(-1_000_000_000_000L, 1_000_000_000_000L)),
            Tuple.of(2, Arbitraries.longs())));
    }
}
