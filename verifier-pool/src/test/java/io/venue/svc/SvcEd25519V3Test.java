package io.venue.svc;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvcEd25519V3Test
{
    /** RFC 8032 section 7.1, TEST 1 to 3: seed, public key, message, signature. */
    private static final String[][] RFC8032 = {
        {
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155" +
            "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        },
        {
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da" +
            "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        },
        {
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac" +
            "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        },
    };

    private static final HexFormat HEX = HexFormat.of();
    private final SvcEd25519V3 ed25519 = new SvcEd25519V3();

    @Test
    void rfc8032Vectors()
    {
        for (final String[] vector : RFC8032)
        {
            final byte[] seed = HEX.parseHex(vector[0]);
            final byte[] publicKey = HEX.parseHex(vector[1]);
            final byte[] message = HEX.parseHex(vector[2]);
            final byte[] signature = HEX.parseHex(vector[3]);

            assertArrayEquals(publicKey, SvcEd25519V3.publicKey(seed));
            assertEquals("0x" + vector[3], ed25519.sign(seed, message, 0, message.length));
            assertTrue(ed25519.verify(publicKey, message, 0, message.length, signature, 0));
        }
    }

    @Test
    void documentedExample()
    {
        final byte[] seed = HEX.parseHex(RFC8032[0][0]);
        assertEquals(SvcVerifierTest.EXAMPLE_ED25519_SIGNATURE,
            ed25519.sign(seed, SvcVerifierTest.EXAMPLE_ED25519_STRING));
    }

    @Test
    void tamperedSignatureOrMessageFails()
    {
        final byte[] publicKey = HEX.parseHex(RFC8032[2][1]);
        final byte[] message = HEX.parseHex(RFC8032[2][2]);
        final byte[] signature = HEX.parseHex(RFC8032[2][3]);
        for (int i = 0; i < 64; i++)
        {
            signature[i] ^= 0x10;
            assertFalse(ed25519.verify(publicKey, message, 0, message.length, signature, 0));
            signature[i] ^= 0x10;
        }
        message[0] ^= 1;
        assertFalse(ed25519.verify(publicKey, message, 0, message.length, signature, 0));
    }

    @Test
    void signatureMayLiveAtAnOffset()
    {
        final byte[] seed = HEX.parseHex(RFC8032[1][0]);
        final byte[] message = {0, 0x72, 0};
        final byte[] buffer = new byte[70];
        ed25519.sign(seed, message, 1, 1, buffer, 3);
        assertEquals(RFC8032[1][3], HEX.formatHex(buffer, 3, 67));
        assertTrue(ed25519.verify(HEX.parseHex(RFC8032[1][1]), message, 1, 1, buffer, 3));
    }

    @Test
    void badPublicKeysFailWithoutThrowing()
    {
        final byte[] message = {1};
        final byte[] signature = new byte[64];
        final byte[] notOnCurve = new byte[32];
        notOnCurve[0] = 2;
        assertNull(SvcEd25519V3.parsePublicKey(notOnCurve));
        assertNull(SvcEd25519V3.parsePublicKey(new byte[31]));
        assertNull(SvcEd25519V3.parsePublicKey(null));
        assertFalse(ed25519.verify(notOnCurve, message, 0, 1, signature, 0));
        assertFalse(ed25519.verify(new byte[33], message, 0, 1, signature, 0));
        assertThrows(IllegalArgumentException.class, () -> ed25519.sign(new byte[31], "x"));
    }

    @Property(tries = 50)
    void signThenVerifyRoundTrips(@ForAll final byte[] message)
    {
        final byte[] seed = HEX.parseHex(RFC8032[0][0]);
        final byte[] signature = HEX.parseHex(ed25519.sign(seed, message, 0, message.length).substring(2));
        assertTrue(ed25519.verify(SvcEd25519V3.publicKey(seed), message, 0, message.length, signature, 0));
    }
}
