package io.venue.transport.bsl;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Cancel;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.Fields;
import io.venue.action.OrderId;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.typed.TypedOrder;
import io.venue.bsl.sbe.BooleanType;
import io.venue.bsl.sbe.CompactOrdersDecoder;
import io.venue.bsl.sbe.CompactOrdersEncoder;
import io.venue.bsl.sbe.MessageHeaderDecoder;
import io.venue.bsl.sbe.MessageHeaderEncoder;
import io.venue.bsl.sbe.OrderKind;
import io.venue.entry.TypedOrders;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import io.venue.bsl.sbe.Book;
import io.venue.bsl.sbe.GroupSizeEncodingDecoder;
import io.venue.bsl.sbe.Side;
import io.venue.bsl.sbe.StpMode;
import io.venue.bsl.sbe.TimeInForce;

/**
 * The compact binary body of the MM/BSL order-entry routes (schema {@code venue-bsl.xml}): 1 to 1,000 signed orders,
 * each the fields of one signed action of the trading route, so the verifier derives the very action the client signed
 * (docs/SIGNING.md). Decoding is strict: the header, the group's sizes and the body's exact length are checked before
 * any order is read, and every order must be one the action model takes (every enum value one the schema defines).
 * Fields an order's kind does not use are ignored. A decoded {@link Request} is a view over the body, not a copy: each
 * order's bytes are already a typed order of the verifier pool ({@link TypedOrder}, whose layout is the schema's order
 * group: checked when this class loads), which the lane offers as they are. Stateless and thread safe.
 */
public final class CompactOrders
{
    /** The most orders one request may carry (the spec's maxPerBatch). */
    public static final int MAX_ORDERS = Fields.MAX_BATCH_LEGS;
    private static final int ORDER_LENGTH = CompactOrdersDecoder.OrdersDecoder.sbeBlockLength();
    /** The header, the request's block and the group's header: where the first order starts. */
    private static final int FIXED_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH + CompactOrdersDecoder.BLOCK_LENGTH +
        CompactOrdersDecoder.OrdersDecoder.sbeHeaderSize();

    static
    {
        // the lane offers an order's bytes as they arrived: the schema's order must be the pool's typed order, field
        // by field
        final int[][] offsets = {
            {ORDER_LENGTH, TypedOrder.ORDER_LENGTH},
            {CompactOrdersDecoder.OrdersDecoder.kindEncodingOffset(), TypedOrder.KIND},
            {CompactOrdersDecoder.OrdersDecoder.accountEncodingOffset(), TypedOrder.ACCOUNT},
            {CompactOrdersDecoder.OrdersDecoder.nonceEncodingOffset(), TypedOrder.NONCE},
            {CompactOrdersDecoder.OrdersDecoder.tsEncodingOffset(), TypedOrder.TS},
            {CompactOrdersDecoder.OrdersDecoder.hasClientOrderIdEncodingOffset(), TypedOrder.HAS_CLIENT_ORDER_ID},
            {CompactOrdersDecoder.OrdersDecoder.clientOrderIdEncodingOffset(), TypedOrder.CLIENT_ORDER_ID},
            {CompactOrdersDecoder.OrdersDecoder.bookEncodingOffset(), TypedOrder.BOOK},
            {CompactOrdersDecoder.OrdersDecoder.sideEncodingOffset(), TypedOrder.SIDE},
            {CompactOrdersDecoder.OrdersDecoder.priceEncodingOffset(), TypedOrder.PRICE},
            {CompactOrdersDecoder.OrdersDecoder.qtyEncodingOffset(), TypedOrder.QTY},
            {CompactOrdersDecoder.OrdersDecoder.stpModeEncodingOffset(), TypedOrder.STP_MODE},
            {CompactOrdersDecoder.OrdersDecoder.timeInForceEncodingOffset(), TypedOrder.TIME_IN_FORCE},
            {CompactOrdersDecoder.OrdersDecoder.isMarketEncodingOffset(), TypedOrder.IS_MARKET},
            {CompactOrdersDecoder.OrdersDecoder.reduceOnlyEncodingOffset(), TypedOrder.REDUCE_ONLY},
            {CompactOrdersDecoder.OrdersDecoder.expiresAtEncodingOffset(), TypedOrder.EXPIRES_AT},
            {CompactOrdersDecoder.OrdersDecoder.orderIdEncodingOffset(), TypedOrder.ORDER_ID},
            {CompactOrdersDecoder.OrdersDecoder.cancelClientOrderIdEncodingOffset(), TypedOrder.CANCEL_CLIENT_ORDER_ID},
            {CompactOrdersDecoder.OrdersDecoder.signatureEncodingOffset(), TypedOrder.SIGNATURE}};
        for (int i = 0; i < offsets.length; i++)
        {
            if (offsets[i][0] != offsets[i][1])
            {
                throw new IllegalStateException("venue-bsl.xml's order and TypedOrder differ at entry " + i + ": " +
                    offsets[i][0] + " against " + offsets[i][1]);
            }
        }
    }

