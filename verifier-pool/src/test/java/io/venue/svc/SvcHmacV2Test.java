package io.venue.svc;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvcHmacV2Test
{
    static final String SECRET = "sps_2f6e0c8b4a1d9e7f3c5b8a0d6e2f4c1b9a7d5e3f1c0b8a6d4e2f0c9b7a5d3e1f";
    static final String OTHER_SECRET = "sps_" + "11".repeat(32);

    private final SvcHmacV2 hmac = new SvcHmacV2();

    /** RFC 4231 test case 2: the class is plain HMAC-SHA256 keyed with the UTF-8 of the given string. */
    @Test
    void rfc4231TestCase2()
    {
        assertEquals("0x5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            hmac.sign("Jefe", "what do ya want for nothing?"));
    }

    @Test
    void keyIsTheUtf8OfTheWholeSecretPrefixIncluded() throws Exception
    {
        final String message = SvcCanonicalString.of(
            SvcAuthVersion.HMAC_SHA256, "spk_0123456789abcdef", 42, 1_700_000_000_000L, "POST", "/x", "b=2&a=1",
            "{}".getBytes(StandardCharsets.UTF_8));

        final Mac jdk = Mac.getInstance("HmacSHA256");
        jdk.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        final String expected = "0x" + HexFormat.of().formatHex(jdk.doFinal(message.getBytes(StandardCharsets.UTF_8)));

        assertEquals(expected, hmac.sign(SECRET, message));

        // Not the 32 bytes the hex digits encode.
        jdk.init(new SecretKeySpec(HexFormat.of().parseHex(SECRET.substring(4)), "HmacSHA256"));
        final String hexKeyed = "0x" + HexFormat.of().formatHex(jdk.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        assertNotEquals(hexKeyed, hmac.sign(SECRET, message));
    }

    /** Pinned so a change of the signed string or the key rule cannot pass unnoticed; docs/MACHINE-AUTH.md. */
    @Test
    void documentedExample()
    {
        final byte[] body = SvcVerifierTest.EXAMPLE_BODY.getBytes(StandardCharsets.UTF_8);
        final String message = SvcCanonicalString.of(
            SvcAuthVersion.HMAC_SHA256, SvcVerifierTest.EXAMPLE_KEY, SvcVerifierTest.EXAMPLE_NONCE,
            SvcVerifierTest.EXAMPLE_TS, "POST", "/api/v1/mm/orders/replace", "b=2&a=1", body);
        assertEquals(SvcVerifierTest.EXAMPLE_STRING, message);
        assertEquals(SvcVerifierTest.EXAMPLE_HMAC_SIGNATURE, hmac.sign(SECRET, message));
    }

    @Test
    void verifyAcceptsOnlyTheExactMac()
    {
        final byte[] message = "svc".getBytes(StandardCharsets.UTF_8);
        final byte[] mac = new byte[40];
        hmac.mac(SECRET, message, 0, message.length, mac, 8);
        assertTrue(hmac.verify(SECRET, message, 0, message.length, mac, 8));
        assertFalse(hmac.verify(OTHER_SECRET, message, 0, message.length, mac, 8));
        for (int i = 0; i < 32; i++)
        {
            mac[8 + i] ^= 1;
            assertFalse(hmac.verify(SECRET, message, 0, message.length, mac, 8));
            mac[8 + i] ^= 1;
        }
    }

    @Test
    void missingSecretIsRejectedNotSilentlyUnkeyed()
    {
        assertThrows(IllegalArgumentException.class, () -> hmac.sign(null, "x"));
        assertThrows(IllegalArgumentException.class, () -> hmac.sign("", "x"));
    }

    @Property(tries = 200)
    void rekeyingBetweenSecretsNeverMixesKeys(@ForAll final byte[] message, @ForAll final boolean sameInstance)
        throws Exception
    {
        final Mac jdk = Mac.getInstance("HmacSHA256");
        jdk.init(new SecretKeySpec(OTHER_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        final String expectedOther = "0x" + HexFormat.of().formatHex(jdk.doFinal(message));

        final String first = hmac.sign(SECRET, message, 0, message.length);
        // An equal secret in a new String instance must give the same MAC.
        final String again = hmac.sign(sameInstance ? SECRET : new String(SECRET.toCharArray()), message, 0,
            message.length);
        assertEquals(first, again);
        assertEquals(expectedOther, hmac.sign(OTHER_SECRET, message, 0, message.length));
        assertEquals(first, hmac.sign(SECRET, message, 0, message.length));
    }
}
