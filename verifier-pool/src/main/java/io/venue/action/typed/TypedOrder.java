package io.venue.action.typed;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.Fields;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.WireEnum;
import io.venue.action.json.CanonicalJsonWriter;
import io.venue.action.json.ParseErrorCode;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * A signed order of a binary lane as the verifier pool takes it ({@code VerifierPool.offerTypedMm}): the typed action
 * and its signature, in the layout of one order of the compact binary body (transports' {@code venue-bsl.xml}, group
 * {@code orders}, version 1; docs/API.md, "Compact binary orders"), followed by the market of the request's places. A
 * lane that decoded such a body copies each order's 197 bytes as they arrived and writes the market after them: no
 * JSON, no object per order. The verifier derives the payload's canonical JSON from these fields
 * ({@link #writePayload}), byte for byte the JSON that {@link ActionPayload#writeTo} writes for the same action.
 * <p>
 * Little-endian; a record is {@link #LENGTH} bytes:
 * <pre>
 * offset field                type      use
 *   0    kind                 uint8     0 SpotPlaceOrder, 1 Cancel, 2 Amend, 3 CancelByClientOrderId
 *   1    account              20 bytes  the payload's account
 *  21    nonce                uint64
 *  29    ts                   uint64    Unix ms, at most 2^63-1
 *  37    hasClientOrderId     uint8     0: no client_order_id in the payload; 1: it is clientOrderId
 *  38    clientOrderId        16 bytes
 *  54    book                 uint8     place: 0 none (spot), 1 YES, 2 NO
 *  55    side                 uint8     place: 0 Bid, 1 Ask
 *  56    price                uint64    place, amend
 *  64    qty                  uint64    place, amend
 *  72    stpMode              uint8     place: 0 null, 1 cancel_maker, 2 cancel_taker, 3 reject, 4 skip_self
 *  73    timeInForce          uint8     place: 0 gtc, 1 ioc, 2 fok, 3 post_only
 *  74    isMarket             uint8     place: 0 or 1
 *  75    reduceOnly           uint8     place: 0 or 1
 *  76    expiresAt            int64     place: Unix ms, -1 for null
 *  84    orderId              32 bytes  cancel, amend
 * 116    cancelClientOrderId  16 bytes  cancel by client order id: the order to cancel
 * 132    signature            65 bytes  r, s, v as signed
 * 197    market               uint64    place: the market (a u32); not part of the compact order, the request's
 * 205
 * </pre>
 * Fields a kind does not use are ignored, as in the compact body. Stateless; nothing here allocates but
 * {@link #toSignedAction}, {@link #encode} and the refusal texts.
 */
public final class TypedOrder
{
    public static final int KIND = 0;
    public static final int ACCOUNT = 1;
    public static final int NONCE = 21;
    public static final int TS = 29;
    public static final int HAS_CLIENT_ORDER_ID = 37;
    public static final int CLIENT_ORDER_ID = 38;
    public static final int BOOK = 54;
    public static final int SIDE = 55;
    public static final int PRICE = 56;
    public static final int QTY = 64;
    public static final int STP_MODE = 72;
    public static final int TIME_IN_FORCE = 73;
    public static final int IS_MARKET = 74;
    public static final int REDUCE_ONLY = 75;
    public static final int EXPIRES_AT = 76;
    public static final int ORDER_ID = 84;
    public static final int CANCEL_CLIENT_ORDER_ID = 116;
    public static final int SIGNATURE = 132;
    /** The compact order's own bytes: the typed action and its signature. */
    public static final int ORDER_LENGTH = 197;
    /** Where the market of a place follows the compact order's bytes. */
    public static final int MARKET = ORDER_LENGTH;
    /** A whole record. */
    public static final int LENGTH = MARKET + 8;

    public static final int PLACE = 0;
    public static final int CANCEL = 1;
    public static final int AMEND = 2;
    public static final int CANCEL_BY_CLIENT_ORDER_ID = 3;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final String PLACE_PATH = "payload.action." + SpotPlaceOrder.TAG + ".";
    /** The model's value of each raw value the schema defines; null where the payload holds none. */
    private static final Book[] BOOKS = {null, Book.YES, Book.NO};
    private static final Side[] SIDES = {Side.BID, Side.ASK};
    private static final StpMode[] STP_MODES = {null, StpMode.CANCEL_MAKER, StpMode.CANCEL_TAKER, StpMode.REJECT,
        StpMode.SKIP_SELF};
    private static final TimeInForce[] TIMES_IN_FORCE = {TimeInForce.GTC, TimeInForce.IOC, TimeInForce.FOK,
        TimeInForce.POST_ONLY};

    /**
     * What the action model refuses in a record: the field, by its name in the compact schema (for the lane's 400) and
     * by the path the JSON parser names it by (for the verifier's MALFORMED result), with the JSON route's code and,
     * where JSON can spell the same value (a ts above 2^63-1, a market above 2^32-1, a negative expiry, a flag that is
     * a number, an enum value that is none of the strings), the parser's own message, so the refusal is the
     * JSON route's.
     */
    public enum Fault
    {
        /** No JSON spelling: a JSON payload either has the key or not. */
        CLIENT_ORDER_ID_FLAG(HAS_CLIENT_ORDER_ID, "hasClientOrderId", ParseErrorCode.INVALID_VALUE,
            "payload.client_order_id", null),
        TS_RANGE(TS, "ts", ParseErrorCode.NUMBER_OUT_OF_RANGE, "payload.ts",
            "Unix milliseconds must be at most " + Long.MAX_VALUE),
        /** No JSON spelling: JSON names a variant by its tag. */
        KIND_VALUE(KIND, "kind", ParseErrorCode.UNKNOWN_ACTION, "payload.action", null),
        MARKET_RANGE(MARKET, "market", ParseErrorCode.NUMBER_OUT_OF_RANGE, PLACE_PATH + "market",
            "must be at most " + Fields.MAX_U32),
        BOOK_VALUE(BOOK, "book", ParseErrorCode.INVALID_ENUM, PLACE_PATH + "book",
            "must be one of " + wires(Book.values())),
        SIDE_VALUE(SIDE, "side", ParseErrorCode.INVALID_ENUM, PLACE_PATH + "side",
            "must be one of " + wires(Side.values())),
        STP_MODE_VALUE(STP_MODE, "stpMode", ParseErrorCode.INVALID_ENUM, PLACE_PATH + "stp_mode",
            "must be one of " + wires(StpMode.values())),
        TIME_IN_FORCE_VALUE(TIME_IN_FORCE, "timeInForce", ParseErrorCode.INVALID_ENUM, PLACE_PATH + "time_in_force",
            "must be one of " + wires(TimeInForce.values())),
        IS_MARKET_FLAG(IS_MARKET, "isMarket", ParseErrorCode.INVALID_TYPE, PLACE_PATH + "is_market",
            "expected true or false, got a number"),
        REDUCE_ONLY_FLAG(REDUCE_ONLY, "reduceOnly", ParseErrorCode.INVALID_TYPE, PLACE_PATH + "reduce_only",
            "expected true or false, got a number"),
        EXPIRES_AT_RANGE(EXPIRES_AT, "expiresAt", ParseErrorCode.NUMBER_OUT_OF_RANGE, PLACE_PATH + "expires_at",
            "must be Unix milliseconds; negative numbers are not allowed");

        private final int offset;
        private final String compactField;
        private final ParseErrorCode code;
        private final String path;
        private final String message;

        Fault(final int offset, final String compactField, final ParseErrorCode code, final String path,
            final String message)
        {
            this.offset = offset;
            this.compactField = compactField;
            this.code = code;
            this.path = path;
            this.message = message;
        }

        /** Where the field is in a record. */
        public int offset()
        {
            return offset;
        }

        /** The field's name in the compact schema ({@code venue-bsl.xml}). */
        public String compactField()
        {
            return compactField;
        }

        /** The JSON route's code for this refusal. */
        public ParseErrorCode code()
        {
            return code;
        }

        /** The field's path as the JSON parser names it ({@code payload.action.SpotPlaceOrder.side}). */
        public String path()
        {
            return path;
        }

        /** Why, in the JSON parser's words where JSON can spell the value; allocates for the two it cannot. */
        public String message(final DirectBuffer buffer, final int offset)
        {
            if (message != null)
            {
                return message;
            }
            final int raw = buffer.getByte(offset + this.offset) & 0xFF;
            return this == KIND_VALUE ?
                "unknown action variant: a typed order's kind is 0 to 3, not " + raw :
                "a typed order's hasClientOrderId is 0 (no client_order_id) or 1, not " + raw;
        }
    }

    private TypedOrder()
    {
    }

    /** The market a record carries after its compact order's bytes. */
    public static long market(final DirectBuffer record, final int offset)
    {
        return record.getLong(offset + MARKET, LE);
    }

    public static int kind(final DirectBuffer buffer, final int offset)
    {
        return buffer.getByte(offset + KIND) & 0xFF;
    }

    public static long ts(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + TS, LE);
    }

    /**
     * Null when the order at {@code buffer[offset, offset + ORDER_LENGTH)}, on {@code market}, is one the action model
     * takes; otherwise the first field it refuses, in the payload's canonical order (the order the JSON parser meets
     * them in a canonical body). Reads only the fields its kind uses; allocates nothing.
     */
    public static Fault check(final DirectBuffer buffer, final int offset, final long market)
    {
        if (u8(buffer, offset + HAS_CLIENT_ORDER_ID) > 1)
        {
            return Fault.CLIENT_ORDER_ID_FLAG;
        }
        if (buffer.getLong(offset + TS, LE) < 0)
        {
            return Fault.TS_RANGE;
        }
        final int kind = u8(buffer, offset + KIND);
        if (kind > CANCEL_BY_CLIENT_ORDER_ID)
        {
            return Fault.KIND_VALUE;
        }
        return kind == PLACE ? checkPlace(buffer, offset, market) : null;
    }

    private static Fault checkPlace(final DirectBuffer buffer, final int offset, final long market)
    {
        if (market < 0 || market > Fields.MAX_U32)
        {
            return Fault.MARKET_RANGE;
        }
        if (u8(buffer, offset + BOOK) >= BOOKS.length)
        {
            return Fault.BOOK_VALUE;
        }
        if (u8(buffer, offset + SIDE) >= SIDES.length)
        {
            return Fault.SIDE_VALUE;
        }
        if (u8(buffer, offset + STP_MODE) >= STP_MODES.length)
        {
            return Fault.STP_MODE_VALUE;
        }
        if (u8(buffer, offset + TIME_IN_FORCE) >= TIMES_IN_FORCE.length)
        {
            return Fault.TIME_IN_FORCE_VALUE;
        }
        if (u8(buffer, offset + IS_MARKET) > 1)
        {
            return Fault.IS_MARKET_FLAG;
        }
        if (u8(buffer, offset + REDUCE_ONLY) > 1)
        {
            return Fault.REDUCE_ONLY_FLAG;
        }
        if (buffer.getLong(offset + EXPIRES_AT, LE) < SpotPlaceOrder.NO_EXPIRY)
        {
            return Fault.EXPIRES_AT_RANGE;
        }
        return null;
    }

    /**
     * Writes the payload's canonical JSON (docs/SIGNING.md) for an order {@link #check} passed: the bytes
     * {@link ActionPayload#writeTo} writes for the action {@link #toSignedAction} returns. Allocates nothing once the
     * writer has grown.
     */
    public static void writePayload(final DirectBuffer buffer, final int offset, final long market,
        final CanonicalJsonWriter w)
    {
        w.beginObject();
        w.key(Fields.ACCOUNT).fixedBytes(buffer, offset + ACCOUNT, Address.LENGTH);
        w.key(Fields.NONCE).u64(buffer.getLong(offset + NONCE, LE));
        w.key(Fields.NONCE_RESERVATION_ID).nullValue();
        if (u8(buffer, offset + HAS_CLIENT_ORDER_ID) == 1)
        {
            w.key(Fields.CLIENT_ORDER_ID).fixedBytes(buffer, offset + CLIENT_ORDER_ID, ClientOrderId.LENGTH);
        }
        w.key(Fields.TS).u64(buffer.getLong(offset + TS, LE));
        w.key(Fields.ACTION);
        switch (u8(buffer, offset + KIND))
        {
            case PLACE -> writePlace(buffer, offset, market, w);
            case CANCEL -> w.beginAction(Cancel.TAG).key(Fields.ORDER_ID)
                .fixedBytes(buffer, offset + ORDER_ID, OrderId.LENGTH);
            case AMEND -> w.beginAction(Amend.TAG).key(Fields.ORDER_ID)
                .fixedBytes(buffer, offset + ORDER_ID, OrderId.LENGTH)
                .key(Fields.PRICE).u64(buffer.getLong(offset + PRICE, LE)).key(Fields.QTY)
                .u64(buffer.getLong(offset + QTY, LE));
            case CANCEL_BY_CLIENT_ORDER_ID -> w.beginAction(CancelByClientOrderId.TAG).key(Fields.CLIENT_ORDER_ID)
                .fixedBytes(buffer, offset + CANCEL_CLIENT_ORDER_ID, ClientOrderId.LENGTH);
            default -> throw new IllegalArgumentException(
                "kind " + u8(buffer, offset + KIND) + ": check the order first");
        }
        w.endAction();
        w.endObject();
    }

    /** The fields of {@link SpotPlaceOrder#writeFields}, in its order, from the record. */
    private static void writePlace(final DirectBuffer buffer, final int offset, final long market,
        final CanonicalJsonWriter w)
    {
        w.beginAction(SpotPlaceOrder.TAG);
        w.key(Fields.MARKET).u64(market);
        final Book book = BOOKS[u8(buffer, offset + BOOK)];
        if (book != null)
        {
            w.key(Fields.BOOK).enumValue(book);
        }
        w.key(Fields.SIDE).enumValue(SIDES[u8(buffer, offset + SIDE)]);
        w.key(Fields.PRICE).u64(buffer.getLong(offset + PRICE, LE));
        w.key(Fields.QTY).u64(buffer.getLong(offset + QTY, LE));
        w.key(Fields.STP_MODE).enumOrNull(STP_MODES[u8(buffer, offset + STP_MODE)]);
        w.key(Fields.TIME_IN_FORCE).enumValue(TIMES_IN_FORCE[u8(buffer, offset + TIME_IN_FORCE)]);
        w.key(Fields.IS_MARKET).bool(u8(buffer, offset + IS_MARKET) == 1);
        w.key(Fields.REDUCE_ONLY).bool(u8(buffer, offset + REDUCE_ONLY) == 1);
        w.key(Fields.EXPIRES_AT);
        final long expiresAt = buffer.getLong(offset + EXPIRES_AT, LE);
        if (expiresAt == SpotPlaceOrder.NO_EXPIRY)
        {
            w.nullValue();
        }
        else
        {
            w.u64(expiresAt);
        }
    }

    /** The signed action of an order {@link #check} passed (allocates: tools, tests, the lane's slow paths). */
    public static SignedAction toSignedAction(final DirectBuffer buffer, final int offset, final long market)
    {
        final Fault fault = check(buffer, offset, market);
        if (fault != null)
        {
            throw new IllegalArgumentException(fault.path() + ": " + fault.message(buffer, offset));
        }
        final Action action = switch (u8(buffer, offset + KIND))
        {
            case PLACE -> new SpotPlaceOrder(market, BOOKS[u8(buffer, offset + BOOK)], SIDES[u8(buffer, offset + SIDE)],
                buffer.getLong(offset + PRICE, LE), buffer.getLong(offset + QTY, LE),
                STP_MODES[u8(buffer, offset + STP_MODE)],
                TIMES_IN_FORCE[u8(buffer, offset + TIME_IN_FORCE)], u8(buffer, offset + IS_MARKET) == 1,
                u8(buffer, offset + REDUCE_ONLY) == 1, buffer.getLong(offset + EXPIRES_AT, LE));
            case CANCEL -> new Cancel(new OrderId(bytes(buffer, offset + ORDER_ID, OrderId.LENGTH)));
            case AMEND -> new Amend(new OrderId(bytes(buffer, offset + ORDER_ID, OrderId.LENGTH)),
                buffer.getLong(offset + PRICE, LE), buffer.getLong(offset + QTY, LE));
            default -> new CancelByClientOrderId(new ClientOrderId(bytes(buffer, offset + CANCEL_CLIENT_ORDER_ID,
                ClientOrderId.LENGTH)));
        };
        final ClientOrderId clientOrderId = u8(buffer, offset + HAS_CLIENT_ORDER_ID) == 1 ?
            new ClientOrderId(bytes(buffer, offset + CLIENT_ORDER_ID, ClientOrderId.LENGTH)) : null;
        final ActionPayload payload = new ActionPayload(new Address(bytes(buffer, offset + ACCOUNT, Address.LENGTH)),
            buffer.getLong(offset + NONCE, LE), clientOrderId, buffer.getLong(offset + TS, LE), action);
        return new SignedAction(payload, new Signature65(bytes(buffer, offset + SIGNATURE, Signature65.LENGTH)));
    }

    /**
     * Writes {@code order} as a whole record ({@link #LENGTH} bytes, the market of a place after its compact order, 0
     * for the other kinds) with every field its kind does not use zero (expiresAt -1): the bytes the compact body's
     * encoder writes for the order. Tools and tests.
     *
     * @throws IllegalArgumentException for a variant a typed order cannot carry.
     */
    public static void encode(final SignedAction order, final MutableDirectBuffer buffer, final int offset)
    {
        final ActionPayload payload = order.payload();
        final Action action = payload.action();
        buffer.setMemory(offset, LENGTH, (byte)0);
        buffer.putLong(offset + EXPIRES_AT, SpotPlaceOrder.NO_EXPIRY, LE);
        buffer.putBytes(offset + ACCOUNT, payload.account().toBytes());
        buffer.putLong(offset + NONCE, payload.nonce(), LE);
        buffer.putLong(offset + TS, payload.ts(), LE);
        if (payload.clientOrderId() != null)
        {
            buffer.putByte(offset + HAS_CLIENT_ORDER_ID, (byte)1);
            buffer.putBytes(offset + CLIENT_ORDER_ID, payload.clientOrderId().toBytes());
        }
        buffer.putBytes(offset + SIGNATURE, order.signature().toBytes());
        if (action instanceof SpotPlaceOrder place)
        {
            buffer.putByte(offset + KIND, (byte)PLACE);
            buffer.putByte(offset + BOOK, (byte)indexOf(BOOKS, place.book()));
            buffer.putByte(offset + SIDE, (byte)indexOf(SIDES, place.side()));
            buffer.putLong(offset + PRICE, place.price(), LE);
            buffer.putLong(offset + QTY, place.qty(), LE);
            buffer.putByte(offset + STP_MODE, (byte)indexOf(STP_MODES, place.stpMode()));
            buffer.putByte(offset + TIME_IN_FORCE, (byte)indexOf(TIMES_IN_FORCE, place.timeInForce()));
            buffer.putByte(offset + IS_MARKET, (byte)(place.isMarket() ? 1 : 0));
            buffer.putByte(offset + REDUCE_ONLY, (byte)(place.reduceOnly() ? 1 : 0));
            buffer.putLong(offset + EXPIRES_AT, place.expiresAt(), LE);
            buffer.putLong(offset + MARKET, place.market(), LE);
        }
        else if (action instanceof Cancel cancel)
        {
            buffer.putByte(offset + KIND, (byte)CANCEL);
            buffer.putBytes(offset + ORDER_ID, cancel.orderId().toBytes());
        }
        else if (action instanceof Amend amend)
        {
            buffer.putByte(offset + KIND, (byte)AMEND);
            buffer.putBytes(offset + ORDER_ID, amend.orderId().toBytes());
            buffer.putLong(offset + PRICE, amend.price(), LE);
            buffer.putLong(offset + QTY, amend.qty(), LE);
        }
        else if (action instanceof CancelByClientOrderId cancel)
        {
            buffer.putByte(offset + KIND, (byte)CANCEL_BY_CLIENT_ORDER_ID);
            buffer.putBytes(offset + CANCEL_CLIENT_ORDER_ID, cancel.clientOrderId().toBytes());
        }
        else
        {
            throw new IllegalArgumentException(action.tag() + " has no typed form");
        }
    }

    private static int u8(final DirectBuffer buffer, final int at)
    {
        return buffer.getByte(at) & 0xFF;
    }

    private static byte[] bytes(final DirectBuffer buffer, final int at, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(at, bytes);
        return bytes;
    }

    private static int indexOf(final Object[] values, final Object value)
    {
        for (int i = 0; i < values.length; i++)
        {
            if (values[i] == value)
            {
                return i;
            }
        }
        throw new IllegalArgumentException(value + " has no typed value");
    }

    private static String wires(final WireEnum[] values)
    {
        final StringBuilder list = new StringBuilder();
        for (final WireEnum value : values)
        {
            list.append(list.length() == 0 ? "" : ", ").append('"').append(value.wire()).append('"');
        }
        return list.toString();
    }
}
