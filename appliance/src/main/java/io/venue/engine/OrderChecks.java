package io.venue.engine;

import io.venue.engine.index.FixedKeyIndex;
import org.agrona.DirectBuffer;

/**
 * What the checks of a place read about credit and open orders: the live state ({@link #live}), or, while a
 * pipeline admits a command, its group's view ({@link GroupView}).
 */
interface OrderChecks
{
    long available(int account, int asset);

    long locked(int account, int asset);

    /** Available plus locked: what a reduce-only ask may sell. */
    long holding(int account, int asset);

    int openOrders(int account);

    int openOrders(int account, int market);

    /** The book of the order id at {@code buffer[offset..)}, or {@code FixedKeyIndex.MISSING}. */
    int bookOf(DirectBuffer buffer, int offset);

    /**
     * The book of the account's order with the client order id at {@code buffer[offset..)}, or
     * {@code FixedKeyIndex.MISSING}.
     */
    int clientBookOf(int account, DirectBuffer buffer, int offset);

    /** What a book's open bids (or asks) hold. */
    long reservedIn(int book, boolean bids);

    /** The engine's state as it is. */
    static OrderChecks live(final ShardState state)
    {
        return new OrderChecks()
        {
            public long available(final int account, final int asset)
            {
                return state.ledger.available(account, asset);
            }

            public long locked(final int account, final int asset)
            {
                return state.ledger.locked(account, asset);
            }

            public long holding(final int account, final int asset)
            {
                return state.ledger.available(account, asset) + state.ledger.locked(account, asset);
            }

            public int openOrders(final int account)
            {
                return state.orders.openOrders(account);
            }

            public int openOrders(final int account, final int market)
            {
                return state.orders.openOrders(account, market);
            }

            public int bookOf(final DirectBuffer buffer, final int offset)
            {
                return book(state.orders.find(buffer, offset));
            }

            public int clientBookOf(final int account, final DirectBuffer buffer, final int offset)
            {
                return book(state.orders.findByClientId(account, buffer, offset));
            }

            public long reservedIn(final int book, final boolean bids)
            {
                return state.orders.reservedIn(book, bids);
            }
        };
    }

    /** The book of a handle, or MISSING for MISSING. */
    static int book(final int handle)
    {
        return handle == FixedKeyIndex.MISSING ? handle : Orders.bookOf(handle);
    }
}
