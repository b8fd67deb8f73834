package io.venue.feed;

/** A market as its {@code MarketCreated} listed it: a spot market has one book, an outcome market YES and NO. */
final class Market
{
    final long id;
    final boolean outcome;
    final MarketBook[] books = new MarketBook[3];

    Market(final long id, final boolean outcome, final int windowFrames, final long windowBytes)
    {
        this.id = id;
        this.outcome = outcome;
        if (outcome)
        {
            books[ChannelName.YES] = new MarketBook(id, ChannelName.YES, windowFrames, windowBytes);
            books[ChannelName.NO] = new MarketBook(id, ChannelName.NO, windowFrames, windowBytes);
        }
        else
        {
            books[ChannelName.SPOT] = new MarketBook(id, ChannelName.SPOT, windowFrames, windowBytes);
        }
    }

    /** The book, or null when the market has no such book (YES of a spot market, spot of an outcome one). */
    MarketBook book(final int book)
    {
        return book >= 0 && book < books.length ? books[book] : null;
    }
}
