package io.venue.action.json;

import io.venue.action.ActionArbitraries;
import io.venue.action.SignedAction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;

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
            .as((body, rounds, seed) -> mutate(body, rounds, new java.util.SplittableRandom(seed)));
    }

    private static final List<byte[]> TOKENS = List.of(
        "\"".getBytes(), "{".getBytes(), "}".getBytes(), "[".getBytes(), "]".getBytes(), ",".getBytes(), ":".getBytes(),
        "null".getBytes(), "true".getBytes(), "-".getBytes(), "99999999999999999999".getBytes(), "\\".getBytes(),
        "\"Batch\"".getBytes(), "0x".getBytes(), " ".getBytes(), "1e5".getBytes(), "\u0000".getBytes());

    static byte[] mutate(final byte[] body, final int rounds, final java.util.SplittableRandom random)
    {
        byte[] out = body;
        for (int r = 0; r < rounds; r++)
        {
            final int at = random.nextInt(out.length + 1);
            switch (random.nextInt(5))
            {
                case 0 -> out = java.util.Arrays.copyOf(out, Math.max(1, at)); // truncate
                case 1 ->
                { // flip a byte
                    if (at < out.length)
                    {
                        out = out.clone();
                        out[at] = (byte)random.nextInt(256);
                    }
                }
                case 2 ->
                { // delete a span
                    final int to = Math.min(out.length, at + 1 + random.nextInt(8));
                    final byte[] cut = new byte[out.length - (to - at)];
                    System.arraycopy(out, 0, cut, 0, at);
                    System.arraycopy(out, to, cut, at, out.length - to);
                    out = cut.length == 0 ? new byte[]{'{'} : cut;
                }
                default ->
                { // insert a JSON token
                    final byte[] token = TOKENS.get(random.nextInt(TOKENS.size()));
                    final byte[] grown = new byte[out.length + token.length];
                    System.arraycopy(out, 0, grown, 0, at);
                    System.arraycopy(token, 0, grown, at, token.length);
                    System.arraycopy(out, at, grown, at + token.length, out.length - at);
                    out = grown;
                }
            }
        }
        return out;
    }

}
