package io.venue.transport.bsl;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.action.typed.TypedOrder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compact body: what a client encodes decodes to the same signed actions (so to the same canonical JSON, the bytes
 * the client signed), and any other bytes are refused with a field and a reason, never with another exception.
 */
class CompactOrdersTest
{
    private static final long MARKET = 7;
    private static final Address ACCOUNT = Address.of("0x" + "ab".repeat(20));

    @Property(tries = 300)
    void whatAClientEncodesDecodesToTheActionsItSigned(
        @ForAll("orders") @Size(min = 1, max = 40) final List<SignedAction> orders)
        throws Exception
    {
        final CompactOrders.Request request = CompactOrders.decode(CompactOrders.encode(MARKET, orders));
        assertEquals(MARKET, request.market());
        assertEquals(orders.size(), request.orders().size());
        for (int i = 0; i < orders.size(); i++)
        {
            assertArrayEquals(CanonicalJson.signedActionBody(orders.get(i)),
                CanonicalJson.signedActionBody(request.orders().get(i)),
                "order " + i);
        }
    }

    /**
     * The lane offers each order's bytes as they stand in the body: they are the pool's typed order of that action (the
     * bytes {@link TypedOrder#encode} writes), and the request's typed reads are the action's fields.
     */
    @Property(tries = 300)
    void eachOrdersBytesAreTheTypedOrderOfItsAction(
        @ForAll("orders") @Size(min = 1, max = 40) final List<SignedAction> orders)
        throws Exception
    {
        final CompactOrders.Request request = CompactOrders.decode(CompactOrders.encode(MARKET, orders));
        assertEquals(orders.size(), request.size());
        for (int i = 0; i < orders.size(); i++)
        {
            final SignedAction order = orders.get(i);
            final UnsafeBuffer typed = new UnsafeBuffer(new byte[TypedOrder.LENGTH]);
            TypedOrder.encode(order, typed, 0);
            final byte[] expected = new byte[TypedOrder.ORDER_LENGTH];
            typed.getBytes(0, expected);
            final byte[] asSent = new byte[TypedOrder.ORDER_LENGTH];
            request.buffer().getBytes(request.offset(i), asSent);
            assertArrayEquals(expected, asSent, "order " + i);
            assertEquals(order, request.order(i));
            assertEquals(order.payload().ts(), request.ts(i));
            assertTrue(request.isOf(i, order.payload().account().toBytes()));
            assertEquals(false,
                request.isOf(i, new byte[20]) && !order.payload().account().equals(new Address(new byte[20])));
            assertEquals(order.payload().account(), request.account(i));
            final Action action = order.payload().action();
            assertEquals(
                action instanceof SpotPlaceOrder ? TypedOrder.PLACE : action instanceof Cancel ? TypedOrder.CANCEL :
                action instanceof Amend ? TypedOrder.AMEND : TypedOrder.CANCEL_BY_CLIENT_ORDER_ID, request.kind(i));
            if (action instanceof Amend amend)
            {
                assertEquals(amend.orderId(), request.orderId(i));
            }
        }
    }

    @Property(tries = 2000)
    void changedBytesAreDecodedToSendableOrdersOrRefusedWithAField(
        @ForAll("orders") @Size(min = 1, max = 4) final List<SignedAction> orders,
        @ForAll final long seed, @ForAll @IntRange(min = 1, max = 8) final int changes)
    {
        final byte[] body = CompactOrders.encode(MARKET, orders);
        final Random random = new Random(seed);
        for (int i = 0; i < changes; i++)
        {
            body[random.nextInt(body.length)] = (byte)random.nextInt(256);
        }
        final byte[] cut = random.nextInt(4) == 0 ? Arrays.copyOf(body, random.nextInt(body.length + 8)) : body;
        try
        {
            // what decodes is a request a client could have sent: encoded again, it decodes to the same actions
            final CompactOrders.Request request = CompactOrders.decode(cut);
            final CompactOrders.Request again = CompactOrders.decode(
                CompactOrders.encode(request.market(), request.orders()));
            for (int i = 0; i < request.orders().size(); i++)
            {
                assertArrayEquals(CanonicalJson.signedActionBody(request.orders().get(i)),
                    CanonicalJson.signedActionBody(again.orders().get(i)));
            }
        }
        catch (final CompactOrders.Malformed refused)
        {
            assertTrue(refused.field() != null && !refused.field().isEmpty() && refused.getMessage() != null);
        }
    }

    @Test
    void refusesHeadersCountsAndLengthsItDoesNotKnow()
    {
        final byte[] one = CompactOrders.encode(MARKET, List.of(signed(new Cancel(new OrderId(new byte[32])), null)));
        assertEquals("body", refusal(new byte[10]).field());

        final byte[] otherSchema = one.clone();
        otherSchema[4] = 9;
        assertEquals("header", refusal(otherSchema).field());

        final byte[] none = one.clone();
        putShort(none, 14, 0);
        assertEquals("orders", refusal(none).field());
        final byte[] tooMany = one.clone();
        putShort(tooMany, 14, CompactOrders.MAX_ORDERS + 1);
        assertEquals("orders", refusal(tooMany).field());
        final byte[] otherSize = one.clone();
        putShort(otherSize, 12, 100);
        assertEquals("orders", refusal(otherSize).field());

        assertEquals("body", refusal(Arrays.copyOf(one, one.length + 1)).field());
        assertEquals("body", refusal(Arrays.copyOf(one, one.length - 1)).field());

        final byte[] badKind = one.clone();
        badKind[16] = 9; // the first order's kind
        final CompactOrders.Malformed kind = refusal(badKind);
        assertEquals("orders[0].kind", kind.field());
        assertTrue(kind.getMessage().contains("9"), kind.getMessage());
    }

