package io.venue.engine.nonce;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static io.venue.engine.nonce.NonceWindow.ACCEPTED;
import static io.venue.engine.nonce.NonceWindow.BELOW_FLOOR;
import static io.venue.engine.nonce.NonceWindow.OUTSIDE_WINDOW;
import static io.venue.engine.nonce.NonceWindow.REPLAYED;
import static io.venue.engine.nonce.NonceWindow.WORDS;
import static io.venue.engine.nonce.NonceWindow.floor;
import static io.venue.engine.nonce.NonceWindow.nextUsable;
import static io.venue.engine.nonce.NonceWindow.tryConsume;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every row of spec 3.1, the edges of the u64 range, and a model check.
 */
class NonceWindowTest
{
    private final long[] words = new long[WORDS];

    private int consume(final long nonce)
    {
        return tryConsume(words, 0, nonce);
    }

    @Test
    void belowFloorIsPermanentAndChangesNothing()
    {
        words[0] = 10;
        assertEquals(BELOW_FLOOR, consume(9));
        assertEquals(BELOW_FLOOR, consume(0));
        assertEquals(10, floor(words, 0));
        assertEquals(ACCEPTED, consume(10));
        assertEquals(BELOW_FLOOR, consume(10), "a consumed nonce under the advanced floor is below it");
    }

    @Test
    void atOrAboveFloorPlusWidthIsOutsideTheWindow()
    {
        assertEquals(OUTSIDE_WINDOW, consume(256));
        assertEquals(OUTSIDE_WINDOW, consume(-1L));
        assertEquals(ACCEPTED, consume(255));
        assertEquals(0, floor(words, 0), "a gap at the bottom keeps the floor");
        assertEquals(OUTSIDE_WINDOW, consume(256), "still outside until the gap is filled");
    }

    @Test
    void replayIsRefusedAndChangesNothing()
    {
        assertEquals(ACCEPTED, consume(5));
        final long[] before = words.clone();
        assertEquals(REPLAYED, consume(5));
        assertEquals(List.of(before[0], before[1]), List.of(words[0], words[1]));
    }

    @Test
    void outOfOrderNoncesAdvanceTheFloorOverTheContiguousPrefix()
    {
        for (long n = 1; n < 200; n++)
        {
            assertEquals(ACCEPTED, consume(n));
        }
        assertEquals(0, floor(words, 0));
        assertEquals(200, nextUsable(words, 0));
        assertEquals(ACCEPTED, consume(0));
        assertEquals(200, floor(words, 0));
        assertEquals(ACCEPTED, consume(455), "the window moved with the floor");
        assertEquals(OUTSIDE_WINDOW, consume(456));
    }

    @Test
    void fillingTheWholeWindowMovesTheFloorByTheWidth()
    {
        for (long n = 255; n >= 0; n--)
        {
            assertEquals(ACCEPTED, consume(n));
        }
        assertEquals(256, floor(words, 0));
        assertEquals(0, words[1] | words[2] | words[3] | words[4]);
    }

    @Test
    void noncesAboveTheSignedRangeWork()
    {
        words[0] = Long.MAX_VALUE - 2; // 9223372036854775805
        assertEquals(ACCEPTED, consume(Long.MAX_VALUE + 10)); // 9223372036854775817 as u64
        assertEquals(ACCEPTED, consume(Long.MAX_VALUE - 2));
        assertEquals(Long.MAX_VALUE - 1, floor(words, 0));
        assertEquals(BELOW_FLOOR, consume(5));
    }

    @Test
    void consumingTheTopNonceExhaustsTheAccountWithoutWrapping()
    {
        words[0] = -3L; // 2^64 - 3
        assertEquals(ACCEPTED, consume(-2L));
        assertEquals(-1L, nextUsable(words, 0), "one above the highest consumed");
        assertEquals(ACCEPTED, consume(-1L));
        assertEquals(-3L, floor(words, 0));
        assertEquals(ACCEPTED, consume(-3L));
        assertEquals(-1L, floor(words, 0));
        assertEquals(REPLAYED, consume(-1L));
        assertEquals(BELOW_FLOOR, consume(0));
        assertEquals(BELOW_FLOOR, consume(-2L));
    }

    @Test
    void nextUsableIsTheFloorWhenNothingAboveItIsConsumed()
    {
        words[0] = 77;
        assertEquals(77, nextUsable(words, 0));
        consume(80);
        assertEquals(81, nextUsable(words, 0));
        consume(77 + 255);
        assertEquals(77, nextUsable(words, 0), "the top of the window is used: fill the gap at the floor");
    }

    @Property(tries = 300)
    void agreesWithASetModel(@ForAll("streams") final long[] offsets, @ForAll("starts") final long start)
    {
        final long[] state = new long[WORDS];
        state[0] = start;
        final TreeSet<Long> consumed = new TreeSet<>(Long::compareUnsigned);
        long floor = start;
        for (final long offset : offsets)
        {
            final long nonce = start + offset;
            final int expected;
            if (Long.compareUnsigned(nonce, floor) < 0)
            {
                expected = BELOW_FLOOR;
            }
            else if (Long.compareUnsigned(nonce - floor, 256) >= 0)
            {
                expected = OUTSIDE_WINDOW;
            }
            else if (consumed.contains(nonce))
            {
                expected = REPLAYED;
            }
            else
            {
                expected = ACCEPTED;
                consumed.add(nonce);
                while (consumed.contains(floor) && floor != -1L)
                {
                    floor++;
                }
            }
            assertEquals(expected, tryConsume(state, 0, nonce), "nonce offset " + offset);
            assertEquals(floor, state[0]);
        }
    }

    @Provide
    Arbitrary<long[]> streams()
    {
        return Arbitraries.longs().between(-20, 600).array(long[].class).ofMinSize(1).ofMaxSize(800);
    }

    @Provide
    Arbitrary<Long> starts()
    {
        return Arbitraries.of(0L, 1_000L, Long.MAX_VALUE - 300, -1000L);
    }
}