    /** A body refused: {@code field} names where (header, orders, orders[i].name), the message why. */
    public static final class Malformed extends Exception
    {
        private final String field;

        Malformed(final String field, final String message)
        {
            super(message, null, false, false);
            this.field = field;
        }

        public String field()
        {
            return field;
        }
    }

    /**
     * A decoded request: the market its places are on, and its orders in the order they are to be applied, read in
     * place from the body (which must not change while the request is in use). Order i's bytes are a
     * {@link TypedOrder}'s compact part at {@link #buffer()}{@code [offset(i), offset(i) + TypedOrder.ORDER_LENGTH)}.
     */
    public static final class Request implements TypedOrders
    {
        private final UnsafeBuffer buffer;
        private final long market;
        private final int size;

        private Request(final UnsafeBuffer buffer, final long market, final int size)
        {
            this.buffer = buffer;
            this.market = market;
            this.size = size;
        }

        /** The market of the request's places (a u32). */
        @Override
        public long market()
        {
            return market;
        }

        /** How many orders it holds. */
        @Override
        public int size()
        {
            return size;
        }

        /** The body. */
        @Override
        public DirectBuffer buffer()
        {
            return buffer;
        }

        /** Where order {@code index} starts in {@link #buffer()}. */
        @Override
        public int offset(final int index)
        {
            return FIXED_LENGTH + index * ORDER_LENGTH;
        }

        /**
         * Order {@code index}'s kind: {@link TypedOrder#PLACE}, {@code CANCEL}, {@code AMEND} or
         * {@code CANCEL_BY_CLIENT_ORDER_ID}.
         */
        public int kind(final int index)
        {
            return TypedOrder.kind(buffer, offset(index));
        }

        /** Order {@code index}'s ts, Unix ms. */
        public long ts(final int index)
        {
            return TypedOrder.ts(buffer, offset(index));
        }

        /** Whether order {@code index} is of {@code account} (20 bytes); allocates nothing. */
        public boolean isOf(final int index, final byte[] account)
        {
            final int at = offset(index) + TypedOrder.ACCOUNT;
            for (int i = 0; i < Address.LENGTH; i++)
            {
                if (buffer.getByte(at + i) != account[i])
                {
                    return false;
                }
            }
            return true;
        }

        /** Order {@code index}'s account (allocates). */
        public Address account(final int index)
        {
            final byte[] account = new byte[Address.LENGTH];
            buffer.getBytes(offset(index) + TypedOrder.ACCOUNT, account);
            return new Address(account);
        }

        /** The order id a cancel or an amend names (allocates). */
        public OrderId orderId(final int index)
        {
            final byte[] id = new byte[OrderId.LENGTH];
            buffer.getBytes(offset(index) + TypedOrder.ORDER_ID, id);
            return new OrderId(id);
        }

        /** Order {@code index} as the signed action it carries (allocates; tools and tests). */
        public SignedAction order(final int index)
        {
            return TypedOrder.toSignedAction(buffer, offset(index), market);
        }

        /** Every order as the signed action it carries, in body order (allocates; tools and tests). */
        public List<SignedAction> orders()
        {
            final List<SignedAction> orders = new ArrayList<>(size);
            for (int i = 0; i < size; i++)
            {
                orders.add(order(i));
            }
            return orders;
        }
    }

