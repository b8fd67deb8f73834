package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Cancels one open order of the account. */
public record Cancel(OrderId orderId) implements BatchLeg
{
    public static final String TAG = "Cancel";

    public Cancel
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
    }
}
