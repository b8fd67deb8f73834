package io.venue.action.json;

import io.venue.action.ActionArbitraries;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.FixRateTier;
import io.venue.action.SetFixOnboarding;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SetFixOnboarding operator action's JSON: every valid record round-trips through its canonical bytes, every
 * mutation of one is refused with a named error or parses to a record that round-trips, and each rule has its refusal.
 */
class SetFixOnboardingParserTest
{
    private static final String ACCOUNT = "0x00112233445566778899aabbccddeeff00112233";
    private static final String SIG_BYTES = "[" + String.join(",", Collections.nCopies(64, "1")) + ",27]";
    private static final String PATH = "payload.action.SetFixOnboarding.";

    private final SignedActionParser parser = new SignedActionParser();

    @Property(tries = 2000)
    void validRecordsRoundTrip(@ForAll("records") final SetFixOnboarding record)
    {
        final SignedAction signed = signed(record);
        final ParseResult result = parser.parse(CanonicalJson.signedActionBody(signed));
        assertTrue(result.isOk(), result::toString);
        assertEquals(signed, result.signedAction());
    }

    @Property(tries = 10000)
    void mutatedRecordsAreRefusedByNameOrRoundTrip(@ForAll("mutated") final byte[] body)
    {
        final ParseResult result = parser.parse(body);
        if (result.isOk())
        {
            assertNull(result.code());
            final byte[] again = CanonicalJson.signedActionBody(result.signedAction());
            assertEquals(result.signedAction(), parser.parse(again).signedAction());
            return;
        }
        assertNotNull(result.code());
        assertNotNull(result.field());
        assertTrue(result.message() != null && !result.message().isBlank(), result::toString);
    }

    @Test
    void readsEveryField()
    {
        final ParseResult result = parse(action("\"spk_00000000000000ab\"", "[3,7]", "\"premium\"", "60000"));
        assertTrue(result.isOk(), result::toString);
        final SetFixOnboarding record = (SetFixOnboarding)result.signedAction().payload().action();
        assertEquals(new SetFixOnboarding("spk_00000000000000ab", true, false, List.of(3L, 7L), FixRateTier.PREMIUM,
            true, 60_000), record);
        assertEquals(0xabL, record.credentialBits());
        final ParseResult all = parse(action("\"spk_00000000000000ab\"", "null", "null", "0"));
        assertTrue(all.isOk(), all::toString);
        assertNull(((SetFixOnboarding)all.signedAction().payload().action()).markets());
    }

    @Test
    void refusesEachBrokenRule()
    {
        assertRejected(action("\"spk_00000000000000AB\"", "[1]", "null", "0"), ParseErrorCode.INVALID_VALUE,
            PATH + "credential_id");
        assertRejected(action("\"spk_0000000000000000\"", "[1]", "null", "0"), ParseErrorCode.INVALID_VALUE,
            PATH + "credential_id");
        assertRejected(action("\"spk_00ab\"", "[1]", "null", "0"), ParseErrorCode.INVALID_VALUE,
            PATH + "credential_id");
        assertRejected(action("\"spk_00000000000000ab\"", "[7,3]", "null", "0"), ParseErrorCode.INVALID_VALUE,
            "payload.action.SetFixOnboarding");
        assertRejected(action("\"spk_00000000000000ab\"", "[3,3]", "null", "0"), ParseErrorCode.INVALID_VALUE,
            "payload.action.SetFixOnboarding");
        assertRejected(action("\"spk_00000000000000ab\"", "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]", "null", "0"),
            ParseErrorCode.INVALID_VALUE, PATH + "markets");
        assertRejected(action("\"spk_00000000000000ab\"", "[4294967296]", "null", "0"),
            ParseErrorCode.NUMBER_OUT_OF_RANGE, PATH + "markets[0]");
        assertRejected(action("\"spk_00000000000000ab\"", "[1]", "\"gold\"", "0"), ParseErrorCode.INVALID_ENUM,
            PATH + "rate_tier");
        assertRejected(action("\"spk_00000000000000ab\"", "[1]", "null", "60001"), ParseErrorCode.INVALID_VALUE,
            "payload.action.SetFixOnboarding");
        assertRejected(action("\"spk_00000000000000ab\"", "\"all\"", "null", "0"), ParseErrorCode.INVALID_TYPE,
            PATH + "markets");
    }

    private static String action(final String credential, final String markets, final String tier,
        final String grace)
    {
        return "{\"payload\":{\"account\":\"" + ACCOUNT + "\",\"nonce\":1,\"nonce_reservation_id\":null,\"ts\":2," +
            "\"action\":{\"SetFixOnboarding\":{\"credential_id\":" + credential + ",\"fix_enabled\":true," +
            "\"drop_copy\":false,\"markets\":" + markets + ",\"rate_tier\":" + tier +
            ",\"cancel_on_disconnect\":true," +
            "\"cod_grace_ms\":" + grace + "}}},\"signature\":{\"scheme\":\"EcdsaSecp256k1\",\"bytes\":" + SIG_BYTES +
            "}}";
    }

    private ParseResult parse(final String text)
    {
        return parser.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private void assertRejected(final String text, final ParseErrorCode code, final String field)
    {
        final ParseResult result = parse(text);
        assertEquals(code, result.code(), () -> result + " for " + text);
        assertEquals(field, result.field(), result::toString);
        assertTrue(result.message() != null && !result.message().isEmpty());
    }

    private static SignedAction signed(final SetFixOnboarding record)
    {
        return new SignedAction(new ActionPayload(new Address(new byte[20]), 1, null, 2, record),
            new Signature65(new byte[Signature65.LENGTH]));
    }

    @Provide
    Arbitrary<SetFixOnboarding> records()
    {
        return ActionArbitraries.fixOnboardings();
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return Combinators.combine(ActionArbitraries.fixOnboardings().map(r -> CanonicalJson.signedActionBody(
            signed(r))), Arbitraries.integers().between(1, 4), Arbitraries.longs())
            .as((body, rounds, seed) -> BodyMutator.mutate(body, rounds, new SplittableRandom(seed)));
    }
}
