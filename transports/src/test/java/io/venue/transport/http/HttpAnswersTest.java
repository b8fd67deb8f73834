package io.venue.transport.http;

import io.venue.entry.Answer;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP lane's form of the lane-neutral answers (docs/API.md): status, body and limiter fields, byte for byte. */
class HttpAnswersTest
{
    private static final String ZEROS = "0".repeat(64);

    private static byte[] filled(final int length, final int value)
    {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte)value);
        return bytes;
    }

    @Test
    void anAcceptedOrderNamesItsOrderAndTrades()
    {
        final SubmitResponse http = HttpAnswers.render(new Answer.Builder().accepted(9, 100).digest(new byte[32])
            .orderIds(new byte[][] {filled(32, 0x11)}).trades(2).rate(50, 49, 20).build());
        assertEquals(200, http.status());
        assertEquals("{\"ok\":true,\"sequence\":9,\"digest\":\"0x" + ZEROS + "\",\"orderId\":\"0x" + "11".repeat(32) +
            "\",\"trades\":2}", http.body());
        assertEquals(50, http.rateLimit());
        assertEquals(49, http.rateRemaining());
        assertEquals(20, http.rateResetMs());
    }

    @Test
    void aBatchWithRefusedLegsListsItsOrdersAndTheLegs()
    {
        final SubmitResponse http = HttpAnswers.render(new Answer.Builder().accepted(3, 100).digest(new byte[32])
            .orderIds(new byte[][] {filled(32, 1)}).legRejects(new int[] {1}, new RejectCode[] {RejectCode.INVALID_QTY})
            .rate(50, 10, 0).build());
        assertEquals("{\"ok\":true,\"sequence\":3,\"digest\":\"0x" + ZEROS + "\",\"orderIds\":[\"0x" + "01".repeat(32) +
            "\"],\"legRejects\":[{\"leg\":1,\"code\":\"INVALID_QTY\"}],\"trades\":0}", http.body());
    }

    @Test
    void aNonceRefusalCarriesTheWindowAndTheServersTime()
    {
        final SubmitResponse http = HttpAnswers.render(
            new Answer.Builder().rejected(4, 1234, RejectCode.NONCE_OUTSIDE_WINDOW)
            .digest(new byte[32]).account(new byte[20]).nonce(10, 256, 12).rate(50, 50, 0).build());
        assertEquals(200, http.status());
        assertEquals(
            "{\"ok\":false,\"code\":\"nonce_outside_window\",\"message\":\"the nonce is at or above floor + window: " +
            "use nextUsableNonce\",\"sequence\":4,\"digest\":\"0x" + ZEROS +
            "\",\"serverTimeMs\":1234,\"nonceFloor\":10," +
            "\"nonceWindow\":256,\"nextUsableNonce\":12}", http.body());
    }

    @Test
    void aRateLimitedActionIsA429WithRetryAfterInWholeSeconds()
    {
        final SubmitResponse http = HttpAnswers.render(new Answer.Builder().rejected(5, 1, RejectCode.RATE_LIMITED)
            .digest(new byte[32]).retryAfterMs(1_001).rate(50, 0, 900).build());
        assertEquals(429, http.status());
        assertEquals(2, http.retryAfterSeconds());
    }

    @Test
    void aSignerRefusalShowsWhatTheServerRecoveredAndTheCanonicalJson()
    {
        final SubmitResponse http = HttpAnswers.render(
            new Answer.Builder().rejected(6, 1, RejectCode.UNAUTHORIZED_SIGNER)
            .digest(new byte[32]).account(filled(20, 0xaa)).signers(filled(20, 1), filled(20, 2),
                "{\"a\":1}".getBytes(StandardCharsets.UTF_8)).build());
        assertEquals(401, http.status());
        assertTrue(http.body()
            .endsWith(",\"expectedSigner\":\"0x" + "aa".repeat(20) + "\",\"recoveredSigner\":{\"rawMode\":\"0x" +
            "01".repeat(20) + "\",\"personalMode\":\"0x" + "02".repeat(20) +
            "\"},\"canonicalJson\":\"{\\\"a\\\":1}\"}"),
            http.body());
    }

    @Test
    void refusalsBeforeTheEngineSayWhichFieldAndWhy()
    {
        final SubmitResponse malformed = HttpAnswers.render(new Answer.Builder()
            .refused(7, 1, RequestRejectReason.MALFORMED, "action.qty\nmust be a positive integer").digest(new byte[32])
            .account(new byte[20]).build());
        assertEquals(400, malformed.status());
        assertEquals(
            "{\"ok\":false,\"code\":\"MALFORMED\",\"sequence\":7,\"field\":\"action.qty\",\"message\":\"must be a " +
            "positive integer\"}", malformed.body());
        final SubmitResponse badSignature = HttpAnswers.render(new Answer.Builder()
            .refused(8, 1, RequestRejectReason.BAD_SIGNATURE, "{\"x\":2}").digest(filled(32, 3))
            .account(filled(20, 4)).build());
        assertEquals(401, badSignature.status());
        assertEquals("{\"ok\":false,\"code\":\"BAD_SIGNATURE\",\"sequence\":8,\"message\":\"the signature bytes are " +
            "not a valid " +
            "secp256k1 signature\",\"expectedSigner\":\"0x" + "04".repeat(20) + "\",\"digest\":\"0x" + "03".repeat(32) +
            "\",\"canonicalJson\":\"{\\\"x\\\":2}\"}", badSignature.body());
        final SubmitResponse unapplied = HttpAnswers.render(new Answer.Builder().unapplied(9, 1).build());
        assertEquals(500, unapplied.status());
        assertEquals(
            "{\"ok\":false,\"code\":\"INTERNAL\",\"message\":\"the engine did not apply this command record\"," +
            "\"sequence\":9}", unapplied.body());
    }

    @Property(tries = 300)
    void everyCodeAndReasonRendersAsJsonWithItsStatus(@ForAll final RejectCode code,
        @ForAll final RequestRejectReason reason,
        @ForAll final String detail) throws JsonReader.JsonException
    {
        final SubmitResponse rejected = HttpAnswers.render(
            new Answer.Builder().rejected(1, 1, code).digest(new byte[32])
            .account(new byte[20]).build());
        assertEquals(HttpAnswers.status(code), rejected.status());
        assertTrue(JsonReader.read(rejected.body().getBytes(StandardCharsets.UTF_8)) instanceof Map<?, ?>);
        final SubmitResponse refused = HttpAnswers.render(new Answer.Builder().refused(1, 1, reason, detail)
            .digest(new byte[32]).account(new byte[20]).build());
        assertEquals(HttpAnswers.status(reason), refused.status());
        assertTrue(JsonReader.read(refused.body().getBytes(StandardCharsets.UTF_8)) instanceof Map<?, ?>,
            refused.body());
    }
}
