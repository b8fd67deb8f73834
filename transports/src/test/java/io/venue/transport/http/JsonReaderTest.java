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
        final Object value = read(
            " {\"a\":[1,-2,18446744073709551615,1.5e3,true,false,null],\"b\":\"x\\u0041\\n\\\"\",\"c\":{}} ");
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
        for (final String bad : List.of("", "{", "{\"a\":1,}", "{\"a\":1,\"a\":2}", "[1,]", "01", "1.", "-", "+1",
            "'a'",
            "{\"a\" 1}", "\"\u0001\"", "\"\\x\"", "tru", "nul", "{}{}", "[" .repeat(17) + "]".repeat(17), "\"\\u12\"",
            "{a:1}", "1e", "[1 2]", "1e99999999999", "9".repeat(41), "[" + "1".repeat(500_000) + "]"))
        {
            assertThrows(JsonReader.JsonException.class, () -> read(bad), bad);
        }
        assertThrows(JsonReader.JsonException.class,
            () -> JsonReader.read(new byte[]{'"', (byte)0xC3, '"'}), "bad UTF-8");
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

    @Test
    void unicodeEscapesTakeAsciiHexAndWholeSurrogatePairsOnly() throws Exception
    {
        assertEquals("\ud83d\ude00A", read("\"\\ud83d\\uDE00\\u0041\""), "a pair, either case");
        for (final String bad : List.of("\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83dx\"", "\"\\ud83d\\u0041\"",
            "\"\\ud83d\\ud83d\\ude00\"", "\"\\u\uff10041\"", "\"\\u\u0660041\"", "\"\\u004\uff21\""))
        {
            final JsonReader.JsonException refused = assertThrows(JsonReader.JsonException.class, () -> read(bad), bad);
            assertTrue(refused.getMessage().contains("surrogate") || refused.getMessage().contains("hex digit"),
                refused.getMessage());
        }
    }

    /** Digits Character.digit takes in radix 16 that are not ASCII: fullwidth, Arabic-Indic, Devanagari. */
    private static final String LOOKALIKES = "\uff10\uff11\uff19\uff21\uff26\uff41\uff46\u0660\u0669\u0966\u096f";

    @Property(tries = 3000)
    void randomUnicodeEscapesReadAsTheirCodeUnitsOrAreRefused(@ForAll final long seed)
    {
        final Random random = new Random(seed);
        final StringBuilder json = new StringBuilder("\"");
        final StringBuilder units = new StringBuilder();
        boolean asciiHex = true;
        for (int escapes = 1 + random.nextInt(3); escapes > 0; escapes--)
        {
            final int pick = random.nextInt(4);
            final char unit = (char)(pick == 0 ? 0xD800 + random.nextInt(0x400) :
                pick == 1 ? 0xDC00 + random.nextInt(0x400) : random.nextInt(0x10000));
            units.append(unit);
            final char[] digits = String.format("%04x", (int)unit).toCharArray();
            for (int i = 0; i < 4; i++)
            {
                if (random.nextBoolean())
                {
                    digits[i] = Character.toUpperCase(digits[i]);
                }
                if (random.nextInt(24) == 0)
                {
                    digits[i] = LOOKALIKES.charAt(random.nextInt(LOOKALIKES.length()));
                    asciiHex = false;
                }
            }
            json.append("\\u").append(digits);
        }
        json.append('"');
        final boolean whole = asciiHex && wellFormed(units);
        try
        {
            assertEquals(units.toString(), read(json.toString()), json::toString);
            assertTrue(whole, () -> "read, though not ASCII hex digits or not whole pairs: " + json);
        }
        catch (final JsonReader.JsonException refused)
        {
            assertTrue(!whole, () -> "refused " + json + ": " + refused.getMessage());
            assertTrue(refused.getMessage().contains("surrogate") || refused.getMessage().contains("hex digit"),
                refused.getMessage());
        }
    }

    /** Every high surrogate followed by a low one, and no low one otherwise (the model, independent of the reader). */
    private static boolean wellFormed(final CharSequence units)
    {
        for (int i = 0; i < units.length(); i++)
        {
            final char c = units.charAt(i);
            if (c >= 0xDC00 && c <= 0xDFFF)
            {
                return false;
            }
            if (c >= 0xD800 && c <= 0xDBFF)
            {
                if (i + 1 == units.length() || units.charAt(i + 1) < 0xDC00 || units.charAt(i + 1) > 0xDFFF)
                {
                    return false;
                }
                i++;
            }
        }
        return true;
    }
}
