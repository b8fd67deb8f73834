package io.venue.engine.book;

import io.venue.action.Side;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The levels' search agrees with {@link Arrays#binarySearch} over the same keys, on both sides, for prices at a
 * level, between levels, below the worst and above the best, with any number of levels (0, 1, not a power of two).
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
}
