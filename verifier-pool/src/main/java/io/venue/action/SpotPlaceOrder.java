package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * Places an order on a spot market, or on one book of an outcome market ({@code book} non-null).
 *
 * @param market      market id (u32).
 * @param book        YES or NO for outcome markets; null for spot, and then omitted from the JSON.
 * @param price       micro-units (1e6 scale), u64.
 * @param qty         micro-units (1e6 scale), u64.
 * @param stpMode     self-trade prevention, or null.
 * @param expiresAt   Unix milliseconds, or {@link #NO_EXPIRY} for null.
 */
public record SpotPlaceOrder(
    long market,
    Book book,
    Side side,
    long price,
    long qty,
    StpMode stpMode,
    TimeInForce timeInForce,
    boolean isMarket,
    boolean reduceOnly,
    long expiresAt) implements BatchLeg
{
    public static final String TAG = "SpotPlaceOrder";
    public static final long NO_EXPIRY = -1;

    public SpotPlaceOrder
    {
        Fields.requireU32("market", market);
        Fields.requireNonNull("side", side);
        Fields.requireNonNull("time_in_force", timeInForce);
        if (expiresAt < NO_EXPIRY)
        {
            throw new IllegalArgumentException("expires_at must be Unix milliseconds in [0, 2^63-1] or null");
        }
    }

    public boolean hasExpiry()
    {
        return expiresAt != NO_EXPIRY;
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.MARKET).u64(market);
        if (book != null)
        {
            w.key(Fields.BOOK).enumValue(book);
        }
        w.key(Fields.SIDE).enumValue(side);
        w.key(Fields.PRICE).u64(price);
        w.key(Fields.QTY).u64(qty);
        w.key(Fields.STP_MODE).enumOrNull(stpMode);
        w.key(Fields.TIME_IN_FORCE).enumValue(timeInForce);
        w.key(Fields.IS_MARKET).bool(isMarket);
        w.key(Fields.REDUCE_ONLY).bool(reduceOnly);
        w.key(Fields.EXPIRES_AT);
        if (hasExpiry())
        {
            w.u64(expiresAt);
        }
        else
        {
            w.nullValue();
        }
    }
}
