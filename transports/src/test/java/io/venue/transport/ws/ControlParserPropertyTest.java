package io.venue.transport.ws;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whatever a client sends, the parser either reads a control message or refuses it with a {@link
 * ControlParser.BadControl} carrying a documented code: it never throws anything else (a crash of the connection).
 */
class ControlParserPropertyTest
{
    @Property(tries = 2_000)
    void randomBytesAreReadOrRefused(@ForAll final byte[] bytes)
    {
        check(bytes);
    }

    @Property(tries = 2_000)
    void mutatedMessagesAreReadOrRefused(@ForAll("mutated") final String text)
    {
        check(text.getBytes(StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> mutated()
    {
        final String[] valid = {
            "{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"],\"resume\":{\"book.1\":{\"epoch\":\"e\"," +
                "\"seq\":1}}}",
            "{\"method\":\"resend\",\"id\":2,\"channel\":\"fills\",\"fromSeq\":10,\"toSeq\":500}",
            "{\"method\":\"auth\",\"id\":3,\"token\":\"spws1.a.b\"}",
            "{\"method\":\"ping\",\"id\":4}",
        };
        return Arbitraries.of(valid).flatMap(base -> Arbitraries.integers().between(0, base.length() - 1)
            .flatMap(at -> Arbitraries.strings().ofMaxLength(6).withChars("{}[]\":,-.0123456789eE\\ a")
                .map(insert -> base.substring(0, at) + insert + base.substring(at + 1))));
    }

    private static void check(final byte[] bytes)
    {
        try
        {
            assertNotNull(ControlParser.parse(bytes, 32).method());
        }
        catch (final ControlParser.BadControl bad)
        {
            assertTrue(bad.code.equals("BAD_JSON") || bad.code.equals("BAD_REQUEST") ||
                bad.code.equals("UNKNOWN_METHOD"), bad.code);
            assertTrue(bad.id == null || bad.id >= 0 && bad.id <= ControlParser.MAX_ID);
        }
    }
}
