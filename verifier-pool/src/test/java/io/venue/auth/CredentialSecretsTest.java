package io.venue.auth;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CredentialSecretsTest
{
    @Test
    void secretsAreDerivedPerKeyIdAndKey()
    {
        final byte[] key = new byte[32];
        final CredentialSecrets secrets = new CredentialSecrets(key);
        final String secret = secrets.apiSecret("spk_0000000000000001");
        assertTrue(Credentials.isApiSecret(secret), secret);
        assertTrue(Credentials.isPassphrase(secrets.passphrase("spk_0000000000000001")));
        assertEquals(secret, new CredentialSecrets(key.clone()).apiSecret("spk_0000000000000001"),
            "the same on every node");
        assertNotEquals(secret, secrets.apiSecret("spk_0000000000000002"));
        key[0] = 1;
        assertEquals(secret, secrets.apiSecret("spk_0000000000000001"), "the key was copied");
        assertNotEquals(secret, new CredentialSecrets(key).apiSecret("spk_0000000000000001"));
        assertThrows(IllegalArgumentException.class, () -> new CredentialSecrets(new byte[31]));
    }

    @Test
    void anIntentNamesTheSameCredentialEveryTimeUnderItsKeyVersion()
    {
        final byte[] one = new byte[32];
        final byte[] two = new byte[32];
        two[0] = 2;
        final byte[] digest = new byte[32];
        digest[31] = 7;
        final CredentialSecrets first = new CredentialSecrets(Map.of(1, one));
        final CredentialSecrets both = new CredentialSecrets(Map.of(1, one, 2, two));
        final String id = first.apiKeyIdFor(digest);
        assertTrue(Credentials.isApiKeyId(id), id);
        assertTrue(id.startsWith("spk_01"), id);
        assertEquals(id, new CredentialSecrets(Map.of(1, one.clone())).apiKeyIdFor(digest.clone()), "on every node");
        assertTrue(both.apiKeyIdFor(digest).startsWith("spk_02"), "under the current version");
        assertNotEquals(id.substring(6), both.apiKeyIdFor(digest).substring(6), "another key, another id");
        digest[0] = 1;
        assertNotEquals(id, first.apiKeyIdFor(digest), "another intent, another id");
    }

    @Test
    void eachVersionDerivesItsOwnSecretsAndTheHighestIsCurrent()
    {
        final byte[] one = new byte[32];
        final byte[] two = new byte[32];
        two[0] = 2;
        final CredentialSecrets secrets = new CredentialSecrets(Map.of(2, two, 1, one));
        assertEquals(2, secrets.currentVersion());
        assertEquals(List.of(1, 2), List.copyOf(secrets.versions()));
        assertEquals(new CredentialSecrets(one).apiSecret("spk_0000000000000001"),
            secrets.apiSecret("spk_0000000000000001", 1), "version 1 of a set is the single key of before");
        assertEquals(new CredentialSecrets(two).apiSecret("spk_0000000000000001"),
            secrets.apiSecret("spk_0000000000000001"), "the current version");
        assertFalse(secrets.holds(3));
        assertThrows(IllegalStateException.class, () -> secrets.apiSecret("spk_0000000000000001", 3));
        assertThrows(IllegalArgumentException.class, () -> new CredentialSecrets(Map.of(256, one)));
        assertThrows(IllegalArgumentException.class, () -> new CredentialSecrets(Map.of()));

        final String id = Credentials.newApiKeyId(new SecureRandom(), 2);
        assertTrue(Credentials.isApiKeyId(id) && id.startsWith("spk_02"), id);
        assertTrue(Credentials.newApiKeyId(new SecureRandom(), 255).startsWith("spk_ff"));
        assertThrows(IllegalArgumentException.class, () -> Credentials.newApiKeyId(new SecureRandom(), 0));
    }
}
