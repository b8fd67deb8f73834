package io.venue.action.json;

import io.venue.action.ActionArbitraries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random and mutated bodies: the parser never throws, and every refusal is named.
 */
class SignedActionParserFuzzTest
{
    private final SignedActionParser parser = new SignedActionParser();

    @Property(tries = 5000)
    void randomBytesYieldANamedError(@ForAll final byte[] body)
    {
        assertNamedOutcome(parser.parse(body));
    }

    @Property(tries = 20000)
    void mutatedValidBodiesNeverThrow(@ForAll("mutatedBodies") final byte[] body)
    {
        final ParseResult result = parser.parse(body);
        assertNamedOutcome(result);
        if (result.isOk())
        {
            // whatever survived mutation must still be canonical-encodable and re-parse to itself
            final byte[] again = CanonicalJson.signedActionBody(result.signedAction());
            assertEquals(result.signedAction(), parser.parse(again).signedAction());
        }
    }

    private static void assertNamedOutcome(final ParseResult result)
    {
        if (result.isOk())
        {
            assertNull(result.code());
            return;
        }
        assertFalse(result.isOk());
        assertNotNull(result.code());
        assertNotNull(result.field());
        assertTrue(result.message() != null && !result.message().isBlank(), result::toString);
    }

    @Provide
    Arbitrary<byte[]> mutatedBodies()
    {
        final Arbitrary<byte[]> bodies = ActionArbitraries.signedActions().map(CanonicalJson::signedActionBody);
        return Combinators.combine(bodies, Arbitraries.integers().between(1, 4), Arbitraries.longs())
            .as((body, rounds, seed) -> BodyMutator.mutate(body, rounds, new SplittableRandom(seed)));
    }
}
