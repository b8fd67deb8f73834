package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/** Cancels the account's open order that carries this client order id. */
public record CancelByClientOrderId(ClientOrderId clientOrderId) implements BatchLeg
{
    public static final String TAG = "CancelByClientOrderId";

    public CancelByClientOrderId
    {
        Fields.requireNonNull("client_order_id", clientOrderId);
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.CLIENT_ORDER_ID).fixedBytes(clientOrderId);
    }
}
