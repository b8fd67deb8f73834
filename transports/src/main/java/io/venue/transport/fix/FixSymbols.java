package io.venue.transport.fix;

/**
 * The instrument of a FIX order (docs/FIX.md, "Instruments"): Symbol(55) or SecurityID(48) is the market id in
 * decimal (1 to 10 digits, no leading zero, at most 4294967295) for a spot market, followed by {@code .YES} or
 * {@code .NO} for a book of an outcome market: {@code 7}, {@code 12.YES}. The engine decides whether the market is
 * listed and of that kind (UNKNOWN_MARKET, BOOK_MISMATCH). Allocation free to parse.
 */
final class FixSymbols
{
    /** Not a symbol of that form. */
    static final long MALFORMED = -1;
    static final int SPOT = 0;
    static final int YES = 1;
    static final int NO = 2;

    private FixSymbols()
    {
    }

    /** {@code market << 2 | book} (book: {@link #SPOT}, {@link #YES}, {@link #NO}), or {@link #MALFORMED}. */
    static long parse(final CharSequence symbol)
    {
        final int length = symbol.length();
        int at = 0;
        long market = 0;
        while (at < length && symbol.charAt(at) >= '0' && symbol.charAt(at) <= '9')
        {
            if (at == 10 || (at == 1 && market == 0))
            {
                return MALFORMED;
            }
            market = market * 10 + (symbol.charAt(at) - '0');
            at++;
        }
        if (at == 0 || market > 0xFFFF_FFFFL)
        {
            return MALFORMED;
        }
        if (at == length)
        {
            return market << 2 | SPOT;
        }
        final int rest = length - at;
        if (rest == 4 && symbol.charAt(at) == '.' && symbol.charAt(at + 1) == 'Y' && symbol.charAt(at + 2) == 'E' &&
            symbol.charAt(at + 3) == 'S')
        {
            return market << 2 | YES;
        }
        if (rest == 3 && symbol.charAt(at) == '.' && symbol.charAt(at + 1) == 'N' && symbol.charAt(at + 2) == 'O')
        {
            return market << 2 | NO;
        }
        return MALFORMED;
    }

    static long market(final long parsed)
    {
        return parsed >>> 2;
    }

    static int book(final long parsed)
    {
        return (int)(parsed & 3);
    }

    /** The symbol of a market's book, as reports carry it. */
    static String text(final long market, final int book)
    {
        return book == YES ? market + ".YES" : book == NO ? market + ".NO" : Long.toString(market);
    }
}
