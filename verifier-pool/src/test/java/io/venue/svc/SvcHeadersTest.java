package io.venue.svc;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvcHeadersTest
{
    static final String KEY = "spk_0123456789abcdef";
    static final String PASSPHRASE = "spp_00112233445566778899aabbccddeeff";
    static final String SIG64 = "0x" + "ab".repeat(32);
    static final String SIG128 = "0x" + "cd".repeat(64);
    static final List<String> NAMES = List.of(
        SvcHeaders.AUTH_VERSION, SvcHeaders.KEY, SvcHeaders.NONCE,
        SvcHeaders.TIMESTAMP, SvcHeaders.PASSPHRASE, SvcHeaders.SIGNATURE);

    private final SvcHeaders headers = new SvcHeaders();

    static Map<String, String> v2()
    {
        final Map<String, String> map = new HashMap<>();
        map.put(SvcHeaders.AUTH_VERSION, "2");
        map.put(SvcHeaders.KEY, KEY);
        map.put(SvcHeaders.NONCE, "7");
        map.put(SvcHeaders.TIMESTAMP, "1700000000000");
        map.put(SvcHeaders.PASSPHRASE, PASSPHRASE);
        map.put(SvcHeaders.SIGNATURE, SIG64);
        return map;
    }

    static Map<String, String> v3()
    {
        final Map<String, String> map = v2();
        map.put(SvcHeaders.AUTH_VERSION, "3");
        map.remove(SvcHeaders.PASSPHRASE);
        map.put(SvcHeaders.SIGNATURE, SIG128);
        return map;
    }

    private SvcAuthResult parse(final Map<String, String> map)
    {
        return headers.parse(map::get);
    }

    private void assertRejected(
        final Map<String, String> map, final SvcAuthResult expected, final String header)
    {
        assertEquals(expected, parse(map), () -> "headers " + map);
        assertEquals(header, headers.errorField());
        assertNotNull(headers.errorMessage());
        assertTrue(headers.errorMessage().startsWith(header), headers.errorMessage());
    }

    private static Map<String, String> with(final Map<String, String> map, final String name, final String value)
    {
        map.put(name, value);
        return map;
    }

    @Test
    void validVersion2()
    {
        assertEquals(SvcAuthResult.OK, parse(v2()));
        assertEquals(SvcAuthVersion.HMAC_SHA256, headers.version());
        assertEquals(KEY, headers.apiKeyId());
        assertEquals(7, headers.nonce());
        assertEquals(1_700_000_000_000L, headers.timestampMs());
        assertEquals(PASSPHRASE, headers.passphrase());
        assertArrayEquals(HexFormat.of().parseHex("ab".repeat(32)), headers.signature());
        assertNull(headers.errorField());
        assertNull(headers.errorMessage());
    }

    @Test
    void validVersion3()
    {
        assertEquals(SvcAuthResult.OK, parse(v3()));
        assertEquals(SvcAuthVersion.ED25519, headers.version());
        assertNull(headers.passphrase());
        assertEquals(64, headers.signature().length);
    }

    @Test
    void caseInsensitiveLookupIsTheCallersJob()
    {
        final TreeMap<String, String> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        v2().forEach((name, value) -> map.put(name.toLowerCase(), value));
        assertEquals(SvcAuthResult.OK, headers.parse(map::get));
    }

    @Test
    void everyMissingHeaderIsNamedInCheckOrder()
    {
        for (final String name : NAMES)
        {
            final Map<String, String> map = v2();
            map.remove(name);
            assertRejected(map, SvcAuthResult.MISSING_HEADER, name);
        }
        final Map<String, String> v3 = v3();
        v3.remove(SvcHeaders.SIGNATURE);
        assertRejected(v3, SvcAuthResult.MISSING_HEADER, SvcHeaders.SIGNATURE);
        assertRejected(new HashMap<>(), SvcAuthResult.MISSING_HEADER, SvcHeaders.AUTH_VERSION);
    }

    @Test
    void authVersion()
    {
        for (final String value : List.of("1", "4", "0", "20", "99999999999999999999999"))
        {
            assertRejected(with(v2(), SvcHeaders.AUTH_VERSION, value), SvcAuthResult.UNSUPPORTED_AUTH_VERSION,
                SvcHeaders.AUTH_VERSION);
        }
        for (final String value : List.of("", " 2", "2 ", "02", "+2", "-2", "v2", "2.0", "x", "\u0662"))
        {
            assertRejected(with(v2(), SvcHeaders.AUTH_VERSION, value), SvcAuthResult.INVALID_HEADER,
                SvcHeaders.AUTH_VERSION);
        }
    }

    @Test
    void apiKey()
    {
        for (final String value : List.of(
            "", "spk_0123456789ABCDEF", "spk_0123456789abcde", "spk_0123456789abcdef0", "SPK_0123456789abcdef",
            "sps_0123456789abcdef", " spk_0123456789abcdef", "spk_0123456789abcdeg", "0123456789abcdef"))
        {
            assertRejected(with(v2(), SvcHeaders.KEY, value), SvcAuthResult.INVALID_HEADER, SvcHeaders.KEY);
        }
    }

    @Test
    void nonceRange()
    {
        assertEquals(SvcAuthResult.OK, parse(with(v2(), SvcHeaders.NONCE, "0")));
        assertEquals(0, headers.nonce());
        assertEquals(SvcAuthResult.OK, parse(with(v2(), SvcHeaders.NONCE, "18446744073709551614")));
        assertEquals(-2L, headers.nonce());
        assertEquals("18446744073709551614", Long.toUnsignedString(headers.nonce()));
        assertEquals(SvcAuthResult.OK, parse(with(v2(), SvcHeaders.NONCE, "9223372036854775808")));
        assertEquals(Long.MIN_VALUE, headers.nonce());
        assertEquals(SvcAuthResult.OK, parse(with(v2(), SvcHeaders.NONCE, "9999999999999999999")));
        assertEquals("9999999999999999999", Long.toUnsignedString(headers.nonce()));
        assertEquals(SvcAuthResult.OK, parse(with(v2(), SvcHeaders.NONCE, "10000000000000000000")));
        assertEquals("10000000000000000000", Long.toUnsignedString(headers.nonce()));

        assertRejected(with(v2(), SvcHeaders.NONCE, "18446744073709551615"), SvcAuthResult.NONCE_RESERVED,
            SvcHeaders.NONCE);
        for (final String value : List.of(
            "18446744073709551616", "18446744073709551625", "19999999999999999999", "99999999999999999999",
            "100000000000000000000", "1" + "0".repeat(400)))
        {
            assertRejected(with(v2(), SvcHeaders.NONCE, value), SvcAuthResult.NONCE_OUT_OF_RANGE, SvcHeaders.NONCE);
        }
    }

    @Test
    void nonceFormat()
    {
        for (final String value : List.of(
            "", "-1", "+1", "01", "00", "000", " 1", "1 ", "\t1", "1\n", "1e3", "0x10", "1_000", "1,000", "1.0",
            "\u0661", "\uff11", "-0", "18446744073709551614 "))
        {
            assertRejected(with(v2(), SvcHeaders.NONCE, value), SvcAuthResult.INVALID_HEADER, SvcHeaders.NONCE);
        }
    }

    @Test
    void timestamp()
    {
        assertEquals(SvcAuthResult.OK, parse(with(v2(), SvcHeaders.TIMESTAMP, "0")));
        assertEquals(SvcAuthResult.OK, parse(with(v2(), SvcHeaders.TIMESTAMP, "9223372036854775807")));
        assertEquals(Long.MAX_VALUE, headers.timestampMs());
        for (final String value : List.of(
            "", "-1", "+1", "01", " 1", "1 ", "1.5", "9223372036854775808", "18446744073709551615", "1700000000000ms"))
        {
            assertRejected(with(v2(), SvcHeaders.TIMESTAMP, value), SvcAuthResult.INVALID_HEADER, SvcHeaders.TIMESTAMP);
        }
    }

    @Test
    void passphrase()
    {
        for (final String value : List.of(
            "", "spp_00112233445566778899AABBCCDDEEFF", "spp_00112233445566778899aabbccddeef",
            "spp_00112233445566778899aabbccddeeff0", "spk_00112233445566778899aabbccddeeff", " " + PASSPHRASE))
        {
            assertRejected(with(v2(), SvcHeaders.PASSPHRASE, value), SvcAuthResult.INVALID_HEADER,
                SvcHeaders.PASSPHRASE);
        }
        assertRejected(with(v3(), SvcHeaders.PASSPHRASE, PASSPHRASE), SvcAuthResult.PASSPHRASE_NOT_ALLOWED,
            SvcHeaders.PASSPHRASE);
        assertRejected(with(v3(), SvcHeaders.PASSPHRASE, ""), SvcAuthResult.PASSPHRASE_NOT_ALLOWED,
            SvcHeaders.PASSPHRASE);
    }

    @Test
    void signatureLengthFollowsTheVersion()
    {
        assertRejected(with(v2(), SvcHeaders.SIGNATURE, SIG128), SvcAuthResult.INVALID_HEADER, SvcHeaders.SIGNATURE);
        assertRejected(with(v3(), SvcHeaders.SIGNATURE, SIG64), SvcAuthResult.INVALID_HEADER, SvcHeaders.SIGNATURE);
        for (final String value : List.of(
            "", "0x", "ab".repeat(32), "0X" + "ab".repeat(32), "0x" + "AB".repeat(32), "0x" + "ab".repeat(31) + "a",
            "0x" + "ab".repeat(31) + "abc", "0x" + "ab".repeat(31) + "ag", " " + SIG64, SIG64 + " "))
        {
            assertRejected(with(v2(), SvcHeaders.SIGNATURE, value), SvcAuthResult.INVALID_HEADER, SvcHeaders.SIGNATURE);
        }
    }

    @Test
    void reusedParserForgetsThePreviousRequest()
    {
        assertEquals(SvcAuthResult.OK, parse(v2()));
        assertEquals(SvcAuthResult.MISSING_HEADER, parse(new HashMap<>()));
        assertNull(headers.apiKeyId());
        assertNull(headers.passphrase());
        assertEquals(0, headers.signature().length);
        assertEquals(SvcAuthResult.OK, parse(v3()));
        assertNull(headers.passphrase());
    }

    @Property(tries = 2000)
    void randomHeaderMapsNeverThrowAndNameTheirError(@ForAll("headerMaps") final Map<String, String> map)
    {
        final SvcAuthResult result = parse(map);
        assertNotNull(result);
        if (result == SvcAuthResult.OK)
        {
            assertNull(headers.errorField());
        }
        else
        {
            assertTrue(NAMES.contains(headers.errorField()), headers.errorField());
            assertTrue(headers.errorMessage().startsWith(headers.errorField()));
            assertTrue(result.httpStatus() == 400, result::name);
        }
    }

    @Provide
    Arbitrary<Map<String, String>> headerMaps()
    {
        final Arbitrary<String> anyValue = Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(140),
            Arbitraries.strings().withChars("0123456789abcdefABx_-+ spkp").ofMaxLength(140),
            Arbitraries.of("2", "3", KEY, "0", "18446744073709551614", "18446744073709551615", "18446744073709551616",
                PASSPHRASE, SIG64, SIG128, "1700000000000"));
        final Arbitrary<Map<String, String>> base = Arbitraries.of(v2(), v3()).map(HashMap::new);
        final Arbitrary<List<String>> toReplace = Arbitraries.of(NAMES).list().ofMaxSize(3);
        final Arbitrary<List<String>> toDrop = Arbitraries.of(NAMES).list().ofMaxSize(2);
        return Combinators.combine(base, toReplace, anyValue.list().ofSize(3), toDrop).as(
            (map, replace, values, drop) ->
            {
                for (int i = 0; i < replace.size(); i++)
                {
                    map.put(replace.get(i), values.get(i));
                }
                drop.forEach(map::remove);
                return map;
            });
    }
}