    @Test
    void refusesWhatTheActionModelRefusesInTheLanesWords()
    {
        final byte[] place = CompactOrders.encode(MARKET, List.of(signed(new Cancel(new OrderId(new byte[32])), null),
            signed(new SpotPlaceOrder(MARKET, null, Side.BID, 1, 1, null, TimeInForce.GTC, false, false, -1), null)));
        final int second = 16 + TypedOrder.ORDER_LENGTH;
        final Object[][] cases = {
            {TypedOrder.BOOK, 3, "orders[1].book", "3 is not a value of the schema"},
            {TypedOrder.SIDE, 2, "orders[1].side", "2 is not a value of the schema"},
            {TypedOrder.STP_MODE, 5, "orders[1].stpMode", "5 is not a value of the schema"},
            {TypedOrder.TIME_IN_FORCE, 4, "orders[1].timeInForce", "4 is not a value of the schema"},
            {TypedOrder.IS_MARKET, 2, "orders[1].isMarket", "a flag is 0 or 1, not 2"},
            {TypedOrder.REDUCE_ONLY, 7, "orders[1].reduceOnly", "a flag is 0 or 1, not 7"},
            {TypedOrder.HAS_CLIENT_ORDER_ID, 2, "orders[1].hasClientOrderId", "a flag is 0 or 1, not 2"},
            {TypedOrder.EXPIRES_AT, 0xFE, "orders[1].expiresAt", "Unix ms, or -1 for none"},
            {TypedOrder.TS + 7, 0x80, "orders[1]", "ts must be Unix milliseconds in [0, 2^63-1]"}};
        for (final Object[] c : cases)
        {
            final byte[] body = place.clone();
            body[second + (int)c[0]] = (byte)(int)c[1];
            final CompactOrders.Malformed refused = refusal(body);
            assertEquals(c[2], refused.field());
            assertEquals(c[3], refused.getMessage());
        }
        // the first order is a cancel: what only a place uses is not read
        final byte[] cancel = place.clone();
        cancel[16 + TypedOrder.SIDE] = 9;
        assertDoesNotThrow(() -> CompactOrders.decode(cancel));
    }

    @Test
    void aClientCannotEncodeWhatTheLaneDoesNotTake()
    {
        assertThrows(IllegalArgumentException.class, () -> CompactOrders.encode(MARKET, List.of()));
        assertThrows(IllegalArgumentException.class,
            () -> CompactOrders.encode(MARKET, List.of(signed(new CancelAll(CancelAll.ALL_MARKETS), null))));
        assertThrows(IllegalArgumentException.class, () -> CompactOrders.encode(MARKET, List.of(signed(
            new SpotPlaceOrder(MARKET + 1, null, Side.BID, 1, 1, null, TimeInForce.GTC, false, false, -1), null))));
    }

    private static CompactOrders.Malformed refusal(final byte[] body)
    {
        return assertThrows(CompactOrders.Malformed.class, () -> CompactOrders.decode(body));
    }

    private static void putShort(final byte[] body, final int at, final int value)
    {
        new UnsafeBuffer(body).putShort(at, (short)value, ByteOrder.LITTLE_ENDIAN);
    }

    private static SignedAction signed(final Action action, final ClientOrderId clientOrderId)
    {
        final byte[] signature = new byte[65];
        signature[64] = 27;
        return new SignedAction(new ActionPayload(ACCOUNT, 5, clientOrderId, 1_763_000_000_000L, action),
            new Signature65(signature));
    }

    @Provide
    Arbitrary<List<SignedAction>> orders()
    {
        final Arbitrary<byte[]> id32 = Arbitraries.bytes().array(byte[].class).ofSize(32);
        final Arbitrary<byte[]> id16 = Arbitraries.bytes().array(byte[].class).ofSize(16);
        final Arbitrary<Long> u64 = Arbitraries.longs();
        final Arbitrary<Action> place = Combinators.combine(Arbitraries.of(Book.YES, Book.NO).injectNull(0.5),
            Arbitraries.of(Side.values()), u64, u64, Arbitraries.of(StpMode.values()).injectNull(0.3),
            Arbitraries.of(TimeInForce.values()), Arbitraries.of(true, false),
            Arbitraries.longs().between(-1, Long.MAX_VALUE))
            .as((book, side, price, qty, stp, tif, flag, expiry) ->
                new SpotPlaceOrder(MARKET, book, side, price, qty, stp, tif, flag, !flag, expiry));
        final Arbitrary<Action> action = Arbitraries.oneOf(place, id32.map(b -> new Cancel(new OrderId(b))),
            Combinators.combine(id32, u64, u64).as((b, p, q) -> new Amend(new OrderId(b), p, q)),
            id16.map(b -> new CancelByClientOrderId(new ClientOrderId(b))));
        final Arbitrary<SignedAction> signed = Combinators.combine(Arbitraries.bytes().array(byte[].class).ofSize(20),
            u64, id16.injectNull(0.5), Arbitraries.longs().between(0, Long.MAX_VALUE), action,
            Arbitraries.bytes().array(byte[].class)
                .ofSize(65))
            .as((account, nonce, client, ts, a,
                signature) -> new SignedAction(new ActionPayload(new Address(account), nonce,
                client == null ? null : new ClientOrderId(client), ts, a), new Signature65(signature)));
        return signed.list();
    }
}
