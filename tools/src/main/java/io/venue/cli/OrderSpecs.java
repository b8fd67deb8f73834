package io.venue.cli;

import io.venue.action.Action;
import io.venue.action.Amend;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * An order of the compact lanes as the command line writes it ({@code venue mm orders}, {@code venue bsl send}):
 * place:Bid|Ask:PRICE:QTY[:gtc|ioc|fok|post_only], cancel:ORDER_ID or amend:ORDER_ID:PRICE:QTY.
 */
final class OrderSpecs
{
    static final String FORMS = "place:Bid|Ask:PRICE:QTY[:TIF], cancel:ORDER_ID or amend:ORDER_ID:PRICE:QTY";

    private OrderSpecs()
    {
    }

    /** The action {@code order} names on {@code market} ({@code book}: YES or NO, or null). */
    static Action parse(final CommandLine commandLine, final long market, final String book, final String order)
    {
        final String[] parts = order.split(":", -1);
        try
        {
            switch (parts[0])
            {
                case "place":
                    if (parts.length == 4 || parts.length == 5)
                    {
                        return new SpotPlaceOrder(market, book == null ? null : WireValues.parse(Book.class, book),
                            WireValues.parse(Side.class, parts[1]), WireValues.u64(parts[2]),
                            WireValues.u64(parts[3]), null,
                            parts.length == 5 ? WireValues.parse(TimeInForce.class, parts[4]) :
                                TimeInForce.GTC, false, false, SpotPlaceOrder.NO_EXPIRY);
                    }
                    break;
                case "cancel":
                    if (parts.length == 2)
                    {
                        return new Cancel(OrderId.of(parts[1]));
                    }
                    break;
                case "amend":
                    if (parts.length == 4)
                    {
                        return new Amend(OrderId.of(parts[1]), WireValues.u64(parts[2]), WireValues.u64(parts[3]));
                    }
                    break;
                default:
                    break;
            }
        }
        catch (final IllegalArgumentException bad)
        {
            throw new ParameterException(commandLine, order + ": " + bad.getMessage());
        }
        throw new ParameterException(commandLine, order + ": expected " + FORMS);
    }
}
