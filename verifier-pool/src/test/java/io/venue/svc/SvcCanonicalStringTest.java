package io.venue.svc;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class SvcCanonicalStringTest
{
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void hmacStringHasEightLinesAndNoFinalLineFeed() throws Exception
    {
        final byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        final String text = SvcCanonicalString.of(
            SvcAuthVersion.HMAC_SHA256, "spk_0123456789abcdef", 42, 1_700_000_000_000L,
            "post", "/api/v1/mm/orders/replace", "b=2&a=1", body);

        final String expected = String.join("\n",
            "SERVICE-HMAC-V2",
            "svc-key:spk_0123456789abcdef",
            "svc-nonce:42",
            "svc-timestamp:1700000000000",
            "method:POST",
            "path:/api/v1/mm/orders/replace",
            "query:a=1&b=2",
            "body-sha256:" + sha256Hex(body));
        assertEquals(expected, text);
        assertFalse(text.endsWith("\n"));
        assertEquals(8, text.split("\n", -1).length);
    }

    @Test
    void ed25519StringUsesItsVersionLineAndEmptyQueryAndBody()
    {
        final String text = SvcCanonicalString.of(
            SvcAuthVersion.ED25519, "spk_0123456789abcdef", 0, 5, "GET", "/api/v1/bsl/limits", null, null);

        assertEquals(String.join("\n",
            "SERVICE-ED25519-V1",
            "svc-key:spk_0123456789abcdef",
            "svc-nonce:0",
            "svc-timestamp:5",
            "method:GET",
            "path:/api/v1/bsl/limits",
            "query:",
            "body-sha256:" + EMPTY_SHA256), text);
    }

    @Test
    void nonceIsWrittenAsUnsignedDecimal()
    {
        assertEquals("svc-nonce:18446744073709551614", line(-2L, 2));
        assertEquals("svc-nonce:9223372036854775808", line(Long.MIN_VALUE, 2));
        assertEquals("svc-nonce:9223372036854775807", line(Long.MAX_VALUE, 2));
        assertEquals("svc-nonce:10", line(10, 2));
    }

    @Test
    void onlyAsciiLettersOfTheMethodAreUpperCased()
    {
        final String text = SvcCanonicalString.of(
            SvcAuthVersion.HMAC_SHA256, "spk_0123456789abcdef", 1, 1, "dElete", "/", "", new byte[0]);
        assertEquals("method:DELETE", text.split("\n")[4]);
    }

    @Test
    void canonicalQueryCases()
    {
        assertEquals("", SvcCanonicalString.canonicalQuery(null));
        assertEquals("", SvcCanonicalString.canonicalQuery(""));
        assertEquals("", SvcCanonicalString.canonicalQuery("&"));
        assertEquals("", SvcCanonicalString.canonicalQuery("&&"));
        assertEquals("a=1&b=2", SvcCanonicalString.canonicalQuery("b=2&a=1"));
        assertEquals("a=1", SvcCanonicalString.canonicalQuery("a=1&"));
        assertEquals("a=1", SvcCanonicalString.canonicalQuery("&a=1"));
        assertEquals("a=1&b=2", SvcCanonicalString.canonicalQuery("b=2&&a=1&"));
        assertEquals("a=1&a=1", SvcCanonicalString.canonicalQuery("a=1&a=1"));
        assertEquals("a=1&a=2", SvcCanonicalString.canonicalQuery("a=2&a=1"));
        assertEquals("a&a=1&ab", SvcCanonicalString.canonicalQuery("ab&a=1&a"));
        assertEquals("B=1&a=1", SvcCanonicalString.canonicalQuery("a=1&B=1"));
        // Nothing is decoded: %41 stays three characters and sorts as such.
        assertEquals("a=%42&b=%41", SvcCanonicalString.canonicalQuery("b=%41&a=%42"));
        assertEquals("a=b%20c&a=b+c", SvcCanonicalString.canonicalQuery("a=b+c&a=b%20c"));
        assertEquals("cursor=10&cursor=9", SvcCanonicalString.canonicalQuery("cursor=9&cursor=10"));
    }

    @Test
    void nonAsciiSortsByUtf8BytesWhichIsCodePointOrder()
    {
        assertEquals("z=1&\u00e9=1", SvcCanonicalString.canonicalQuery("\u00e9=1&z=1"));
        // UTF-16 order would put the surrogate pair (U+1F600) first; UTF-8 byte order puts U+FFFD first.
        assertEquals("\ufffd&\ud83d\ude00", SvcCanonicalString.canonicalQuery("\ud83d\ude00&\ufffd"));
    }

    @Test
    void bufferIsReusedAcrossRequestsOfDifferentSizes()
    {
        final SvcCanonicalString canonical = new SvcCanonicalString();
        final String longPath = "/" + "x".repeat(5000);
        final String longQuery = "q=" + "y".repeat(3000) + "&a=1";
        canonical.encode(SvcAuthVersion.HMAC_SHA256, "spk_0123456789abcdef", 1, 2, "GET", longPath, longQuery, null,
            0, 0);
        final String big = canonical.toString();
        assertEquals(SvcCanonicalString.of(
            SvcAuthVersion.HMAC_SHA256, "spk_0123456789abcdef", 1, 2, "GET", longPath, longQuery, null), big);

        final byte[] body = {1, 2, 3, 4, 5};
        final int length = canonical.encode(
            SvcAuthVersion.ED25519, "spk_0123456789abcdef", 3, 4, "PUT", "/p", "b&a", body, 1, 3);
        final String small = canonical.toString();
        assertEquals(small.getBytes(StandardCharsets.UTF_8).length, length);
        assertEquals(SvcCanonicalString.of(
            SvcAuthVersion.ED25519, "spk_0123456789abcdef", 3, 4, "PUT", "/p", "b&a", new byte[]{2, 3, 4}), small);
    }

    @Test
    void manyQueryPartsSortLikeTheReference()
    {
        final StringBuilder raw = new StringBuilder();
        for (int i = 2000; i > 0; i--)
        {
            raw.append("k").append(i % 37).append('=').append(i).append('&');
        }
        assertEquals(referenceQuery(raw.toString()), SvcCanonicalString.canonicalQuery(raw));
    }

    @Property(tries = 500)
    void canonicalQueryMatchesAReferenceImplementation(@ForAll("queries") final String raw)
    {
        assertEquals(referenceQuery(raw), SvcCanonicalString.canonicalQuery(raw));
    }

    @Property(tries = 300)
    void encodedBytesAreTheUtf8OfTheReferenceString(
        @ForAll("queries") final String query,
        @ForAll("queries") final String path,
        @ForAll final long nonce,
        @ForAll final long timestamp,
        @ForAll final byte[] body) throws Exception
    {
        final SvcCanonicalString canonical = new SvcCanonicalString();
        final int length = canonical.encode(
            SvcAuthVersion.HMAC_SHA256, "spk_00000000000000ff", nonce, timestamp, "get", path, query,
            body, 0, body.length);
        final String reference = String.join("\n",
            "SERVICE-HMAC-V2",
            "svc-key:spk_00000000000000ff",
            "svc-nonce:" + Long.toUnsignedString(nonce),
            "svc-timestamp:" + timestamp,
            "method:GET",
            "path:" + path,
            "query:" + referenceQuery(query),
            "body-sha256:" + sha256Hex(body));
        assertEquals(
            HexFormat.of().formatHex(reference.getBytes(StandardCharsets.UTF_8)),
            HexFormat.of().formatHex(Arrays.copyOf(canonical.buffer(), length)));
    }

    @Provide
    Arbitrary<String> queries()
    {
        return Arbitraries.oneOf(
            Arbitraries.strings().withChars("ab=&%2+").ofMaxLength(40),
            Arbitraries.strings().withChars("a&\u00e9\ufffd\ud83d\ude00\ud800").ofMaxLength(20),
            Arbitraries.strings().ofMaxLength(30));
    }

    /** Independent of the class under test: String.split, getBytes and a stream sort. */
    static String referenceQuery(final String raw)
    {
        final List<byte[]> parts = new ArrayList<>();
        for (final String part : raw.split("&", -1))
        {
            if (!part.isEmpty())
            {
                parts.add(part.getBytes(StandardCharsets.UTF_8));
            }
        }
        parts.sort(Arrays::compareUnsigned);
        final List<String> sorted = new ArrayList<>();
        for (final byte[] part : parts)
        {
            sorted.add(new String(part, StandardCharsets.UTF_8));
        }
        return String.join("&", sorted);
    }

    private static String line(final long nonce, final int index)
    {
        return SvcCanonicalString.of(SvcAuthVersion.HMAC_SHA256, "spk_0123456789abcdef", nonce, 1, "GET", "/", "", null)
            .split("\n")[index];
    }

    static String sha256Hex(final byte[] body) throws Exception
    {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    }
}
