package io.venue.auth;

import io.venue.codec.Hex;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CredentialDeliveryTest
{
    private static final String ID = "spk_0123456789abcdef";
    private static final String SECRET = "sps_" + "ab".repeat(32);
    private static final String PASSPHRASE = "spp_" + "cd".repeat(16);

    @Test
    void onlyTheRequestersKeyOpensTheSealedCredentialForItsId()
    {
        final SecureRandom random = new SecureRandom();
        final CredentialDelivery.Requester requester = new CredentialDelivery.Requester(random);
        final byte[] sealed = CredentialDelivery.seal(requester.keyText(), ID, SECRET, PASSPHRASE, random);
        assertEquals(32 + 12 + SECRET.length() + 1 + PASSPHRASE.length() + 16, sealed.length, "the layout's length");
        final CredentialDelivery.Opened opened = requester.open(Hex.to0x(sealed), ID);
        assertEquals(SECRET, opened.apiSecret());
        assertEquals(PASSPHRASE, opened.apiPassphrase());
        assertEquals(SECRET, new CredentialDelivery.Requester(requester.privateKey()).open(Hex.to0x(sealed), ID)
            .apiSecret(), "a kept private key opens it too");

        assertThrows(IllegalArgumentException.class,
            () -> new CredentialDelivery.Requester(random).open(Hex.to0x(sealed), ID), "another key");
        assertThrows(IllegalArgumentException.class,
            () -> requester.open(Hex.to0x(sealed), "spk_0123456789abcdee"), "another id");
        sealed[sealed.length - 1] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> requester.open(Hex.to0x(sealed), ID), "a changed byte");
        assertTrue(!opened.toString().contains(SECRET), "toString never shows the secret");
    }

    @Test
    void aLowOrderDeliveryKeyIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> CredentialDelivery.seal("x25519:" + "00".repeat(32), ID,
            SECRET, PASSPHRASE, new SecureRandom()));
        assertThrows(IllegalArgumentException.class, () -> CredentialDelivery.publicKey("x25519:00"));
    }
}
