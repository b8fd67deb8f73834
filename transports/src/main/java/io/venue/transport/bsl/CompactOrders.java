package io.venue.transport.bsl;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Cancel;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.Fields;
import io.venue.action.OrderId;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.bsl.sbe.BooleanType;
import io.venue.bsl.sbe.CompactOrdersDecoder;
import io.venue.bsl.sbe.CompactOrdersEncoder;
import io.venue.bsl.sbe.MessageHeaderDecoder;
import io.venue.bsl.sbe.MessageHeaderEncoder;
import io.venue.bsl.sbe.OrderKind;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The compact binary body of the MM/BSL order-entry routes (schema {@code venue-bsl.xml}): 1 to 1,000 signed orders,
 * each the fields of one signed action of the trading route, so the lane rebuilds the very action the client signed
 * (docs/SIGNING.md) and verifies it as a JSON submit would be. Decoding is strict: the header, the group's sizes and
 * the body's exact length are checked before any order is read, and every enum value must be one the schema defines.
 * Fields an order's kind does not use are ignored. Stateless and thread safe.
 */
public final class CompactOrders
{
    /** The most orders one request may carry (the spec's maxPerBatch). */
    public static final int MAX_ORDERS = Fields.MAX_BATCH_LEGS;
    private static final int ORDER_LENGTH = CompactOrdersDecoder.OrdersDecoder.sbeBlockLength();
    private static final int FIXED_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH + CompactOrdersDecoder.BLOCK_LENGTH +
        CompactOrdersDecoder.OrdersDecoder.sbeHeaderSize();

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

    /** A decoded request: the market its places are on, and its orders in the order they are to be applied. */
    public record Request(long market, List<SignedAction> orders)
    {
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

    public static Request decode(final byte[] body) throws Malformed
    {
        if (body.length < FIXED_LENGTH)
        {
            throw new Malformed("body", "a compact body is at least " + FIXED_LENGTH + " bytes: the message header, the " +
                "request block and the orders' group header");
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(body);
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, 0);
        if (header.schemaId() != CompactOrdersDecoder.SCHEMA_ID || header.templateId() != CompactOrdersDecoder.TEMPLATE_ID ||
            header.version() != CompactOrdersDecoder.SCHEMA_VERSION || header.blockLength() != CompactOrdersDecoder.BLOCK_LENGTH)
        {
            throw new Malformed("header", "expected schema " + CompactOrdersDecoder.SCHEMA_ID + ", template " +
                CompactOrdersDecoder.TEMPLATE_ID + ", version " + CompactOrdersDecoder.SCHEMA_VERSION + ", block length " +
                CompactOrdersDecoder.BLOCK_LENGTH + "; got " + header.schemaId() + ", " + header.templateId() + ", " +
                header.version() + ", " + header.blockLength());
        }
        final io.venue.bsl.sbe.GroupSizeEncodingDecoder group = new io.venue.bsl.sbe.GroupSizeEncodingDecoder()
            .wrap(buffer, MessageHeaderDecoder.ENCODED_LENGTH + CompactOrdersDecoder.BLOCK_LENGTH);
        final int orderLength = group.blockLength();
        final int count = group.numInGroup();
        if (orderLength != ORDER_LENGTH)
        {
            throw new Malformed("orders", "an order is " + ORDER_LENGTH + " bytes, the group header says " + orderLength);
        }
        if (count < 1 || count > MAX_ORDERS)
        {
            throw new Malformed("orders", "1 to " + MAX_ORDERS + " orders per request, the group header says " + count);
        }
        if (body.length != length(count))
        {
            throw new Malformed("body", count + " orders make a body of " + length(count) + " bytes, not " + body.length);
        }
        final CompactOrdersDecoder request = new CompactOrdersDecoder().wrapAndApplyHeader(buffer, 0, header);
        final long market = request.market();
        final List<SignedAction> orders = new ArrayList<>(count);
        int index = 0;
        for (final CompactOrdersDecoder.OrdersDecoder order : request.orders())
        {
            orders.add(order(order, market, index++));
        }
        return new Request(market, orders);
    }

