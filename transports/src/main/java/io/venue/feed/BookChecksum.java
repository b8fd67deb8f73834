package io.venue.feed;

import java.util.zip.CRC32;

/**
 * The book checksum clients verify their copy with: CRC-32 (IEEE) of the ASCII text of the best
 * {@value #DEPTH} bid levels best first, {@code |}, the best {@value #DEPTH} ask levels best first, each level
 * {@code price:qty} in decimal micro-units, levels joined by {@code ,}. An empty book's text is {@code |}.
 */
public final class BookChecksum
{
    public static final int DEPTH = 25;

    private final JsonBytes text = new JsonBytes(1024);
    private final CRC32 crc = new CRC32();

    /** The checksum of the book as it stands. */
    public long of(final L2Book book)
    {
        write(book, text.reset());
        crc.reset();
        text.updateCrc(crc);
        return crc.getValue();
    }

    /** The text the checksum is computed over (for documentation and tests). */
    public static String text(final L2Book book)
    {
        final JsonBytes out = new JsonBytes();
        write(book, out);
        return out.toString();
    }

    private static void write(final L2Book book, final JsonBytes out)
    {
        side(book.bids(), out);
        out.ch('|');
        side(book.asks(), out);
    }

    private static void side(final Levels levels, final JsonBytes out)
    {
        final int n = Math.min(DEPTH, levels.count());
        for (int i = 0; i < n; i++)
        {
            if (i > 0)
            {
                out.ch(',');
            }
            out.num(levels.price(i)).ch(':').num(levels.qty(i));
        }
    }
}
