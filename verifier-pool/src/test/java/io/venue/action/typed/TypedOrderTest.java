package io.venue.action.typed;

import io.venue.action.Action;
import io.venue.action.ActionArbitraries;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.BatchLeg;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.ClientOrderId;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.CanonicalJsonWriter;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The typed order: every order of the four kinds it carries writes the canonical JSON the action model writes, and any
 * bytes are either such an order or refused with the first field the model refuses, never with an exception.
 */
class TypedOrderTest
{
    @Property(tries = 1000)
    void anOrderWritesTheCanonicalJsonOfTheActionItCarries(@ForAll("orders") final SignedAction order)
    {
        final UnsafeBuffer record = record(order);
        final long market = TypedOrder.market(record, 0);
        assertNull(TypedOrder.check(record, 0, market));
        assertArrayEquals(CanonicalJson.toBytes(order.payload()), payload(record));
        assertEquals(order, TypedOrder.toSignedAction(record, 0, market));
        assertEquals(TypedOrder.LENGTH, record.capacity());
    }

    @Property(tries = 3000)
    void anyBytesAreAnOrderOrTheFirstFieldTheModelRefuses(@ForAll("orders") final SignedAction order,
        @ForAll final long seed, @ForAll @IntRange(min = 0, max = 12) final int changes)
    {
        final UnsafeBuffer record = record(order);
        final Random random = new Random(seed);
        if (changes == 12)
        {
            // all random
            for (int i = 0; i < TypedOrder.LENGTH; i++)
            {
                record.putByte(i, (byte)random.nextInt(256));
            }
        }
        for (int i = 0; i < changes; i++)
        {
            record.putByte(random.nextInt(TypedOrder.LENGTH), (byte)random.nextInt(256));
        }
        final long market = TypedOrder.market(record, 0);
        final TypedOrder.Fault fault = TypedOrder.check(record, 0, market);
        if (fault == null)
        {
            // an order: the model holds it, and the canonical JSON is the model's
            final SignedAction decoded = TypedOrder.toSignedAction(record, 0, market);
            assertArrayEquals(CanonicalJson.toBytes(decoded.payload()), payload(record));
            // encoded again it is the same order (the fields its kind does not use come back zero)
            final UnsafeBuffer again = record(decoded);
            assertEquals(decoded, TypedOrder.toSignedAction(again, 0, TypedOrder.market(again, 0)));
        }
        else
        {
            assertThrows(IllegalArgumentException.class, () -> TypedOrder.toSignedAction(record, 0, market));
            assertEquals(fault.path().startsWith("payload."), true, fault.path());
            assertEquals(false, fault.message(record, 0).isEmpty());
        }
    }

    @Test
    void faultsAreFoundInTheCanonicalOrderOfTheFields()
    {
        final SignedAction place = signed(
            new SpotPlaceOrder(7, null, Side.BID, 1, 2, null, TimeInForce.GTC, false, false, -1), null);
        final UnsafeBuffer record = record(place);
        record.putByte(TypedOrder.SIDE, (byte)2);
        assertEquals(TypedOrder.Fault.SIDE_VALUE, TypedOrder.check(record, 0, 7));
        record.putLong(TypedOrder.EXPIRES_AT, -2, ByteOrder.LITTLE_ENDIAN);
        assertEquals(TypedOrder.Fault.SIDE_VALUE, TypedOrder.check(record, 0, 7), "side comes before expires_at");
        assertEquals(TypedOrder.Fault.MARKET_RANGE, TypedOrder.check(record, 0, 1L << 32),
            "market comes first in a place");
        record.putByte(TypedOrder.KIND, (byte)4);
        assertEquals(TypedOrder.Fault.KIND_VALUE, TypedOrder.check(record, 0, 7));
        assertEquals("unknown action variant: a typed order's kind is 0 to 3, not 4",
            TypedOrder.Fault.KIND_VALUE.message(record, 0));
        record.putLong(TypedOrder.TS, -1, ByteOrder.LITTLE_ENDIAN);
        assertEquals(TypedOrder.Fault.TS_RANGE, TypedOrder.check(record, 0, 7), "ts comes before the action");
        record.putByte(TypedOrder.HAS_CLIENT_ORDER_ID, (byte)2);
        assertEquals(TypedOrder.Fault.CLIENT_ORDER_ID_FLAG, TypedOrder.check(record, 0, 7),
            "client_order_id comes before ts");

        // a kind's unused fields are not read: a cancel with a side of 9 is a cancel
        final UnsafeBuffer cancel = record(
            signed(new Cancel(new OrderId(new byte[32])), ClientOrderId.of("0x" + "01".repeat(16))));
        cancel.putByte(TypedOrder.SIDE, (byte)9);
        cancel.putLong(TypedOrder.MARKET, -1, ByteOrder.LITTLE_ENDIAN);
        assertNull(TypedOrder.check(cancel, 0, TypedOrder.market(cancel, 0)));
    }

    @Test
    void onlyTheFourOrderKindsHaveATypedForm()
    {
        assertThrows(IllegalArgumentException.class, () -> record(signed(new CancelAll(CancelAll.ALL_MARKETS), null)));
    }

    @Test
    void theWriterKeepsNothingOfTheLastOrder()
    {
        // one writer for every order, as a verifier has: each payload is written whole from the writer's start
        final CanonicalJsonWriter writer = new CanonicalJsonWriter(16);
        for (final BatchLeg action : new BatchLeg[]{
            new SpotPlaceOrder(4_294_967_295L, Book.NO, Side.ASK, -1, Long.MIN_VALUE, StpMode.SKIP_SELF,
                TimeInForce.POST_ONLY, true, true, Long.MAX_VALUE),
            new Cancel(new OrderId(new byte[32]))})
        {
            final SignedAction order = signed(action, null);
            final UnsafeBuffer record = record(order);
            writer.reset();
            TypedOrder.writePayload(record, 0, TypedOrder.market(record, 0), writer);
            assertArrayEquals(CanonicalJson.toBytes(order.payload()), writer.toByteArray());
        }
    }

    private static SignedAction signed(final Action action, final ClientOrderId clientOrderId)
    {
        final byte[] signature = new byte[65];
        signature[64] = 27;
        return new SignedAction(
            new ActionPayload(Address.of("0x" + "ab".repeat(20)), 5, clientOrderId, 1_763_000_000_000L, action),
            new Signature65(signature));
    }

    static UnsafeBuffer record(final SignedAction order)
    {
        final UnsafeBuffer record = new UnsafeBuffer(new byte[TypedOrder.LENGTH]);
        TypedOrder.encode(order, record, 0);
        return record;
    }

    private static byte[] payload(final UnsafeBuffer record)
    {
        final CanonicalJsonWriter writer = new CanonicalJsonWriter(8);
        TypedOrder.writePayload(record, 0, TypedOrder.market(record, 0), writer);
        return writer.toByteArray();
    }

    /** Signed orders of the four kinds a typed order carries, every field over its range. */
    @Provide
    Arbitrary<SignedAction> orders()
    {
        return Combinators.combine(ActionArbitraries.addresses(), ActionArbitraries.u64(),
                ActionArbitraries.clientOrderIds().injectNull(0.5), ActionArbitraries.millis(),
                ActionArbitraries.batchLegs(), ActionArbitraries.bytes(Signature65.LENGTH))
            .as((account, nonce, clientOrderId, ts, action, signature) ->
                new SignedAction(new ActionPayload(account, nonce, clientOrderId, ts, action),
                    new Signature65(signature)));
    }
}