    /** Where a refusal points: {@code orders[i].name}, or {@code orders[i]} for no name; made only when refusing. */
    private static String field(final int index, final String name)
    {
        return "orders[" + index + "]" + (name == null ? "" : "." + name);
    }

    private static SignedAction order(final CompactOrdersDecoder.OrdersDecoder order, final long market, final int at)
        throws Malformed
    {
        final OrderKind kind = valid(order.kindRaw(), OrderKind::get, OrderKind.NULL_VAL, at, "kind");
        final byte[] account = new byte[Address.LENGTH];
        order.getAccount(account, 0, Address.LENGTH);
        final boolean withClientId = flag(order.hasClientOrderIdRaw(), at, "hasClientOrderId");
        final byte[] clientId = withClientId ? new byte[16] : null;
        if (withClientId)
        {
            order.getClientOrderId(clientId, 0, 16);
        }
        final byte[] signature = new byte[65];
        order.getSignature(signature, 0, 65);
        try
        {
            final Action action = switch (kind)
            {
                case PLACE -> place(order, market, at);
                case CANCEL -> new Cancel(new OrderId(orderId(order)));
                case AMEND -> new Amend(new OrderId(orderId(order)), order.price(), order.qty());
                case CANCEL_BY_CLIENT_ORDER_ID ->
                {
                    final byte[] target = new byte[16];
                    order.getCancelClientOrderId(target, 0, 16);
                    yield new CancelByClientOrderId(new ClientOrderId(target));
                }
                default -> throw new Malformed(field(at, "kind"), "unknown kind");
            };
            final ActionPayload payload = new ActionPayload(new Address(account), order.nonce(),
                withClientId ? new ClientOrderId(clientId) : null, order.ts(), action);
            return new SignedAction(payload, new Signature65(signature));
        }
        catch (final IllegalArgumentException invalid)
        {
            // the action model's own rules (ranges, ts) refuse it: the message names the field
            throw new Malformed(field(at, null), invalid.getMessage());
        }
    }

    private static SpotPlaceOrder place(final CompactOrdersDecoder.OrdersDecoder order, final long market, final int at)
        throws Malformed
    {
        final io.venue.bsl.sbe.Book book = valid(order.bookRaw(), io.venue.bsl.sbe.Book::get, io.venue.bsl.sbe.Book.NULL_VAL,
            at, "book");
        final io.venue.bsl.sbe.Side side = valid(order.sideRaw(), io.venue.bsl.sbe.Side::get, io.venue.bsl.sbe.Side.NULL_VAL,
            at, "side");
        final io.venue.bsl.sbe.StpMode stp = valid(order.stpModeRaw(), io.venue.bsl.sbe.StpMode::get,
            io.venue.bsl.sbe.StpMode.NULL_VAL, at, "stpMode");
        final io.venue.bsl.sbe.TimeInForce tif = valid(order.timeInForceRaw(), io.venue.bsl.sbe.TimeInForce::get,
            io.venue.bsl.sbe.TimeInForce.NULL_VAL, at, "timeInForce");
        final boolean isMarket = flag(order.isMarketRaw(), at, "isMarket");
        final boolean reduceOnly = flag(order.reduceOnlyRaw(), at, "reduceOnly");
        final long expiresAt = order.expiresAt();
        if (expiresAt < SpotPlaceOrder.NO_EXPIRY)
        {
            throw new Malformed(field(at, "expiresAt"), "Unix ms, or -1 for none");
        }
        // the schema's names are the action model's, with NONE for an omitted book or stp mode
        return new SpotPlaceOrder(market, book == io.venue.bsl.sbe.Book.NONE ? null : io.venue.action.Book.valueOf(book.name()),
            io.venue.action.Side.valueOf(side.name()), order.price(), order.qty(),
            stp == io.venue.bsl.sbe.StpMode.NONE ? null : io.venue.action.StpMode.valueOf(stp.name()),
            io.venue.action.TimeInForce.valueOf(tif.name()), isMarket, reduceOnly, expiresAt);
    }

