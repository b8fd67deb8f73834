package io.venue.feed;

/** An open order as the events describe it, for the account read. */
final class OpenOrder
{
    final ByteKey id;
    /** Where it sorts among the account's open orders: the command and event that accepted it last. */
    final long age;
    final long market;
    final int book;
    final int side;
    long price;
    long qty;
    long remaining;

    OpenOrder(final ByteKey id, final long age, final long market, final int book, final int side)
    {
        this.id = id;
        this.age = age;
        this.market = market;
        this.book = book;
        this.side = side;
    }
}
