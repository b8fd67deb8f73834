package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * The signed object (spec 2.1). Canonical top-level order: account, nonce, nonce_reservation_id (always
 * null), client_order_id (only when present), ts, action.
 *
 * @param nonce         u64, compared unsigned.
 * @param clientOrderId null when absent; then omitted from the JSON.
 * @param ts            Unix milliseconds in [0, 2^63-1].
 */
public record ActionPayload(Address account, long nonce, ClientOrderId clientOrderId, long ts, Action action)
{
    public ActionPayload
    {
        Fields.requireNonNull("account", account);
        Fields.requireNonNull("action", action);
        if (ts < 0)
        {
            throw new IllegalArgumentException("ts must be Unix milliseconds in [0, 2^63-1]");
        }
    }

    /**
     * Writes the canonical JSON object. {@link io.venue.action.typed.TypedOrder#writePayload} writes the same bytes
     * from a binary lane's typed order (a place, cancel, amend or cancel by client order id): a change here is one
     * there ({@code TypedOrderTest} holds the two equal).
     */
    public void writeTo(final CanonicalJsonWriter w)
    {
        w.beginObject();
        w.key(Fields.ACCOUNT).fixedBytes(account);
        w.key(Fields.NONCE).u64(nonce);
        w.key(Fields.NONCE_RESERVATION_ID).nullValue();
        if (clientOrderId != null)
        {
            w.key(Fields.CLIENT_ORDER_ID).fixedBytes(clientOrderId);
        }
        w.key(Fields.TS).u64(ts);
        w.key(Fields.ACTION).action(action);
        w.endObject();
    }
}
