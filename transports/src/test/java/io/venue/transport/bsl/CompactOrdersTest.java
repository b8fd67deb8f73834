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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
    void whatAClientEncodesDecodesToTheActionsItSigned(@ForAll("orders") @Size(min = 1, max = 40) final List<SignedAction> orders)
        throws Exception
    {
        final CompactOrders.Request request = CompactOrders.decode(CompactOrders.encode(MARKET, orders));
        assertEquals(MARKET, request.market());
        assertEquals(orders.size(), request.orders().size());
        for (int i = 0; i < orders.size(); i++)
        {
            assertArrayEquals(CanonicalJson.signedActionBody(orders.get(i)), CanonicalJson.signedActionBody(request.orders().get(i)),
                "order " + i);
        }
    }

    @Property(tries = 2000)
    void changedBytesAreDecodedToSendableOrdersOrRefusedWithAField(@ForAll("orders") @Size(min = 1, max = 4) final List<SignedAction> orders,
        @ForAll final long seed, @ForAll @IntRange(min = 1, max = 8) final int changes)
    {
        final byte[] body = CompactOrders.encode(MARKET, orders);
        final Random random = new Random(seed);
        for (int i = 0; i < changes; i++)
        {
            body[random.nextInt(body.length)] = (byte)random.nextInt(256);
        }
        final byte[] cut = random.nextInt(4) == 0 ? java.util.Arrays.copyOf(body, random.nextInt(body.length + 8)) : body;
        try
        {
            // what decodes is a request a client could have sent: encoded again, it decodes to the same actions
            final CompactOrders.Request request = CompactOrders.decode(cut);
            final CompactOrders.Request again = CompactOrders.decode(CompactOrders.encode(request.market(), request.orders()));
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

        assertEquals("body", refusal(java.util.Arrays.copyOf(one, one.length + 1)).field());
        assertEquals("body", refusal(java.util.Arrays.copyOf(one, one.length - 1)).field());

        final byte[] badKind = one.clone();
        badKind[16] = 9; // the first order's kind
        final CompactOrders.Malformed kind = refusal(badKind);
        assertEquals("orders[0].kind", kind.field());
        assertTrue(kind.getMessage().contains("9"), kind.getMessage());
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
        new org.agrona.concurrent.UnsafeBuffer(body).putShort(at, (short)value, ByteOrder.LITTLE_ENDIAN);
    }

    private static SignedAction signed(final Action action, final ClientOrderId clientOrderId)
    {
        final byte[] signature = new byte[65];
        signature[64] = 27;
        return new SignedAction(new ActionPayload(ACCOUNT, 5, clientOrderId, 1_763_000_000_000L, action), new Signature65(signature));
    }

    @Provide
    Arbitrary<List<SignedAction>> orders()
    {
        final Arbitrary<byte[]> id32 = Arbitraries.bytes().array(byte[].class).ofSize(32);
        final Arbitrary<byte[]> id16 = Arbitraries.bytes().array(byte[].class).ofSize(16);
        final Arbitrary<Long> u64 = Arbitraries.longs();
        final Arbitrary<Action> place = Combinators.combine(Arbitraries.of(Book.YES, Book.NO).injectNull(0.5),
            Arbitraries.of(Side.values()), u64, u64, Arbitraries.of(StpMode.values()).injectNull(0.3),
            Arbitraries.of(TimeInForce.values()), Arbitraries.of(true, false), Arbitraries.longs().between(-1, Long.MAX_VALUE))
            .as((book, side, price, qty, stp, tif, flag, expiry) ->
                new SpotPlaceOrder(MARKET, book, side, price, qty, stp, tif, flag, !flag, expiry));
        final Arbitrary<Action> action = Arbitraries.oneOf(place, id32.map(b -> new Cancel(new OrderId(b))),
            Combinators.combine(id32, u64, u64).as((b, p, q) -> new Amend(new OrderId(b), p, q)),
            id16.map(b -> new CancelByClientOrderId(new ClientOrderId(b))));
        final Arbitrary<SignedAction> signed = Combinators.combine(Arbitraries.bytes().array(byte[].class).ofSize(20), u64,
            id16.injectNull(0.5), Arbitraries.longs().between(0, Long.MAX_VALUE), action, Arbitraries.bytes().array(byte[].class)
                .ofSize(65))
            .as((account, nonce, client, ts, a, signature) -> new SignedAction(new ActionPayload(new Address(account), nonce,
                client == null ? null : new ClientOrderId(client), ts, a), new Signature65(signature)));
        return signed.list();
    }
}
