package io.venue.entry;

import org.agrona.DirectBuffer;

/**
 * The orders of one binary request, as a lane decoded them: each one's bytes in the typed order's layout within one
 * buffer, and the request's market. A view: nothing is copied until the verifier pool's ring takes an order.
 */
public interface TypedOrders
{
    /** How many orders the request holds. */
    int size();

    DirectBuffer buffer();

    /** Where order {@code index} starts in {@link #buffer()}. */
    int offset(int index);

    /** The request's market, which a place is for. */
    long market();
}
