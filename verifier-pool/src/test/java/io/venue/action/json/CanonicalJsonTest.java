package io.venue.action.json;

import io.venue.action.ActionArbitraries;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.ClientOrderId;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CanonicalJsonTest
{
    private static final Address ACCOUNT = Address.of("0x00112233445566778899aabbccddeeff00112233");

    @Test
    void spotBidFollowsSpecFieldOrder()
    {
        final ActionPayload payload = new ActionPayload(ACCOUNT, 7, null, 1_763_000_000_000L,
            new SpotPlaceOrder(4_294_967_295L, null, Side.BID, 1_500_000, 2_000_000, null, TimeInForce.POST_ONLY,
                false, false, SpotPlaceOrder.NO_EXPIRY));
        assertEquals("{\"account\":\"0x00112233445566778899aabbccddeeff00112233\",\"nonce\":7," +
            "\"nonce_reservation_id\":null,\"ts\":1763000000000,\"action\":{\"SpotPlaceOrder\":{\"market\":" +
            "4294967295," +
            "\"side\":\"Bid\",\"price\":1500000,\"qty\":2000000,\"stp_mode\":null,\"time_in_force\":\"post_only\"," +
            "\"is_market\":false,\"reduce_only\":false,\"expires_at\":null}}}", json(payload));
    }

    @Test
    void outcomeOrderCarriesBookAfterMarketAndClientOrderIdBeforeTs()
    {
        final ActionPayload payload = new ActionPayload(ACCOUNT, -1L,
            ClientOrderId.of("0x000102030405060708090a0b0c0d0e0f"), 5,
            new SpotPlaceOrder(3, Book.NO, Side.ASK, 400_000, 1, StpMode.CANCEL_MAKER, TimeInForce.IOC, true,
                true, 99));
        assertEquals("{\"account\":\"0x00112233445566778899aabbccddeeff00112233\",\"nonce\":18446744073709551615," +
            "\"nonce_reservation_id\":null,\"client_order_id\":\"0x000102030405060708090a0b0c0d0e0f\",\"ts\":5," +
            "\"action\":{\"SpotPlaceOrder\":{\"market\":3,\"book\":\"NO\",\"side\":\"Ask\",\"price\":400000," +
            "\"qty\":1," +
            "\"stp_mode\":\"cancel_maker\",\"time_in_force\":\"ioc\",\"is_market\":true,\"reduce_only\":true," +
            "\"expires_at\":99}}}", json(payload));
    }

    @Test
    void cancelIsOneField()
    {
        final ActionPayload payload = new ActionPayload(ACCOUNT, 0, null, 0,
            new Cancel(OrderId.of("0x" + "ab".repeat(32))));
        assertEquals("{\"account\":\"0x00112233445566778899aabbccddeeff00112233\",\"nonce\":0," +
            "\"nonce_reservation_id\":null,\"ts\":0,\"action\":{\"Cancel\":{\"order_id\":\"0x" + "ab".repeat(32) +
            "\"}}}", json(payload));
    }

    @Property(tries = 2000)
    void u64IsWrittenAsUnsignedDecimal(@ForAll final long nonce)
    {
        final String text = json(
            new ActionPayload(ACCOUNT, nonce, null, 0, new Cancel(OrderId.of("0x" + "00".repeat(32)))));
        assertTrue(text.contains("\"nonce\":" + Long.toUnsignedString(nonce) + ","), text);
    }

    @Property(tries = 3000)
    void parseOfCanonicalBodyGivesBackTheSameActionAndBytes(@ForAll("signedActions") final SignedAction action)
    {
        final byte[] body = CanonicalJson.signedActionBody(action);
        final ParseResult result = new SignedActionParser().parse(body);
        assertTrue(result.isOk(), () -> result + " for " + new String(body, StandardCharsets.UTF_8));
        assertEquals(action, result.signedAction());
        assertArrayEquals(CanonicalJson.toBytes(action.payload()),
            CanonicalJson.toBytes(result.signedAction().payload()));
    }

    @Property(tries = 500)
    void reusedEncoderGivesTheSameBytesAsAFreshOne(@ForAll("payloadPairs") final ActionPayload[] pair)
    {
        final CanonicalJson encoder = new CanonicalJson();
        for (final ActionPayload payload : pair)
        {
            final int length = encoder.encode(payload);
            final byte[] reused = Arrays.copyOf(encoder.writer().buffer(), length);
            assertArrayEquals(CanonicalJson.toBytes(payload), reused);
        }
    }

    @Provide
    Arbitrary<SignedAction> signedActions()
    {
        return ActionArbitraries.signedActions();
    }

    @Provide
    Arbitrary<ActionPayload[]> payloadPairs()
    {
        return ActionArbitraries.payloads().array(ActionPayload[].class).ofSize(3);
    }

    private static String json(final ActionPayload payload)
    {
        return new String(CanonicalJson.toBytes(payload), StandardCharsets.US_ASCII);
    }
}
