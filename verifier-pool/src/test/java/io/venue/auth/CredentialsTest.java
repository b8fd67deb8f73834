package io.venue.auth;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CredentialsTest
{
    private final SecureRandom random = new SecureRandom();

    @Test
    void generatedValuesHaveTheirFormat()
    {
        final Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++)
        {
            final String keyId = Credentials.newApiKeyId(random);
            final String secret = Credentials.newApiSecret(random);
            final String passphrase = Credentials.newPassphrase(random);
            assertTrue(keyId.matches("spk_[0-9a-f]{16}"), keyId);
            assertTrue(secret.matches("sps_[0-9a-f]{64}"), secret);
            assertTrue(passphrase.matches("spp_[0-9a-f]{32}"), passphrase);
            assertEquals(Credentials.API_KEY_ID_LENGTH, keyId.length());
            assertEquals(Credentials.API_SECRET_LENGTH, secret.length());
            assertEquals(Credentials.PASSPHRASE_LENGTH, passphrase.length());
            assertTrue(Credentials.isApiKeyId(keyId));
            assertTrue(Credentials.isApiSecret(secret));
            assertTrue(Credentials.isPassphrase(passphrase));
            assertTrue(seen.add(secret));
        }
    }

    @Test
    void generationUsesTheRandomPassedIn() throws Exception
    {
        final SecureRandom first = SecureRandom.getInstance("SHA1PRNG");
        first.setSeed(42);
        final SecureRandom second = SecureRandom.getInstance("SHA1PRNG");
        second.setSeed(42);
        assertEquals(Credentials.newApiSecret(first), Credentials.newApiSecret(second));
    }

    @Test
    void validationRejectsEveryOtherShape()
    {
        for (final String value : List.of(
            "", "spk_", "spk_0123456789abcde", "spk_0123456789abcdef0", "spk_0123456789ABCDEF", "SPK_0123456789abcdef",
            "spk-0123456789abcdef", "sps_0123456789abcdef", " spk_0123456789abcdef", "spk_0123456789abcdeg"))
        {
            assertFalse(Credentials.isApiKeyId(value), value);
        }
        assertFalse(Credentials.isApiKeyId(null));
        assertTrue(Credentials.isApiKeyId("spk_0123456789abcdef"));

        assertTrue(Credentials.isApiSecret("sps_" + "a".repeat(64)));
        assertFalse(Credentials.isApiSecret("sps_" + "a".repeat(63)));
        assertFalse(Credentials.isApiSecret("sps_" + "A".repeat(64)));
        assertFalse(Credentials.isApiSecret("spp_" + "a".repeat(64)));

        assertTrue(Credentials.isPassphrase("spp_" + "0".repeat(32)));
        assertFalse(Credentials.isPassphrase("spp_" + "0".repeat(33)));
        assertFalse(Credentials.isPassphrase("spp_" + "0".repeat(31) + "G"));
        assertFalse(Credentials.isPassphrase("sps_" + "0".repeat(32)));
    }

    @Property(tries = 500)
    void validationAgreesWithARegex(@ForAll final String text)
    {
        assertEquals(text.matches("spk_[0-9a-f]{16}"), Credentials.isApiKeyId(text));
        assertEquals(text.matches("spp_[0-9a-f]{32}"), Credentials.isPassphrase(text));
    }
}
