package io.venue.action;

import io.venue.action.json.JsonKey;

/**
 * Field names of the signed payload, shared by the canonical encoder and the parser so the two can
 * never spell a key differently, and the range rules every constructor applies.
 */
public final class Fields
{
    public static final JsonKey ACCOUNT = JsonKey.of("account");
    public static final JsonKey NONCE = JsonKey.of("nonce");
    public static final JsonKey NONCE_RESERVATION_ID = JsonKey.of("nonce_reservation_id");
    public static final JsonKey CLIENT_ORDER_ID = JsonKey.of("client_order_id");
    public static final JsonKey TS = JsonKey.of("ts");
    public static final JsonKey ACTION = JsonKey.of("action");

    public static final JsonKey MARKET = JsonKey.of("market");
    public static final JsonKey BOOK = JsonKey.of("book");
    public static final JsonKey SIDE = JsonKey.of("side");
    public static final JsonKey PRICE = JsonKey.of("price");
    public static final JsonKey QTY = JsonKey.of("qty");
    public static final JsonKey STP_MODE = JsonKey.of("stp_mode");
    public static final JsonKey TIME_IN_FORCE = JsonKey.of("time_in_force");
    public static final JsonKey IS_MARKET = JsonKey.of("is_market");
    public static final JsonKey REDUCE_ONLY = JsonKey.of("reduce_only");
    public static final JsonKey EXPIRES_AT = JsonKey.of("expires_at");
    public static final JsonKey ORDER_ID = JsonKey.of("order_id");
    public static final JsonKey LEGS = JsonKey.of("legs");

    public static final JsonKey ASSET = JsonKey.of("asset");
    public static final JsonKey SYMBOL = JsonKey.of("symbol");
    public static final JsonKey BASE_ASSET = JsonKey.of("base_asset");
    public static final JsonKey QUOTE_ASSET = JsonKey.of("quote_asset");
    public static final JsonKey COLLATERAL_ASSET = JsonKey.of("collateral_asset");
    public static final JsonKey TICK_SIZE = JsonKey.of("tick_size");
    public static final JsonKey LOT_SIZE = JsonKey.of("lot_size");
    public static final JsonKey MIN_QTY = JsonKey.of("min_qty");
    public static final JsonKey SCOPE = JsonKey.of("scope");
    public static final JsonKey ACTIVE = JsonKey.of("active");
    public static final JsonKey AMOUNT = JsonKey.of("amount");
    public static final JsonKey OWNER = JsonKey.of("owner");
    public static final JsonKey CREDENTIAL_ID = JsonKey.of("credential_id");
    public static final JsonKey FIX_ENABLED = JsonKey.of("fix_enabled");
    public static final JsonKey DROP_COPY = JsonKey.of("drop_copy");
    public static final JsonKey MARKETS = JsonKey.of("markets");
    public static final JsonKey RATE_TIER = JsonKey.of("rate_tier");
    public static final JsonKey CANCEL_ON_DISCONNECT = JsonKey.of("cancel_on_disconnect");
    public static final JsonKey COD_GRACE_MS = JsonKey.of("cod_grace_ms");

    /** Markets and assets are u32 ids. */
    public static final long MAX_U32 = 0xFFFF_FFFFL;
    /** A Batch holds at most this many legs (spec 8.2 maxPerBatch). */
    public static final int MAX_BATCH_LEGS = 1000;
    /** Asset symbols: 1 to 12 of A-Z and 0-9, so they never need a JSON escape. */
    public static final int MAX_SYMBOL_LENGTH = 12;

    private Fields()
    {
    }

    static void requireU32(final String name, final long value)
    {
        if (value < 0 || value > MAX_U32)
        {
            throw new IllegalArgumentException(name + " must be a u32, got " + value);
        }
    }

    /** Market ids that may be null on the wire use -1 for null. */
    static void requireU32OrAll(final String name, final long value)
    {
        if (value < -1 || value > MAX_U32)
        {
            throw new IllegalArgumentException(name + " must be a u32 or null, got " + value);
        }
    }

    static void requireNonNull(final String name, final Object value)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(name + " is required");
        }
    }

    public static boolean isValidSymbol(final CharSequence symbol)
    {
        final int length = symbol.length();
        if (length == 0 || length > MAX_SYMBOL_LENGTH)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            final char c = symbol.charAt(i);
            if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            {
                return false;
            }
        }
        return true;
    }
}