    private static byte[] orderId(final CompactOrdersDecoder.OrdersDecoder order)
    {
        final byte[] id = new byte[32];
        order.getOrderId(id, 0, 32);
        return id;
    }

    private static boolean flag(final short raw, final int at, final String name) throws Malformed
    {
        if (raw != 0 && raw != 1)
        {
            throw new Malformed(field(at, name), "a flag is 0 or 1, not " + raw);
        }
        return raw == 1;
    }

    /** An enum value the schema defines: SBE's {@code get} maps the null value to {@code nullValue} and throws on others. */
    private static <E extends Enum<E>> E valid(final short raw, final java.util.function.Function<Short, E> get, final E nullValue,
        final int at, final String name) throws Malformed
    {
        E value;
        try
        {
            value = get.apply(raw);
        }
        catch (final IllegalArgumentException unknown)
        {
            value = nullValue;
        }
        if (value == nullValue)
        {
            throw new Malformed(field(at, name), raw + " is not a value of the schema");
        }
        return value;
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
                .book(io.venue.bsl.sbe.Book.NONE).side(io.venue.bsl.sbe.Side.BID).price(0).qty(0)
                .stpMode(io.venue.bsl.sbe.StpMode.NONE).timeInForce(io.venue.bsl.sbe.TimeInForce.GTC)
                .isMarket(BooleanType.FALSE).reduceOnly(BooleanType.FALSE).expiresAt(SpotPlaceOrder.NO_EXPIRY)
                .putOrderId(zeros, 0, 32).putCancelClientOrderId(zeros, 0, 16).putSignature(signed.signature().toBytes(), 0, 65);
            final Action action = payload.action();
            if (action instanceof SpotPlaceOrder place)
            {
                if (place.market() != market)
                {
                    throw new IllegalArgumentException("a place on market " + place.market() + " in a request on " + market);
                }
                order.kind(OrderKind.PLACE).book(place.book() == null ? io.venue.bsl.sbe.Book.NONE :
                        io.venue.bsl.sbe.Book.valueOf(place.book().name()))
                    .side(io.venue.bsl.sbe.Side.valueOf(place.side().name()))
                    .price(place.price()).qty(place.qty())
                    .stpMode(place.stpMode() == null ? io.venue.bsl.sbe.StpMode.NONE :
                        io.venue.bsl.sbe.StpMode.valueOf(place.stpMode().name()))
                    .timeInForce(io.venue.bsl.sbe.TimeInForce.valueOf(place.timeInForce().name()))
                    .isMarket(place.isMarket() ? BooleanType.TRUE : BooleanType.FALSE)
                    .reduceOnly(place.reduceOnly() ? BooleanType.TRUE : BooleanType.FALSE).expiresAt(place.expiresAt());
            }
            else if (action instanceof Cancel cancel)
            {
                order.kind(OrderKind.CANCEL).putOrderId(cancel.orderId().toBytes(), 0, 32);
            }
            else if (action instanceof Amend amend)
            {
                order.kind(OrderKind.AMEND).putOrderId(amend.orderId().toBytes(), 0, 32).price(amend.price()).qty(amend.qty());
            }
            else if (action instanceof CancelByClientOrderId cancel)
            {
                order.kind(OrderKind.CANCEL_BY_CLIENT_ORDER_ID).putCancelClientOrderId(cancel.clientOrderId().toBytes(), 0, 16);
            }
            else
            {
                throw new IllegalArgumentException(action.tag() + " has no compact form");
            }
        }
        return body;
    }
}
