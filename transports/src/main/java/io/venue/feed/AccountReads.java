package io.venue.feed;

import java.util.Map;

/** The account read's lists, from an account's state (an account the events never named has empty lists). */
final class AccountReads
{
    private AccountReads()
    {
    }

    static void orders(final AccountState state, final JsonBytes out)
    {
        out.key("orders").ch('[');
        if (null != state)
        {
            for (final OpenOrder order : state.openByAge.values())
            {
                out.comma().ch('{');
                out.key("orderId").hex0x(order.id.bytes(), 0, 32);
                out.key("market").num(order.market);
                if (order.book != ChannelName.SPOT)
                {
                    out.key("book").ascii(order.book == ChannelName.YES ? "\"YES\"" : "\"NO\"");
                }
                out.key("side").ascii(order.side == 0 ? "\"buy\"" : "\"sell\"");
                out.key("price").num(order.price);
                out.key("qty").num(order.qty);
                out.key("remaining").num(order.remaining);
                out.ch('}');
            }
        }
        out.ch(']');
        out.key("complete").ascii(null == state || !state.ordersIncomplete ? "true" : "false");
    }

    static void balances(final AccountState state, final JsonBytes out)
    {
        out.key("balances").ch('[');
        if (null != state)
        {
            for (final Map.Entry<Long, long[]> e : state.balances.entrySet())
            {
                out.comma().ch('{');
                out.key("asset").num(e.getKey());
                out.key("available").num(e.getValue()[0]);
                out.key("locked").num(e.getValue()[1]);
                out.ch('}');
            }
        }
        out.ch(']');
    }

    static void positions(final AccountState state, final JsonBytes out)
    {
        out.key("positions").ch('[');
        if (null != state)
        {
            for (final Map.Entry<Long, long[]> e : state.positions.entrySet())
            {
                out.comma().ch('{');
                out.key("market").num(e.getKey());
                out.key("yes").num(e.getValue()[0]);
                out.key("yesLocked").num(e.getValue()[1]);
                out.key("no").num(e.getValue()[2]);
                out.key("noLocked").num(e.getValue()[3]);
                out.ch('}');
            }
        }
        out.ch(']');
    }
}
