package io.venue.engine.index;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FixedKeyIndexTest
{
    @Test
    void putGetRemoveOnThreeLongKeys()
    {
        final FixedKeyIndex index = new FixedKeyIndex(3, 4);
        final long[] key = {1, 2, 3};
        assertEquals(FixedKeyIndex.MISSING, index.get(key, 0));
        assertEquals(FixedKeyIndex.MISSING, index.put(key, 0, 7));
        assertEquals(7, index.get(key, 0));
        assertEquals(7, index.put(key, 0, 8));
        assertEquals(1, index.size());
        assertEquals(8, index.remove(key, 0));
        assertEquals(FixedKeyIndex.MISSING, index.get(key, 0));
        assertEquals(0, index.size());
    }

    /** Few distinct key values force long probe runs, collisions, wrap-around and backward shifts. */
    @Property(tries = 300)
    void agreesWithAHashMap(@ForAll @IntRange(min = 1, max = 4) final int keyLongs, @ForAll final long seed)
    {
        final Random random = new Random(seed);
        final FixedKeyIndex index = new FixedKeyIndex(keyLongs, 2);
        final Map<List<Long>, Integer> model = new HashMap<>();
        final long[] key = new long[keyLongs];
        for (int step = 0; step < 2_000; step++)
        {
            final Long[] boxed = new Long[keyLongs];
            for (int i = 0; i < keyLongs; i++)
            {
                key[i] = random.nextInt(40) - 5;
                boxed[i] = key[i];
            }
            final List<Long> modelKey = List.of(boxed);
            switch (random.nextInt(3))
            {
                case 0 ->
                {
                    final int value = random.nextInt(1_000);
                    final Integer previous = model.put(modelKey, value);
                    assertEquals(previous == null ? FixedKeyIndex.MISSING : previous, index.put(key, 0, value));
                }
                case 1 ->
                {
                    final Integer previous = model.remove(modelKey);
                    assertEquals(previous == null ? FixedKeyIndex.MISSING : previous, index.remove(key, 0));
                }
                default ->
                {
                    final Integer value = model.get(modelKey);
                    assertEquals(value == null ? FixedKeyIndex.MISSING : value, index.get(key, 0));
                }
            }
            assertEquals(model.size(), index.size());
        }
    }
}