    private CompactOrders()
    {
    }

    /** The size of a body of {@code orders} orders. */
    public static int length(final int orders)
    {
        return FIXED_LENGTH + orders * ORDER_LENGTH;
    }

    /** How many orders a body of {@code bodyLength} bytes carries if it is well formed (0 when no count fits it). */
    public static int ordersIn(final int bodyLength)
    {
        final int orders = bodyLength - FIXED_LENGTH;
        return orders <= 0 || orders % ORDER_LENGTH != 0 ? 0 : orders / ORDER_LENGTH;
    }

    /** Checks {@code body} whole and returns a view of its orders (the body is not copied: keep it unchanged). */
    public static Request decode(final byte[] body) throws Malformed
    {
        if (body.length < FIXED_LENGTH)
        {
            throw new Malformed("body",
                "a compact body is at least " + FIXED_LENGTH + " bytes: the message header, the " +
                "request block and the orders' group header");
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(body);
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, 0);
        if (header.schemaId() != CompactOrdersDecoder.SCHEMA_ID ||
            header.templateId() != CompactOrdersDecoder.TEMPLATE_ID ||
            header.version() != CompactOrdersDecoder.SCHEMA_VERSION ||
            header.blockLength() != CompactOrdersDecoder.BLOCK_LENGTH)
        {
            throw new Malformed("header", "expected schema " + CompactOrdersDecoder.SCHEMA_ID + ", template " +
                CompactOrdersDecoder.TEMPLATE_ID + ", version " + CompactOrdersDecoder.SCHEMA_VERSION +
                ", block length " +
                CompactOrdersDecoder.BLOCK_LENGTH + "; got " + header.schemaId() + ", " + header.templateId() + ", " +
                header.version() + ", " + header.blockLength());
        }
        final GroupSizeEncodingDecoder group = new GroupSizeEncodingDecoder()
            .wrap(buffer, MessageHeaderDecoder.ENCODED_LENGTH + CompactOrdersDecoder.BLOCK_LENGTH);
        final int orderLength = group.blockLength();
        final int count = group.numInGroup();
        if (orderLength != ORDER_LENGTH)
        {
            throw new Malformed("orders",
                "an order is " + ORDER_LENGTH + " bytes, the group header says " + orderLength);
        }
        if (count < 1 || count > MAX_ORDERS)
        {
            throw new Malformed("orders", "1 to " + MAX_ORDERS + " orders per request, the group header says " + count);
        }
        if (body.length != length(count))
        {
            throw new Malformed("body",
                count + " orders make a body of " + length(count) + " bytes, not " + body.length);
        }
        final long market = new CompactOrdersDecoder().wrapAndApplyHeader(buffer, 0, header).market();
        final Request request = new Request(buffer, market, count);
        for (int i = 0; i < count; i++)
        {
            final TypedOrder.Fault fault = TypedOrder.check(buffer, request.offset(i), market);
            if (fault != null)
            {
                throw refusal(fault, buffer, request.offset(i), i);
            }
        }
        return request;
    }

    /** Where a refusal points: {@code orders[i].name}, or {@code orders[i]} for no name; made only when refusing. */
    private static String field(final int index, final String name)
    {
        return "orders[" + index + "]" + (name == null ? "" : "." + name);
    }

    /** The lane's words for what the action model refuses in order {@code index} (at {@code at}). */
    private static Malformed refusal(final TypedOrder.Fault fault, final DirectBuffer buffer, final int at,
        final int index)
    {
        final int raw = buffer.getByte(at + fault.offset()) & 0xFF;
        return switch (fault)
        {
            case KIND_VALUE, BOOK_VALUE, SIDE_VALUE, STP_MODE_VALUE, TIME_IN_FORCE_VALUE ->
                new Malformed(field(index, fault.compactField()), raw + " is not a value of the schema");
            case CLIENT_ORDER_ID_FLAG, IS_MARKET_FLAG, REDUCE_ONLY_FLAG ->
                new Malformed(field(index, fault.compactField()), "a flag is 0 or 1, not " + raw);
            case EXPIRES_AT_RANGE -> new Malformed(field(index, fault.compactField()), "Unix ms, or -1 for none");
            // the action model's own rule, in its words
            case TS_RANGE -> new Malformed(field(index, null), "ts must be Unix milliseconds in [0, 2^63-1]");
            // a uint32 in the body: never out of range
            case MARKET_RANGE -> new Malformed("market", "must be a u32");
        };
    }

