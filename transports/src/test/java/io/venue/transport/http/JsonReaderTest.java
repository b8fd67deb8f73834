package io.venue.transport.http;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonReaderTest
{
    private static Object read(final String text) throws JsonReader.JsonException
    {
        return JsonReader.read(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsEveryKindOfValue() throws Exception
    {
        final Object value = read(" {\"a\":[1,-2,18446744073709551615,1.5e3,true,false,null],\"b\":\"x\\u0041\\n\\\"\",\"c\":{}} ");
        final Map<?, ?> map = (Map<?, ?>)value;
        assertEquals(List.of("a", "b", "c"), List.copyOf(map.keySet()), "document order");
        final List<?> a = (List<?>)map.get("a");
        assertEquals(1L, a.get(0));
        assertEquals(-2L, a.get(1));
        assertEquals(new BigInteger("18446744073709551615"), a.get(2));
        assertEquals(new BigDecimal("1.5e3"), a.get(3));
        assertEquals(Boolean.TRUE, a.get(4));
        assertEquals(null, a.get(6));
        assertEquals("xA\n\"", map.get("b"));
        assertEquals(Map.of(), map.get("c"));
    }

    @Test
    void refusesWhatIsNotStrictJson()
    {
        for (final String bad : List.of("", "{", "{\"a\":1,}", "{\"a\":1,\"a\":2}", "[1,]", "01", "1.", "-", "+1", "'a'",
            "{\"a\" 1}", "\"\u0001\"", "\"\\x\"", "tru", "nul", "{}{}", "[" .repeat(17) + "]".repeat(17), "\"\\u12\"",
            "{a:1}", "1e", "[1 2]", "1e99999999999", "9".repeat(41), "[" + "1".repeat(500_000) + "]"))
        {
            assertThrows(JsonReader.JsonException.class, () -> read(bad), bad);
        }
        assertThrows(JsonReader.JsonException.class, () -> JsonReader.read(new byte[]{'"', (byte)0xC3, '"'}), "bad UTF-8");
    }

    @Property(tries = 3000)
    void randomBytesAreReadOrRefusedNeverThrownAt(@ForAll @Size(max = 200) final byte[] bytes)
    {
        try
        {
            JsonReader.read(bytes);
        }
        catch (final JsonReader.JsonException refused)
        {
            assertTrue(refused.getMessage().length() > 0);
        }
    }

    @Property(tries = 2000)
    void mutatedDocumentsAreReadOrRefusedNeverThrownAt(@ForAll final long seed)
    {
        final byte[] valid = "{\"a\":[1,2.5,{\"b\":\"c\\n\"}],\"d\":null,\"e\":true}".getBytes(StandardCharsets.UTF_8);
        final Random random = new Random(seed);
        final byte[] bytes = valid.clone();
        for (int i = random.nextInt(4); i >= 0; i--)
        {
            final String alphabet = "{}[]\",:\\0-.e \u00ff";
            bytes[random.nextInt(bytes.length)] = (byte)alphabet.charAt(random.nextInt(alphabet.length()));
        }
        try
        {
            JsonReader.read(bytes);
        }
        catch (final JsonReader.JsonException refused)
        {
            assertTrue(refused.getMessage().contains("at character") || refused.getMessage().contains("UTF-8"));
        }
    }
}
