package io.venue.engine.state;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Random sequences of balance operations read back exactly as a plain HashMap model says. */
class BalanceModelProperties
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

    @Property(tries = 60)
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
            Arbitraries.longs().between(-1_000_000_000_000L, 1_000_000_000_000L))
            .as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(200);
    }
}