    /**
     * The body of {@code orders} on {@code market} (a client's side; tools and tests). Every order is a place (on
     * {@code market}), a cancel, an amend or a cancel by client order id.
     */
    public static byte[] encode(final long market, final List<SignedAction> orders)
    {
        if (orders.isEmpty() || orders.size() > MAX_ORDERS)
        {
            throw new IllegalArgumentException("1 to " + MAX_ORDERS + " orders");
        }
        final byte[] body = new byte[length(orders.size())];
        final CompactOrdersEncoder request = new CompactOrdersEncoder()
            .wrapAndApplyHeader(new UnsafeBuffer(body), 0, new MessageHeaderEncoder()).market(market);
        final CompactOrdersEncoder.OrdersEncoder group = request.ordersCount(orders.size());
        final byte[] zeros = new byte[32];
        for (final SignedAction signed : orders)
        {
            final ActionPayload payload = signed.payload();
            final CompactOrdersEncoder.OrdersEncoder order = group.next();
            order.putAccount(payload.account().toBytes(), 0, Address.LENGTH).nonce(payload.nonce()).ts(payload.ts())
                .hasClientOrderId(payload.clientOrderId() == null ? BooleanType.FALSE : BooleanType.TRUE)
                .putClientOrderId(payload.clientOrderId() == null ? zeros : payload.clientOrderId().toBytes(), 0, 16)
                .book(Book.NONE).side(Side.BID).price(0).qty(0)
                .stpMode(StpMode.NONE).timeInForce(TimeInForce.GTC)
                .isMarket(BooleanType.FALSE).reduceOnly(BooleanType.FALSE).expiresAt(SpotPlaceOrder.NO_EXPIRY)
                .putOrderId(zeros, 0, 32).putCancelClientOrderId(zeros, 0, 16)
                .putSignature(signed.signature().toBytes(), 0, 65);
            final Action action = payload.action();
            if (action instanceof SpotPlaceOrder place)
            {
                if (place.market() != market)
                {
                    throw new IllegalArgumentException(
                        "a place on market " + place.market() + " in a request on " + market);
                }
                order.kind(OrderKind.PLACE).book(place.book() == null ? Book.NONE :
                        Book.valueOf(place.book().name()))
                    .side(Side.valueOf(place.side().name()))
                    .price(place.price()).qty(place.qty())
                    .stpMode(place.stpMode() == null ? StpMode.NONE :
                        StpMode.valueOf(place.stpMode().name()))
                    .timeInForce(TimeInForce.valueOf(place.timeInForce().name()))
                    .isMarket(place.isMarket() ? BooleanType.TRUE : BooleanType.FALSE)
                    .reduceOnly(place.reduceOnly() ? BooleanType.TRUE : BooleanType.FALSE).expiresAt(place.expiresAt());
            }
            else if (action instanceof Cancel cancel)
            {
                order.kind(OrderKind.CANCEL).putOrderId(cancel.orderId().toBytes(), 0, 32);
            }
            else if (action instanceof Amend amend)
            {
                order.kind(OrderKind.AMEND).putOrderId(amend.orderId().toBytes(), 0, 32).price(amend.price())
                    .qty(amend.qty());
            }
            else if (action instanceof CancelByClientOrderId cancel)
            {
                order.kind(OrderKind.CANCEL_BY_CLIENT_ORDER_ID)
                    .putCancelClientOrderId(cancel.clientOrderId().toBytes(), 0, 16);
            }
            else
            {
                throw new IllegalArgumentException(action.tag() + " has no compact form");
            }
        }
        return body;
    }
}
