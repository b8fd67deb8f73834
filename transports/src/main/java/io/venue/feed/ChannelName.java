package io.venue.feed;

/**
 * A channel's name parsed: {@code book.{market}}, {@code book.{market}.YES|NO}, {@code trades…}, {@code bbo…},
 * {@code status}, and the private {@code orders}, {@code fills}, {@code balances}. Anything else is not a channel
 * ({@link #parse} returns null), so a client's text never reaches the feed's maps unchecked.
 */
public final class ChannelName
{
    /** What a channel carries; the private kinds are an account's own. */
    public enum Kind
    {
        BOOK("book", false),
        TRADES("trades", false),
        BBO("bbo", false),
        STATUS("status", false),
        ORDERS("orders", true),
        FILLS("fills", true),
        BALANCES("balances", true);

        private final String prefix;
        private final boolean isPrivate;

        Kind(final String prefix, final boolean isPrivate)
        {
            this.prefix = prefix;
            this.isPrivate = isPrivate;
        }

        public String prefix()
        {
            return prefix;
        }

        public boolean isPrivate()
        {
            return isPrivate;
        }

        /** Whether its name carries a market (and, for an outcome market, a book). */
        public boolean perBook()
        {
            return this == BOOK || this == TRADES || this == BBO;
        }

        /** The private kinds' position in an account's arrays (0, 1, 2); -1 for a public kind. */
        public int privateIndex()
        {
            return isPrivate ? ordinal() - ORDERS.ordinal() : -1;
        }
    }

    /** The journal's {@code Book} values: spot, YES, NO. */
    public static final int SPOT = 0;
    public static final int YES = 1;
    public static final int NO = 2;

    /** The largest market id: the journal's MarketId is a uint32. */
    public static final long MAX_MARKET = 0xFFFF_FFFFL;

    /** Longer than any valid name ({@code trades.4294967295.YES}); longer text is refused before parsing. */
    private static final int MAX_LENGTH = 32;

    private final Kind kind;
    private final long market;
    private final int book;
    private final String name;

    private ChannelName(final Kind kind, final long market, final int book, final String name)
    {
        this.kind = kind;
        this.market = market;
        this.book = book;
        this.name = name;
    }

    /** The channel named, or null when the text is not a channel name (it is never an exception). */
    public static ChannelName parse(final String text)
    {
        if (null == text || text.isEmpty() || text.length() > MAX_LENGTH)
        {
            return null;
        }
        for (final Kind kind : Kind.values())
        {
            if (!kind.perBook())
            {
                if (text.equals(kind.prefix))
                {
                    return new ChannelName(kind, 0, SPOT, text);
                }
                continue;
            }
            if (text.length() > kind.prefix.length() + 1 && text.startsWith(kind.prefix) &&
                text.charAt(kind.prefix.length()) == '.')
            {
                return perBook(kind, text, kind.prefix.length() + 1);
            }
        }
        return null;
    }

    private static ChannelName perBook(final Kind kind, final String text, final int from)
    {
        final int dot = text.indexOf('.', from);
        final int end = dot < 0 ? text.length() : dot;
        final long market = marketId(text, from, end);
        if (market < 0)
        {
            return null;
        }
        int book = SPOT;
        if (dot >= 0)
        {
            final String suffix = text.substring(dot + 1);
            if ("YES".equals(suffix))
            {
                book = YES;
            }
            else if ("NO".equals(suffix))
            {
                book = NO;
            }
            else
            {
                return null;
            }
        }
        return new ChannelName(kind, market, book, text);
    }

    /** A decimal market id without sign or leading zeros, at most {@link #MAX_MARKET}; -1 otherwise. */
    static long marketId(final String text, final int from, final int end)
    {
        final int digits = end - from;
        if (digits < 1 || digits > 10 || (digits > 1 && text.charAt(from) == '0'))
        {
            return -1;
        }
        long value = 0;
        for (int i = from; i < end; i++)
        {
            final char c = text.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value <= MAX_MARKET ? value : -1;
    }

    /** The name of a per-book channel of {@code kind}. */
    public static String name(final Kind kind, final long market, final int book)
    {
        return kind.prefix + '.' + market + bookSuffix(book);
    }

    /** {@code ""}, {@code ".YES"} or {@code ".NO"}. */
    public static String bookSuffix(final int book)
    {
        return book == YES ? ".YES" : book == NO ? ".NO" : "";
    }

    /** The book of a REST read ({@code null}, {@code YES} or {@code NO}); -1 for anything else. */
    public static int bookOf(final String book)
    {
        if (null == book)
        {
            return SPOT;
        }
        return "YES".equals(book) ? YES : "NO".equals(book) ? NO : -1;
    }

    public Kind kind()
    {
        return kind;
    }

    public long market()
    {
        return market;
    }

    public int book()
    {
        return book;
    }

    public boolean isPrivate()
    {
        return kind.isPrivate;
    }

    /** The name as written (a parsed name is already canonical: no other spelling parses). */
    public String name()
    {
        return name;
    }

    @Override
    public String toString()
    {
        return name;
    }
}
