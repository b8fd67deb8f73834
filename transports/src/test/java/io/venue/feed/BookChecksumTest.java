package io.venue.feed;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BookChecksumTest
{
    private static long crc(final String text)
    {
        final CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.US_ASCII));
        return crc.getValue();
    }

    @Test
    void checksumIsCrc32OfBestBidsBarBestAsks()
    {
        final L2Book book = new L2Book();
        book.set(0, 990_000, 2_000_000);
        book.set(0, 1_000_000, 1_500_000);
        book.set(1, 1_020_000, 3_000_000);
        book.set(1, 1_010_000, 500_000);
        book.set(0, 980_000, 7_000);
        book.set(0, 980_000, 0);

        final String text = "1000000:1500000,990000:2000000|1010000:500000,1020000:3000000";
        assertEquals(text, BookChecksum.text(book));
        assertEquals(crc(text), new BookChecksum().of(book));
        // the worked example of docs/WEBSOCKET.md
        assertEquals(2_995_367_549L, crc(text), "the documented example's value");
    }

    @Test
    void onlyTheBest25LevelsOfASideCount()
    {
        final L2Book book = new L2Book();
        final StringBuilder bids = new StringBuilder();
        for (int i = 0; i < 30; i++)
        {
            book.set(0, 1_000 - i, i + 1);
            if (i < 25)
            {
                bids.append(i == 0 ? "" : ",").append(1_000 - i).append(':').append(i + 1);
            }
        }
        assertEquals(bids + "|", BookChecksum.text(book));
        assertEquals(crc(bids + "|"), new BookChecksum().of(book));
    }

    @Test
    void anEmptyBookIsTheBarAlone()
    {
        assertEquals("|", BookChecksum.text(new L2Book()));
        assertEquals(crc("|"), new BookChecksum().of(new L2Book()));
    }
}
