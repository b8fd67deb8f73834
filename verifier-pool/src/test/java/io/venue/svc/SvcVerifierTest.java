package io.venue.svc;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvcVerifierTest
{
    // The worked example of docs/MACHINE-AUTH.md; signatures computed independently (Python hmac and
    // the cryptography package) and pinned here.
    static final String EXAMPLE_KEY = "spk_5f2b8c1d9e7a4630";
    static final String EXAMPLE_PASSPHRASE = "spp_7d1c9b3e5a0f2468ace13579bdf02468";
    static final long EXAMPLE_NONCE = 1001;
    static final long EXAMPLE_TS = 1_735_689_600_000L;
    static final String EXAMPLE_BODY = "{\"market\":7,\"qty\":1000000}";
    static final String EXAMPLE_STRING = String.join("\n",
        "SERVICE-HMAC-V2",
        "svc-key:spk_5f2b8c1d9e7a4630",
        "svc-nonce:1001",
        "svc-timestamp:1735689600000",
        "method:POST",
        "path:/api/v1/mm/orders/replace",
        "query:a=1&b=2",
        "body-sha256:31c53281856690a7d7e28735a81be9dd057d2999b29e6b5bd207e13df28f8c83");
    static final String EXAMPLE_HMAC_SIGNATURE = "0x8de795a95faf1346b8e5d9c54debaf117c0e8f1fba71c151d3807cf294c189ce";

    static final String EXAMPLE_ED25519_KEY = "spk_a1b2c3d4e5f60718";
    static final String EXAMPLE_ED25519_STRING = EXAMPLE_STRING
        .replace("SERVICE-HMAC-V2", "SERVICE-ED25519-V1")
        .replace(EXAMPLE_KEY, EXAMPLE_ED25519_KEY);
    static final String EXAMPLE_ED25519_SIGNATURE =
        "0xe1a143ad53ec48b09651ead1b6dd6620f192f47ef85bc036b3b1a579bdd40cc4" +
        "34a06e5e643756662f2d9b7d5855ed101a5ef62640f26c0bfd3b544505b6ef09";
    static final byte[] ED25519_SEED = HexFormat.of().parseHex(
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");

    private static final String PATH = "/api/v1/mm/orders/replace";
    private static final byte[] BODY = EXAMPLE_BODY.getBytes(StandardCharsets.UTF_8);
    private static final long NOW = EXAMPLE_TS;

    private static final SvcCredential HMAC_CREDENTIAL =
        SvcCredential.hmac(EXAMPLE_KEY, SvcHmacV2Test.SECRET, EXAMPLE_PASSPHRASE);
    private static final SvcCredential ED25519_CREDENTIAL =
        SvcCredential.ed25519(EXAMPLE_ED25519_KEY, SvcEd25519V3.publicKey(ED25519_SEED));
    private static final Map<String, SvcCredential> STORE = Map.of(
        EXAMPLE_KEY, HMAC_CREDENTIAL, EXAMPLE_ED25519_KEY, ED25519_CREDENTIAL);

    private final SvcVerifier verifier = new SvcVerifier();
    private final SvcRequestSigner hmacSigner =
        SvcRequestSigner.hmac(EXAMPLE_KEY, SvcHmacV2Test.SECRET, EXAMPLE_PASSPHRASE);
    private final SvcRequestSigner ed25519Signer = SvcRequestSigner.ed25519(EXAMPLE_ED25519_KEY, ED25519_SEED);

    private Map<String, String> signedHmac(final long timestampMs)
    {
        return new HashMap<>(hmacSigner.sign(EXAMPLE_NONCE, timestampMs, "POST", PATH, "b=2&a=1", BODY));
    }

    private Map<String, String> signedEd25519(final long timestampMs)
    {
        return new HashMap<>(ed25519Signer.sign(EXAMPLE_NONCE, timestampMs, "POST", PATH, "b=2&a=1", BODY));
    }

    private SvcAuthResult verify(final Map<String, String> headers, final String method, final String query,
        final byte[] body)
    {
        return verifier.verify(headers::get, STORE::get, method, PATH, query, body, NOW);
    }

    private SvcAuthResult verify(final Map<String, String> headers)
    {
        return verify(headers, "POST", "b=2&a=1", BODY);
    }

    @Test
    void documentedHmacRequestVerifies()
    {
        final Map<String, String> headers = signedHmac(EXAMPLE_TS);
        assertEquals(EXAMPLE_HMAC_SIGNATURE, headers.get(SvcHeaders.SIGNATURE));
        assertEquals(EXAMPLE_STRING, hmacSigner.lastSignedString());
        assertEquals(
            List.of("SVC-Auth-Version", "SVC-Key", "SVC-Nonce", "SVC-Timestamp", "SVC-Passphrase", "SVC-Signature"),
            List.copyOf(hmacSigner.sign(EXAMPLE_NONCE, EXAMPLE_TS, "POST", PATH, "b=2&a=1", BODY).keySet()));

        assertEquals(SvcAuthResult.OK, verify(headers));
        assertNull(verifier.errorField());
        assertEquals(EXAMPLE_STRING, verifier.lastSignedString());
        assertEquals(EXAMPLE_NONCE, verifier.headers().nonce());
    }

    @Test
    void documentedEd25519RequestVerifies()
    {
        final Map<String, String> headers = signedEd25519(EXAMPLE_TS);
        assertEquals(EXAMPLE_ED25519_SIGNATURE, headers.get(SvcHeaders.SIGNATURE));
        assertNull(headers.get(SvcHeaders.PASSPHRASE));
        assertEquals(SvcAuthResult.OK, verify(headers));
        assertEquals(EXAMPLE_ED25519_STRING, verifier.lastSignedString());
    }

    @Test
    void queryOrderAndMethodCaseDoNotMatterButEverythingElseDoes()
    {
        final Map<String, String> headers = signedHmac(EXAMPLE_TS);
        assertEquals(SvcAuthResult.OK, verify(headers, "post", "a=1&&b=2&", BODY));
        assertEquals(SvcAuthResult.BAD_SIGNATURE, verify(headers, "PUT", "b=2&a=1", BODY));
        assertEquals(SvcAuthResult.BAD_SIGNATURE, verify(headers, "POST", "b=2&a=2", BODY));
        assertEquals(SvcAuthResult.BAD_SIGNATURE,
            verify(headers, "POST", "b=2&a=1", "{}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(SvcAuthResult.BAD_SIGNATURE,
            verifier.verify(headers::get, STORE::get, "POST", PATH + "/", "b=2&a=1", BODY, NOW));
        assertEquals(SvcHeaders.SIGNATURE, verifier.errorField());
    }

    @Test
    void skewIsInclusiveAtThirtySeconds()
    {
        for (final long offset : new long[]{-30_000, 30_000, 0, -1, 1})
        {
            assertEquals(SvcAuthResult.OK, verify(signedHmac(NOW + offset)), "offset " + offset);
            assertEquals(SvcAuthResult.OK, verify(signedEd25519(NOW + offset)), "offset " + offset);
        }
        for (final long offset : new long[]{-30_001, 30_001, -3_600_000, NOW})
        {
            assertEquals(SvcAuthResult.SKEW, verify(signedHmac(NOW - offset)), "offset " + offset);
            assertEquals(SvcHeaders.TIMESTAMP, verifier.errorField());
        }
        assertTrue(SvcVerifier.isWithinSkew(Long.MAX_VALUE, Long.MAX_VALUE - 30_000));
        assertEquals(false, SvcVerifier.isWithinSkew(Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals(false, SvcVerifier.isWithinSkew(Long.MAX_VALUE, Long.MIN_VALUE));
        assertEquals(false, SvcVerifier.isWithinSkew(-1, Long.MAX_VALUE));
    }

    @Test
    void wrongPassphraseIsBadPassphraseOnlyWhenTheSignatureVerifies()
    {
        final Map<String, String> headers = signedHmac(EXAMPLE_TS);
        headers.put(SvcHeaders.PASSPHRASE, "spp_7d1c9b3e5a0f2468ace13579bdf02469");
        assertEquals(SvcAuthResult.BAD_PASSPHRASE, verify(headers));
        assertEquals(SvcHeaders.PASSPHRASE, verifier.errorField());

        headers.put(SvcHeaders.SIGNATURE, "0x" + "00".repeat(32));
        assertEquals(SvcAuthResult.BAD_SIGNATURE, verify(headers));
    }

    @Test
    void signatureFromAnotherSecretIsBad()
    {
        final Map<String, String> headers = new HashMap<>(
            SvcRequestSigner.hmac(EXAMPLE_KEY, SvcHmacV2Test.OTHER_SECRET, EXAMPLE_PASSPHRASE)
                .sign(EXAMPLE_NONCE, NOW, "POST", PATH, "b=2&a=1", BODY));
        assertEquals(SvcAuthResult.BAD_SIGNATURE, verify(headers));
    }

    @Test
    void unknownKeyAndCredentialMismatch()
    {
        final Map<String, String> headers = signedHmac(EXAMPLE_TS);
        assertEquals(SvcAuthResult.UNKNOWN_KEY,
            verifier.verify(headers::get, key -> null, "POST", PATH, "", BODY, NOW));
        assertEquals(SvcHeaders.KEY, verifier.errorField());
        assertEquals(SvcAuthResult.UNKNOWN_KEY,
            verifier.verify(headers::get, key -> ED25519_CREDENTIAL, "POST", PATH, "", BODY, NOW));

        final SvcCredential ed25519UnderHmacKey =
            SvcCredential.ed25519(EXAMPLE_KEY, SvcEd25519V3.publicKey(ED25519_SEED));
        assertEquals(SvcAuthResult.CREDENTIAL_MISMATCH,
            verifier.verify(headers::get, key -> ed25519UnderHmacKey, "POST", PATH, "", BODY, NOW));
        assertEquals(SvcHeaders.AUTH_VERSION, verifier.errorField());

        final Map<String, String> v3 = signedEd25519(EXAMPLE_TS);
        final SvcCredential hmacUnderEd25519Key =
            SvcCredential.hmac(EXAMPLE_ED25519_KEY, SvcHmacV2Test.SECRET, EXAMPLE_PASSPHRASE);
        assertEquals(SvcAuthResult.CREDENTIAL_MISMATCH,
            verifier.verify(v3::get, key -> hmacUnderEd25519Key, "POST", PATH, "", BODY, NOW));
    }

    /** An unknown key meets every check a known one meets before the signature: the first refusal does not name it. */
    @Test
    void anUnknownKeyIsCheckedAsFarAsAKnownOne()
    {
        final Map<String, String> stale = signedHmac(NOW - 60_000);
        assertEquals(SvcAuthResult.SKEW, verifier.verify(stale::get, key -> null, "POST", PATH, "", BODY, NOW));
        assertEquals(SvcAuthResult.SKEW, verify(stale));
        final Map<String, String> headers = signedHmac(EXAMPLE_TS);
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, key -> null, "POST", PATH + "\n", "", BODY, NOW));
        assertEquals(SvcAuthResult.MALFORMED_REQUEST, verifier.verify(headers::get, STORE::get, "POST", PATH + "\n", "",
            BODY, NOW));
        final Map<String, String> v3 = signedEd25519(NOW - 60_000);
        assertEquals(SvcAuthResult.SKEW, verifier.verify(v3::get, key -> null, "POST", PATH, "", BODY, NOW));
    }

    @Test
    void headerProblemsPassThroughWithTheirName()
    {
        final Map<String, String> headers = signedHmac(EXAMPLE_TS);
        headers.put(SvcHeaders.NONCE, "18446744073709551615");
        assertEquals(SvcAuthResult.NONCE_RESERVED, verify(headers));
        assertEquals(SvcHeaders.NONCE, verifier.errorField());
        assertTrue(verifier.errorMessage().startsWith(SvcHeaders.NONCE), verifier.errorMessage());
        assertEquals(400, verifier.result().httpStatus());
    }

    @Test
    void requestPartsThatCouldForgeLinesAreRejected()
    {
        final Map<String, String> headers = signedHmac(EXAMPLE_TS);
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, STORE::get, "POST", PATH + "\nquery:a=1", "", BODY, NOW));
        assertEquals("path", verifier.errorField());
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, STORE::get, "POST", PATH, "a=1\n", BODY, NOW));
        assertEquals("query", verifier.errorField());
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, STORE::get, "PO ST", PATH, "", BODY, NOW));
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, STORE::get, null, PATH, "", BODY, NOW));
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, STORE::get, "POST", null, "", BODY, NOW));
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, STORE::get, "POST", PATH, "", BODY, 3, BODY.length, NOW));
        assertEquals("body", verifier.errorField());
        assertEquals(SvcAuthResult.MALFORMED_REQUEST,
            verifier.verify(headers::get, STORE::get, "POST", PATH, "", BODY, -1, 2, NOW));
    }

    @Test
    void bodyMayBeASliceOrNull()
    {
        final byte[] framed = new byte[BODY.length + 10];
        System.arraycopy(BODY, 0, framed, 4, BODY.length);
        assertEquals(SvcAuthResult.OK, verifier.verify(
            signedHmac(EXAMPLE_TS)::get, STORE::get, "POST", PATH, "b=2&a=1", framed, 4, BODY.length, NOW));

        final Map<String, String> emptyBody = new HashMap<>(
            hmacSigner.sign(5, NOW, "GET", "/api/v1/bsl/limits", null, null));
        assertEquals(SvcAuthResult.OK,
            verifier.verify(emptyBody::get, STORE::get, "GET", "/api/v1/bsl/limits", null, null, NOW));
        assertEquals(SvcAuthResult.OK,
            verifier.verify(emptyBody::get, STORE::get, "GET", "/api/v1/bsl/limits", "", new byte[0], NOW));
    }

    @Test
    void credentialsAreCheckedOnceAtConstruction()
    {
        assertEquals("SvcCredential{spk_5f2b8c1d9e7a4630, version 2}", HMAC_CREDENTIAL.toString());
        Assertions.assertThrows(IllegalArgumentException.class,
            () -> SvcCredential.hmac(EXAMPLE_KEY, "sps_short", EXAMPLE_PASSPHRASE));
        Assertions.assertThrows(IllegalArgumentException.class,
            () -> SvcCredential.hmac(EXAMPLE_KEY, SvcHmacV2Test.SECRET, "spp_x"));
        Assertions.assertThrows(IllegalArgumentException.class,
            () -> SvcCredential.ed25519("spk_x", SvcEd25519V3.publicKey(ED25519_SEED)));
        final byte[] notOnCurve = new byte[32];
        notOnCurve[0] = 2;
        Assertions.assertThrows(IllegalArgumentException.class,
            () -> SvcCredential.ed25519(EXAMPLE_KEY, notOnCurve));
    }

    @Property(tries = 300)
    void anySingleCharacterChangeToASignedHeaderFails(
        @ForAll final boolean ed25519,
        @ForAll @IntRange(min = 0, max = 5) final int which,
        @ForAll @IntRange(min = 0, max = 200) final int position,
        @ForAll final char replacement)
    {
        final Map<String, String> headers = ed25519 ? signedEd25519(EXAMPLE_TS) : signedHmac(EXAMPLE_TS);
        final String name = SvcHeadersTest.NAMES.get(which);
        final String value = headers.get(name);
        if (value == null || value.isEmpty())
        {
            return;
        }
        final int at = position % value.length();
        if (value.charAt(at) == replacement)
        {
            return;
        }
        headers.put(name, value.substring(0, at) + replacement + value.substring(at + 1));
        assertNotEquals(SvcAuthResult.OK, verify(headers), () -> name + " -> " + headers.get(name));
        // only the headers changed: the refusal names one of them, and its message a header
        assertTrue(SvcHeadersTest.NAMES.contains(verifier.errorField()), verifier.errorField());
        assertTrue(verifier.errorMessage().startsWith("SVC-"), verifier.errorMessage());
    }

    @Property(tries = 1000)
    void randomRequestsNeverThrowAndAlwaysNameAResult(
        @ForAll("headerMaps") final Map<String, String> headers,
        @ForAll("tokens") final String method,
        @ForAll("tokens") final String path,
        @ForAll("tokens") final String query,
        @ForAll final byte[] body,
        @ForAll final int bodyOffset,
        @ForAll final int bodyLength,
        @ForAll final long now)
    {
        final Function<String, SvcCredential> store = STORE::get;
        final SvcAuthResult full = verifier.verify(headers::get, store, method, path, query, body, now);
        assertNamed(full);
        final SvcAuthResult sliced = verifier.verify(headers::get, store, method, path, query, body, bodyOffset,
            bodyLength, now);
        assertNamed(sliced);
        final SvcAuthResult nulls = verifier.verify(headers::get, store, null, null, null, null, 0, 0, now);
        assertNamed(nulls);
    }

    private void assertNamed(final SvcAuthResult result)
    {
        assertNotNull(result);
        assertEquals(result, verifier.result());
        if (result != SvcAuthResult.OK)
        {
            // a header, or the part of the request that is not one
            assertTrue(SvcHeadersTest.NAMES.contains(verifier.errorField()) ||
                List.of("method", "path", "query", "body").contains(verifier.errorField()), verifier.errorField());
            assertTrue(!verifier.errorMessage().isBlank(), result::name);
        }
    }

    @Provide
    Arbitrary<String> tokens()
    {
        return Arbitraries.oneOf(
            Arbitraries.of("POST", "GET", PATH, "b=2&a=1", ""),
            Arbitraries.strings().ofMaxLength(50));
    }

    @Provide
    Arbitrary<Map<String, String>> headerMaps()
    {
        return Arbitraries.oneOf(
            new SvcHeadersTest().headerMaps(),
            Arbitraries.of(true, false).map(ed -> ed ? signedEd25519(NOW) : signedHmac(NOW)),
            Arbitraries.maps(
                Arbitraries.oneOf(Arbitraries.of(SvcHeadersTest.NAMES), Arbitraries.strings().ofMaxLength(20)),
                Arbitraries.strings().ofMaxLength(200)).ofMaxSize(8));
    }
}
