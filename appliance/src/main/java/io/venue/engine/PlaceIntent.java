package io.venue.engine;

import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.journal.sbe.Book;
import org.agrona.DirectBuffer;

/**
 * One order to place, from a PlaceOrder command or a Batch leg: a reused mutable holder, so placing
 * allocates nothing.
 */
final class PlaceIntent
{
    long marketId;
    Book book;
    Side side;
    long price;
    long qty;
    StpMode stpMode;
    TimeInForce timeInForce;
    boolean isMarket;
    boolean reduceOnly;
    long expiresAt;
    DirectBuffer idBuffer;
    int idOffset;
    boolean withClientId;
    long clientHi;
    long clientLo;

    static Side side(final io.venue.journal.sbe.Side side) // FQN-CLASH: the codec's enum (the action's is imported)
    {
        // FQN-CLASH: the codec's enum (the action's is imported)
        return side == io.venue.journal.sbe.Side.BID ? Side.BID : Side.ASK;
    }

    // FQN-CLASH: the codec's enum (the action's is imported)
    static StpMode stpMode(final io.venue.journal.sbe.StpMode stpMode)
    {
        return switch (stpMode)
        {
            case CANCEL_MAKER -> StpMode.CANCEL_MAKER;
            case CANCEL_TAKER -> StpMode.CANCEL_TAKER;
            case REJECT -> StpMode.REJECT;
            case SKIP_SELF -> StpMode.SKIP_SELF;
            default -> null;
        };
    }

    // FQN-CLASH: the codec's enum (the action's is imported)
    static TimeInForce timeInForce(final io.venue.journal.sbe.TimeInForce timeInForce)
    {
        return switch (timeInForce)
        {
            case IOC -> TimeInForce.IOC;
            case FOK -> TimeInForce.FOK;
            case POST_ONLY -> TimeInForce.POST_ONLY;
            default -> TimeInForce.GTC;
        };
    }
}
