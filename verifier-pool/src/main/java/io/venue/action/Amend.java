package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * Changes an open order's price and quantity. Both are the new absolute values: a quantity reduction at
 * the same price keeps time priority, any price change loses it. The order keeps its id.
 */
public record Amend(OrderId orderId, long price, long qty) implements BatchLeg
{
    public static final String TAG = "Amend";

    public Amend
    {
        Fields.requireNonNull("order_id", orderId);
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.ORDER_ID).fixedBytes(orderId);
        w.key(Fields.PRICE).u64(price);
        w.key(Fields.QTY).u64(qty);
    }
}
