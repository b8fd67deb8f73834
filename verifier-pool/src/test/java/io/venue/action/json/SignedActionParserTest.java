package io.venue.action.json;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.Cancel;
import io.venue.action.OrderId;
import io.venue.action.SetKillSwitch;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SignedActionParserTest
{
    private static final String ACCOUNT = "0x00112233445566778899aabbccddeeff00112233";
    private static final String SIG_BYTES = "[" + String.join(",", Collections.nCopies(64, "1")) + ",27]";
    private static final String PLACE = "{\"SpotPlaceOrder\":{\"market\":1,\"side\":\"Bid\",\"price\":100,\"qty\":5," +
        "\"stp_mode\":null,\"time_in_force\":\"gtc\",\"is_market\":false,\"reduce_only\":false,\"expires_at\":null}}";

    private final SignedActionParser parser = new SignedActionParser();

    private static String payload(final String fields)
    {
        return "{\"payload\":{" + fields + "},\"signature\":{\"scheme\":\"EcdsaSecp256k1\",\"bytes\":" +
            SIG_BYTES + "}}";
    }

    private static String body(final String action)
    {
        return payload(
            "\"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":" + action);
    }

    private ParseResult parse(final String text)
    {
        return parser.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private void assertRejected(final String text, final ParseErrorCode code, final String field)
    {
        final ParseResult result = parse(text);
        assertEquals(code, result.code(), () -> result + " for " + text);
        assertEquals(field, result.field(), () -> result.toString());
        assertTrue(result.message() != null && !result.message().isEmpty());
    }

    @Test
    void acceptsAValidPlaceWithKeysInAnyOrderAndWhitespace()
    {
        final ParseResult ordered = parse(body(PLACE));
        assertTrue(ordered.isOk(), ordered::toString);
        final String shuffled = " {\n \"signature\" : {\"bytes\":" + SIG_BYTES + ", \"scheme\":\"EcdsaSecp256k1\"}," +
            "\t\"payload\":{\"action\":" +
            "{\"SpotPlaceOrder\":{\"expires_at\":null,\"reduce_only\":false,\"is_market\":false," +
            "\"time_in_force\":\"gtc\"," +
            "\"stp_mode\":null,\"qty\":5,\"price\":100,\"side\":\"Bid\",\"market\":1}},\"ts\":2," +
            "\"nonce_reservation_id\":null," + "\"nonce\":1,\"account\":\"" + ACCOUNT + "\"}}\r\n";
        final ParseResult result = parse(shuffled);
        assertTrue(result.isOk(), result::toString);
        assertEquals(ordered.signedAction(), result.signedAction());
        final SpotPlaceOrder order = (SpotPlaceOrder)result.signedAction().payload().action();
        assertEquals(Side.BID, order.side());
        assertEquals(TimeInForce.GTC, order.timeInForce());
        assertEquals(27, result.signedAction().signature().v());
    }

    @ParameterizedTest(name = "{0}")
    // CHECKSTYLE.OFF: LineLength - a table of cases, one case a line
    @CsvSource(delimiter = '|', value = {
        "unknown top field        | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"extra\":1,\"action\":{\"Cancel\":{\"order_id\":\"0x" + "00000000000000000000000000000000000000000000000000000000000000aa\"}} | UNKNOWN_FIELD | payload.extra",
        "missing nonce            | \"account\":\"" + ACCOUNT + "\",\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | MISSING_FIELD | payload.nonce",
        "duplicate nonce          | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce\":2,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | DUPLICATE_FIELD | payload.nonce",
        "nonce as string          | \"account\":\"" + ACCOUNT + "\",\"nonce\":\"1\",\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_TYPE | payload.nonce",
        "nonce above u64          | \"account\":\"" + ACCOUNT + "\",\"nonce\":18446744073709551616,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | NUMBER_OUT_OF_RANGE | payload.nonce",
        "nonce negative           | \"account\":\"" + ACCOUNT + "\",\"nonce\":-1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | NUMBER_OUT_OF_RANGE | payload.nonce",
        "nonce fraction           | \"account\":\"" + ACCOUNT + "\",\"nonce\":1.0,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_NUMBER | payload.nonce",
        "nonce exponent           | \"account\":\"" + ACCOUNT + "\",\"nonce\":1e3,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_NUMBER | payload.nonce",
        "nonce leading zero       | \"account\":\"" + ACCOUNT + "\",\"nonce\":01,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_NUMBER | payload.nonce",
        "ts above i64             | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":9223372036854775808,\"action\":{\"CancelAll\":{\"market\":null}} | NUMBER_OUT_OF_RANGE | payload.ts",
        "uppercase account hex    | \"account\":\"0x00112233445566778899AABBCCDDEEFF00112233\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_HEX | payload.account",
        "short account hex        | \"account\":\"0x0011\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_HEX | payload.account",
        "account without 0x       | \"account\":\"0000112233445566778899aabbccddeeff00112233\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_HEX | payload.account",
        "escaped hex              | \"account\":\"\\u0030x00112233445566778899aabbccddeeff001122\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_HEX | payload.account",
        "reservation not null     | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":5,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_VALUE | payload.nonce_reservation_id",
        "client order id null     | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"client_order_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_TYPE | payload.client_order_id",
        "client order id 32 bytes | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"client_order_id\":\"0x00000000000000000000000000000000000000000000000000000000000000aa\",\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null}} | INVALID_HEX | payload.client_order_id",
        "unknown variant          | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"Teleport\":{}} | UNKNOWN_ACTION | payload.action.Teleport",
        "two variants             | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":null},\"Split\":{}} | INVALID_VALUE | payload.action",
        "empty action             | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{} | MISSING_FIELD | payload.action",
        "market above u32         | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CancelAll\":{\"market\":4294967296}} | NUMBER_OUT_OF_RANGE | payload.action.CancelAll.market",
        "kill switch bad target   | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"SetKillSwitch\":{\"scope\":\"venue\",\"account\":null,\"market\":3,\"active\":true}} | INVALID_VALUE | payload.action.SetKillSwitch",
        "bad symbol               | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"CreateAsset\":{\"asset\":1,\"symbol\":\"usd\"}} | INVALID_VALUE | payload.action.CreateAsset.symbol",
        "batch in batch           | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"Batch\":{\"legs\":[{\"Batch\":{\"legs\":[]}}]}} | UNKNOWN_ACTION | payload.action.Batch.legs[0].Batch",
        "empty batch              | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"Batch\":{\"legs\":[]}} | INVALID_VALUE | payload.action.Batch.legs",
        "leg error path           | \"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2,\"action\":{\"Batch\":{\"legs\":[{\"CancelAll\":{\"market\":1}}]}} | UNKNOWN_ACTION | payload.action.Batch.legs[0].CancelAll",
    })
    // CHECKSTYLE.ON: LineLength
    void refusesPayloadProblemsNamingTheField(final String name, final String fields, final ParseErrorCode code,
        final String field)
    {
        assertRejected(payload(fields), code, field);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "side lowercase      | \"side\":\"bid\"                  | INVALID_ENUM   | payload.action.SpotPlaceOrder.side",
        "tif uppercase       | \"time_in_force\":\"GTC\"         | INVALID_ENUM   | " +
        "payload.action.SpotPlaceOrder.time_in_force",
        "stp unknown         | \"stp_mode\":\"none\"             | INVALID_ENUM   | " +
        "payload.action.SpotPlaceOrder.stp_mode",
        "book null           | \"book\":null                     | INVALID_TYPE   | payload.action.SpotPlaceOrder.book",
        "book lowercase      | \"book\":\"yes\"                  | INVALID_ENUM   | payload.action.SpotPlaceOrder.book",
        "is_market as int    | \"is_market\":0                   | INVALID_TYPE   | " +
        "payload.action.SpotPlaceOrder.is_market",
        "price as string     | \"price\":\"100\"                 | INVALID_TYPE   | " +
        "payload.action.SpotPlaceOrder.price",
        "price fraction      | \"price\":0.5                     | INVALID_NUMBER | " +
        "payload.action.SpotPlaceOrder.price",
        "expiry above i64    | \"expires_at\":18446744073709551615 | NUMBER_OUT_OF_RANGE | " +
        "payload.action.SpotPlaceOrder.expires_at",
    })
    void refusesPlaceOrderFieldProblems(final String name, final String replacement, final ParseErrorCode code,
        final String field)
    {
        final String key = replacement.substring(0, replacement.indexOf(':') + 1);
        final String place;
        if (PLACE.contains(key))
        {
            place = PLACE.replaceFirst(Pattern.quote(key) + "[^,}]*", Matcher.quoteReplacement(replacement));
        }
        else
        {
            place = PLACE.replace("\"side\"", replacement + ",\"side\"");
        }
        assertRejected(body(place), code, field);
    }

    @ParameterizedTest(name = "{0}")
    // CHECKSTYLE.OFF: LineLength - a table of cases, one case a line
    @CsvSource(delimiter = '|', value = {
        "64 bytes          | [" + "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1" + "] | INVALID_SIGNATURE_BYTES",
        "empty             | []                                  | INVALID_SIGNATURE_BYTES",
        "byte 256          | [256]                               | INVALID_SIGNATURE_BYTES",
        "negative          | [-1]                                | INVALID_SIGNATURE_BYTES",
        "string element    | [\"1\"]                             | INVALID_SIGNATURE_BYTES",
        "hex string        | \"0x00\"                            | INVALID_TYPE",
    })
    // CHECKSTYLE.ON: LineLength
    void refusesSignatureArraysThatAreNot65Bytes(final String name, final String bytes, final ParseErrorCode code)
    {
        final String text = body(PLACE).replace(SIG_BYTES, bytes);
        assertRejected(text, code, "signature.bytes");
    }

    @Test
    void refuses66SignatureBytes()
    {
        assertRejected(body(PLACE).replace(SIG_BYTES, SIG_BYTES.replace("[", "[1,")),
            ParseErrorCode.INVALID_SIGNATURE_BYTES, "signature.bytes");
    }

    @Test
    void refusesOtherSchemes()
    {
        assertRejected(body(PLACE).replace("EcdsaSecp256k1", "Ed25519"), ParseErrorCode.UNSUPPORTED_SCHEME,
            "signature.scheme");
        assertRejected(body(PLACE).replace("\"EcdsaSecp256k1\"", "7"), ParseErrorCode.INVALID_TYPE, "signature.scheme");
    }

    @Test
    void refusesStructuralProblems()
    {
        assertRejected(body(PLACE) + "x", ParseErrorCode.TRAILING_DATA, "");
        assertRejected(body(PLACE).substring(0, 40), ParseErrorCode.MALFORMED_JSON, "payload.account");
        assertRejected("[]", ParseErrorCode.INVALID_TYPE, "");
        assertEquals(ParseErrorCode.INVALID_BODY_SIZE, parser.parse(new byte[0]).code());
        assertEquals(ParseErrorCode.INVALID_BODY_SIZE,
            new SignedActionParser(10).parse(body(PLACE).getBytes(StandardCharsets.UTF_8)).code());
        assertRejected(body(PLACE).replace("\"is_market\":false", "\"is_market\":fals"), ParseErrorCode.MALFORMED_JSON,
            "payload.action.SpotPlaceOrder.is_market");
    }

    @Test
    void acceptsAThousandLegsAndRefusesOneMore()
    {
        final List<BatchLeg> legs = new ArrayList<>();
        for (int i = 0; i < 1001; i++)
        {
            legs.add(new Cancel(new OrderId(new byte[32])));
        }
        final Address account = Address.of(ACCOUNT);
        final byte[] thousand = CanonicalJson.signedActionBody(new SignedAction(
            new ActionPayload(account, 1, null, 1, new Batch(legs.subList(0, 1000))), new Signature65(new byte[65])));
        assertTrue(parser.parse(thousand).isOk());

        final String text = new String(thousand, StandardCharsets.US_ASCII)
            .replace("\"legs\":[", "\"legs\":[{\"Cancel\":{\"order_id\":\"0x" + "00".repeat(32) + "\"}},");
        assertRejected(text, ParseErrorCode.INVALID_VALUE, "payload.action.Batch.legs");
    }

    @Test
    void killSwitchTargetsFollowTheScope()
    {
        final ParseResult result = parse(body("{\"SetKillSwitch\":{\"scope\":\"account\",\"account\":\"" + ACCOUNT +
            "\",\"market\":null,\"active\":true}}"));
        assertTrue(result.isOk(), result::toString);
        final SetKillSwitch killSwitch = (SetKillSwitch)result.signedAction().payload().action();
        assertEquals(Address.of(ACCOUNT), killSwitch.account());
        assertEquals(SetKillSwitch.NO_MARKET, killSwitch.market());
    }
}
