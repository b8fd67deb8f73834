package io.venue.engine.book;

import io.venue.action.Side;
import io.venue.action.TimeInForce;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Assertions;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The levels' search agrees with {@link Arrays#binarySearch} over the same keys, on both sides, for prices at a
 * level, between levels, below the worst and above the best, with any number of levels (0, 1, not a power of two).
 * Each level's queue, count and total stay with its price while other levels open and close around it and level
 * numbers are reused.
 */
class PriceLevelsTest
{
    @Property(tries = 500)
    void theSearchFindsEachLevelAndEachInsertionPoint(
        @ForAll @Size(max = 300) final List<@LongRange(min = 1, max = 2_000) Long> prices,
        @ForAll @Size(min = 1, max = 50) final List<@LongRange(min = 0, max = 2_001) Long> queries)
    {
        for (final Side side : Side.values())
        {
            final PriceLevels levels = new PriceLevels(side, 1_000, new OrderPool(4, RestingLimit.unlimited()));
            final TreeSet<Long> keys = new TreeSet<>();
            for (final long price : prices)
            {
                final int index = levels.indexOf(price);
                if (index < 0)
                {
                    levels.insertAt(-index - 1, price);
                    keys.add(side == Side.BID ? price : -price);
                }
            }
            final long[] reference = keys.stream().mapToLong(Long::longValue).toArray();
            assertEquals(reference.length, levels.size());
            for (final long price : queries)
            {
                assertEquals(Arrays.binarySearch(reference, side == Side.BID ? price : -price), levels.indexOf(price),
                    side + " price " + price + " over " + reference.length + " levels");
            }
            for (final long price : prices)
            {
                assertEquals(Arrays.binarySearch(reference, side == Side.BID ? price : -price), levels.indexOf(price));
            }
        }
    }

    /** Random joins and leaves against a model: price to the FIFO of (slot, quantity) resting there. */
    @Property(tries = 200)
    void eachLevelKeepsItsQueueCountAndTotalAsLevelsOpenAndCloseAroundIt(@ForAll final long seed)
    {
        final Random random = new Random(seed);
        for (final Side side : Side.values())
        {
            final OrderPool pool = new OrderPool(400, RestingLimit.unlimited());
            final PriceLevels levels = new PriceLevels(side, 40, pool);
            final TreeMap<Long, ArrayDeque<Integer>> model = new TreeMap<>();
            final PlaceRequest request = new PlaceRequest();
            for (int step = 0; step < 600; step++)
            {
                final long price = 1 + random.nextInt(60);
                final ArrayDeque<Integer> queue = model.get(price);
                if (queue != null && random.nextInt(4) == 0)
                {
                    // an order trades or is reduced in part and stays
                    final Integer[] slots = queue.toArray(new Integer[0]);
                    final int slot = slots[random.nextInt(slots.length)];
                    final long cut = random.nextInt((int)pool.remainingQty(slot));
                    pool.reduceBy(slot, cut);
                    levels.reduceTotal(levels.indexOf(price), cut);
                }
                else if (queue != null && random.nextInt(3) == 0)
                {
                    // an order leaves: the first, the last or one in between; the level closes when it was the last
                    final Integer[] slots = queue.toArray(new Integer[0]);
                    final int slot = slots[random.nextInt(slots.length)];
                    final int index = levels.indexOf(price);
                    levels.unlink(index, slot);
                    queue.remove(slot);
                    pool.release(slot);
                    if (queue.isEmpty())
                    {
                        levels.removeAt(index);
                        model.remove(price);
                    }
                }
                else if (queue != null || model.size() < 40)
                {
                    int index = levels.indexOf(price);
                    if (index < 0)
                    {
                        index = -index - 1;
                        levels.insertAt(index, price);
                        model.put(price, new ArrayDeque<>());
                    }
                    final int slot = pool.allocate(request.reset().side(side).price(price).qty(1 + random.nextInt(100))
                        .timeInForce(TimeInForce.GTC),
                        1 + random.nextInt(100));
                    levels.append(index, slot);
                    model.get(price).add(slot);
                }
                assertSameAsModel(levels, pool, model, side);
            }
            if (model.size() == levels.capacity())
            {
                final int levelsBefore = levels.size();
                Assertions.assertThrows(IllegalStateException.class, () -> levels.insertAt(0, 1_000));
                assertEquals(levelsBefore, levels.size(), "a refused insert changes nothing");
                assertSameAsModel(levels, pool, model, side);
            }
        }
    }

    private static void assertSameAsModel(
        final PriceLevels levels, final OrderPool pool, final TreeMap<Long, ArrayDeque<Integer>> model, final Side side)
    {
        assertEquals(model.size(), levels.size());
        for (final var entry : model.entrySet())
        {
            final int index = levels.indexOf(entry.getKey());
            assertTrue(index >= 0, "level " + entry.getKey());
            assertEquals(entry.getKey(), levels.priceAt(index));
            assertEquals(entry.getValue().size(), levels.countAt(index));
            long total = 0;
            int slot = levels.headAt(index);
            for (final int expected : entry.getValue())
            {
                assertEquals(expected, slot, "queue order at " + entry.getKey());
                total += pool.remainingQty(slot);
                slot = pool.next(slot);
            }
            assertEquals(OrderPool.NULL_SLOT, slot);
            assertEquals(total, levels.totalAt(index));
        }
        // the best level is the last
        if (!model.isEmpty())
        {
            assertEquals(side == Side.BID ? model.lastKey() : model.firstKey(), levels.priceAt(levels.bestIndex()));
        }
    }
}
