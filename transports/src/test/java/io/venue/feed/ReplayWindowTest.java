package io.venue.feed;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class ReplayWindowTest
{
    private static FeedFrame frame(final long seq, final int bytes)
    {
        return new FeedFrame("book.1", seq, false, new byte[bytes]);
    }

    @Test
    void keepsTheNewestFramesWithinItsFrameAndByteBounds()
    {
        final ReplayWindow window = new ReplayWindow(4, 100);
        for (long seq = 1; seq <= 6; seq++)
        {
            window.add(frame(seq, 10));
        }
        assertEquals(4, window.count(), "the frame bound");
        assertEquals(3, window.oldestSeq());
        assertEquals(40, window.bytes());
        final FeedFrame big = frame(7, 75);
        window.add(big);
        assertEquals(3, window.count(), "the byte bound: 10 + 10 + 75 fit, 10 + 10 + 10 + 75 do not");
        assertEquals(5, window.oldestSeq());
        assertEquals(95, window.bytes());
        assertSame(big, window.get(7));
        window.add(frame(8, 500));
        assertEquals(1, window.count(), "a frame larger than the bound is kept alone");
        assertEquals(8, window.oldestSeq());
    }

    @Test
    void aPrivateIndexKeepsEveryIntervalthFrameAndItsNewestEntries()
    {
        final PrivateIndex index = new PrivateIndex(10, 3);
        for (long seq = 1; seq <= 45; seq++)
        {
            index.onFrame(seq, 1_000 + seq, 2_000 + seq);
        }
        assertEquals(45, index.lastSeq());
        assertEquals(21, index.oldestSeq(), "entries 21, 31, 41 remain");
        assertEquals(-1, index.entryFor(20));
        final int entry = index.entryFor(39);
        assertEquals(31, index.seq(entry));
        assertEquals(1_031, index.excerpt(entry));
        assertEquals(2_031, index.command(entry));
        assertEquals(41, index.seq(index.entryFor(45)));
    }
}
